import HealthAnalysis
import HealthExport

// report.md: The most recent weeks with their week-over-week change.

extension MarkdownReport {
    mutating func weeks() {
        let shown = Array(result.weeks.suffix(max(options.weeksInReport, 0)))
        text += "## Recent weeks\n\n"
        guard !shown.isEmpty else {
            text += "No weeks with data.\n\n"
            return
        }
        text +=
            shown.count == result.weeks.count
            ? "All \(grouped(shown.count)) \(shown.count == 1 ? "week" : "weeks"):\n\n"
            : "The last \(grouped(shown.count)) of \(grouped(result.weeks.count)) weeks:\n\n"
        var rows: [[String]] = []
        for week in shown {
            func change(_ percent: Double?) -> String {
                if week.partial { return none }
                return percent.flatMap { DecimalFormat(decimals: 1, showsPlusSign: true).string($0) }.map { $0 + "%" }
                    ?? "n/a"
            }
            let rings = [
                week.moveRingClosedDays, week.exerciseRingClosedDays, week.standRingClosedDays,
                week.allRingsClosedDays,
            ].map(String.init).joined(separator: " / ")
            rows.append([
                Markdown.escape(week.week) + (week.partial ? " (partial)" : ""),
                "\(week.days)/7",
                number(week.stepsPerDay, 0), change(week.stepsChangePercent),
                number(week.activeEnergyKcalPerDay, 0), change(week.activeEnergyChangePercent),
                number(week.exerciseMinutesPerDay, 0), change(week.exerciseChangePercent),
                rings,
                grouped(week.workouts),
            ])
        }
        text += Markdown.table(
            [
                "Week", "Days", "Steps per day", "Change", "Active energy (kcal per day)", "Change",
                "Exercise (min per day)", "Change", "Rings closed: move / exercise / stand / all", "Workouts",
            ],
            [.left, .right, .right, .right, .right, .right, .right, .right, .right, .right], rows)
        text +=
            "\nPer-day values are means over the days with data. Change is against the previous "
            + "week; it is not shown (—) for partial weeks, which are not fully inside the data period, "
            + "and is n/a when the previous week is partial or its value is 0. All weeks are in "
            + "[weekly.csv](weekly.csv).\n\n"
    }
}

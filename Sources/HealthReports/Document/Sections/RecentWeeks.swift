import HealthAnalysis
import HealthExport
import HealthTables

// The report: the most recent weeks with their week-over-week change.

extension ReportSections {
    mutating func weeks() {
        let shown = Array(result.weeks.suffix(max(options.weeksInReport, 0)))
        guard heading("Recent weeks", emptyWhen: shown.isEmpty, "No weeks with data.") else { return }
        paragraph(
            shown.count == result.weeks.count
                ? "All \(grouped(shown.count)) \(shown.count == 1 ? "week" : "weeks"):"
                : "The last \(grouped(shown.count)) of \(grouped(result.weeks.count)) weeks:")
        var rows: [[[Inline]]] = []
        for week in shown {
            /// The value with its change in one cell, so that the table fits GitHub's width.
            func withChange(_ value: Double?, _ percent: Double?) -> String {
                let v = number(value, 0)
                if week.partial || value == nil { return v }
                let c = percent.flatMap { DecimalFormat(decimals: 1, showsPlusSign: true).string($0) }.map { $0 + "%" }
                return v + " (" + (c ?? "n/a") + ")"
            }
            let start = week.weekStart.daysSince1970
            let rings =
                hasRingGoals({ (start...(start + 6)).contains($0.daysSince1970) })
                ? [
                    week.moveRingClosedDays, week.exerciseRingClosedDays, week.standRingClosedDays,
                    week.allRingsClosedDays,
                ].map(String.init).joined(separator: " / ") : none
            rows.append(
                [[.input(week.week)] + (week.partial ? [.text(" (partial)")] : [])]
                    + [
                        "\(week.days)/7",
                        withChange(week.stepsPerDay, week.stepsChangePercent),
                        withChange(week.activeEnergyKcalPerDay, week.activeEnergyChangePercent),
                        withChange(week.exerciseMinutesPerDay, week.exerciseChangePercent),
                        rings,
                        grouped(week.workouts),
                    ].map { [.text($0)] })
        }
        add(
            .table(
                DocumentTable(
                    [
                        "Week", "Days", "Steps/day", "Active kcal/day", "Exercise min/day", "Rings M/E/S/all",
                        "Workouts",
                    ],
                    [.left, .right, .right, .right, .right, .right, .right], rows)))
        add(
            .paragraph([
                .text(
                    "Per-day values are means over the days with data; in parentheses the change against the "
                        + "previous week. The change is not shown for partial weeks (a day outside the "
                        + "period, or on the export's own day; the rule of months too), and is n/a when the previous week is partial or its value is 0. Rings: the days "
                        + "the Move, Exercise and Stand rings, and all three, were closed. All weeks are in "),
                .link("weekly.csv", href: "weekly.csv"), .text("."),
            ]))
        if !shown.allSatisfy({ w in
            let start = w.weekStart.daysSince1970
            return hasRingGoals({ (start...(start + 6)).contains($0.daysSince1970) })
        }) {
            paragraph(Self.noRingGoalsNote)
        }
    }

    /// Said once under a table whose rings show "—".
    static let noRingGoalsNote =
        "Rings \u{2014}: no day of that week or month has ring goals (no ActivitySummary), so no ring "
        + "was closed or left open; 0 would read as never closed."

    /// Whether any reported day matching `isIn` has a ring goal (an ActivitySummary with goals).
    func hasRingGoals(_ isIn: (CivilDate) -> Bool) -> Bool {
        result.days.contains { isIn($0.date) && RingsClosed($0).hasGoals }
    }
}

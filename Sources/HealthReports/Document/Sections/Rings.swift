import HealthAnalysis
import HealthExport

// The report: Activity rings: closed-day counts and the longest all-rings streak.

extension ReportSections {
    mutating func rings() {
        heading("Activity rings")
        let daysWithGoals = result.days.filter { $0.ringsClosed != nil }.count
        guard daysWithGoals > 0 else {
            let daysWithSummary = result.days.filter {
                $0.moveGoalKcal != nil || $0.moveGoalMinutes != nil || $0.exerciseGoalMinutes != nil
                    || $0.standGoalHours != nil
            }.count
            guard !result.days.isEmpty else {
                // Nothing reported (e.g. --from/--to outside the data): say nothing about the export.
                paragraph("No days are reported, so no ring can be counted.")
                return
            }
            paragraph(
                daysWithSummary == 0
                    ? "No day has ring goals (no ActivitySummary), so no ring can be counted as closed."
                    : "\(grouped(daysWithSummary)) \(daysWithSummary == 1 ? "day has" : "days have") ring goals from an "
                        + "ActivitySummary, but none of them has Apple Watch ring records (move energy, exercise "
                        + "minutes or stand hours) to compare with the goals, so no ring is counted as closed.")
            return
        }
        let closed: [(String, Int)] = [
            ("Move", result.weeks.reduce(0) { $0 + $1.moveRingClosedDays }),
            ("Exercise", result.weeks.reduce(0) { $0 + $1.exerciseRingClosedDays }),
            ("Stand", result.weeks.reduce(0) { $0 + $1.standRingClosedDays }),
            ("All three", result.weeks.reduce(0) { $0 + $1.allRingsClosedDays }),
        ]
        // Which source the counts use, as "At a glance" names it (RingsClosed).
        let fromSummary = result.days.filter { $0.ringsClosed != nil && RingsClosed.usesSummaryValues($0) }.count
        paragraph(
            "Of \(grouped(daysWithGoals)) \(daysWithGoals == 1 ? "day" : "days") with ring goals"
                + (fromSummary == 0
                    ? ":"
                    : fromSummary == daysWithGoals
                        ? " (no ring records on any of them: the rings are the ActivitySummary's own values against "
                            + "its goals):"
                        : " (\(grouped(fromSummary)) without ring records, whose rings are the ActivitySummary's own "
                            + "values against its goals):"))
        add(
            .table(
                DocumentTable(
                    ["Ring", "Days closed", "Share of days"], [.left, .right, .right],
                    text: closed.map { name, days in
                        [name, grouped(days), percent(Double(days), of: Double(daysWithGoals))]
                    })))
        let streak = result.longestAllRingsStreak
        if streak.days > 0 {
            var line: [Inline] = [
                .text("Longest streak with all three rings closed: "),
                .strong([.text("\(grouped(streak.days)) \(streak.days == 1 ? "day" : "days")")]),
            ]
            if let first = streak.first, let last = streak.last {
                line.append(.text(first == last ? " (\(first))" : " (\(first) to \(last))"))
            }
            add(.paragraph(line + [.text(".")]))
        } else {
            paragraph("No day had all three rings closed.")
        }
    }
}

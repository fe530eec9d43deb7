import HealthAnalysis
import HealthExport

// report.md: Activity rings: closed-day counts and the longest all-rings streak.

extension MarkdownReport {
    mutating func rings() {
        text += "## Activity rings\n\n"
        let daysWithGoals = result.days.filter { $0.ringsClosed != nil }.count
        guard daysWithGoals > 0 else {
            let daysWithSummary = result.days.filter {
                $0.moveGoalKcal != nil || $0.moveGoalMinutes != nil || $0.exerciseGoalMinutes != nil
                    || $0.standGoalHours != nil
            }.count
            guard !result.days.isEmpty else {
                // Nothing reported (e.g. --from/--to outside the data): say nothing about the export.
                text += "No days are reported, so no ring can be counted.\n\n"
                return
            }
            text +=
                daysWithSummary == 0
                ? "No day has ring goals (no ActivitySummary), so no ring can be counted as closed.\n\n"
                : "\(grouped(daysWithSummary)) \(daysWithSummary == 1 ? "day has" : "days have") ring goals from an "
                    + "ActivitySummary, but none of them has Apple Watch ring records (move energy, exercise "
                    + "minutes or stand hours) to compare with the goals, so no ring is counted as closed.\n\n"
            return
        }
        let closed: [(String, Int)] = [
            ("Move", result.weeks.reduce(0) { $0 + $1.moveRingClosedDays }),
            ("Exercise", result.weeks.reduce(0) { $0 + $1.exerciseRingClosedDays }),
            ("Stand", result.weeks.reduce(0) { $0 + $1.standRingClosedDays }),
            ("All three", result.weeks.reduce(0) { $0 + $1.allRingsClosedDays }),
        ]
        text += "Of \(grouped(daysWithGoals)) \(daysWithGoals == 1 ? "day" : "days") with ring goals:\n\n"
        text += Markdown.table(
            ["Ring", "Days closed", "Share of days"], [.left, .right, .right],
            closed.map { name, days in [name, grouped(days), percent(Double(days), of: Double(daysWithGoals))] })
        text += "\n"
        let streak = result.longestAllRingsStreak
        if streak.days > 0 {
            var line =
                "Longest streak with all three rings closed: **\(grouped(streak.days)) "
                + "\(streak.days == 1 ? "day" : "days")**"
            if let first = streak.first, let last = streak.last {
                line += first == last ? " (\(first))" : " (\(first) to \(last))"
            }
            text += line + ".\n\n"
        } else {
            text += "No day had all three rings closed.\n\n"
        }
    }
}

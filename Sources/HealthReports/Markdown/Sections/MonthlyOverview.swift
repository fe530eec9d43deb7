import HealthAnalysis
import HealthExport

// report.md: one row per calendar month (monthly.csv has every column).

extension MarkdownReport {
    mutating func monthlyOverview() {
        text += "## Months\n\n"
        guard !result.months.isEmpty else {
            text += "No months with data.\n\n"
            return
        }
        func hours(_ minutes: Double?) -> String {
            guard let minutes else { return none }
            let m = Int(minutes.rounded())
            return "\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)"
        }
        let rows = result.months.map { m in
            [
                m.month + (m.partial ? " (partial: \(m.days) \(m.days == 1 ? "day" : "days"))" : ""),
                number(m.stepsPerDay, 0),
                number(m.moveKcalPerDay, 0), number(m.exerciseMinutesPerDay, 0),
                "\(m.moveRingClosedDays)/\(m.exerciseRingClosedDays)/\(m.standRingClosedDays)",
                grouped(m.workouts), hours(m.sleepMinutesPerNight), number(m.restingHeartRateAvgBpm, 1),
            ]
        }
        text += Markdown.table(
            [
                "Month", "Steps/day", "Move kcal/day", "Exercise min/day", "Rings M/E/S", "Workouts", "Sleep/night",
                "Resting HR",
            ],
            [.left, .right, .right, .right, .right, .right, .right, .right], rows)
        text +=
            "\nPer-day values are means over the days with data; sleep (hours:minutes) is the mean per night "
            + "(by wake-up date); rings are the days the Move, Exercise and Stand rings were closed; resting HR in bpm. All columns are in [monthly.csv](monthly.csv).\n\n"
    }
}

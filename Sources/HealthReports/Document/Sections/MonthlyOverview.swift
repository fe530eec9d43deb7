import HealthAnalysis
import HealthExport

// The report: one row per calendar month (monthly.csv has every column).

extension ReportSections {
    mutating func monthlyOverview() {
        guard heading("Months", emptyWhen: result.months.isEmpty, "No months with data.") else { return }
        func hours(_ minutes: Double?) -> String {
            guard let minutes else { return none }
            let m = Int(minutes.rounded())
            return "\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)"
        }
        var header = [
            "Month", "Steps/day", "Move kcal/day", "Exercise min/day", "Rings M/E/S", "Workouts", "Sleep/night",
            "Resting HR",
        ]
        var rows = result.months.map { m in
            [
                m.month + (m.partial ? " (partial: \(counted(m.days, "day")))" : ""),
                number(m.stepsPerDay, 0),
                number(m.moveKcalPerDay, 0), number(m.exerciseMinutesPerDay, 0),
                hasRingGoals({ $0.description.hasPrefix(m.month) })
                    ? "\(m.moveRingClosedDays)/\(m.exerciseRingClosedDays)/\(m.standRingClosedDays)" : none,
                grouped(m.workouts), hours(m.sleepMinutesPerNight), number(m.restingHeartRateAvgBpm, 1),
            ]
        }
        // The body and vital measures, as columns only when some month has them.
        let vitals: [(name: String, decimals: Int, value: (MonthlyMetrics) -> Double?)] = [
            ("HRV ms", 1, { $0.hrvSdnnAvgMs }), ("Body mass kg", 1, { $0.bodyMassKg }),
            ("VO2 max", 1, { $0.vo2MaxMlPerMinKg }), ("SpO2 %", 1, { $0.oxygenSaturationPercent }),
            ("Resp./min", 1, { $0.respiratoryRateBreathsPerMin }), ("Wrist °C", 2, { $0.wristTemperatureC }),
        ]
        for vital in vitals where result.months.contains(where: { vital.value($0) != nil }) {
            header.append(vital.name)
            for (k, m) in result.months.enumerated() { rows[k].append(number(vital.value(m), vital.decimals)) }
        }
        if result.months.contains(where: { $0.bloodPressureSystolicMmHg != nil }) {
            header.append("BP mmHg")
            for (k, m) in result.months.enumerated() {
                rows[k].append(
                    m.bloodPressureSystolicMmHg.map { number($0, 0) + "/" + number(m.bloodPressureDiastolicMmHg, 0) }
                        ?? none)
            }
        }
        add(.table(DocumentTable(header, [.left] + Array(repeating: .right, count: header.count - 1), text: rows)))
        add(
            .paragraph([
                .text(
                    "Per-day values are means over the days with data; sleep (hours:minutes) is the mean per night "
                        + "(by wake-up date); rings are the days the Move, Exercise and Stand rings were closed; "
                        + "resting HR in bpm; body and vital measures are means of the days' values. A month is "
                        + "partial, as a week is, when one of its days is outside the period or on the export's own "
                        + "day. All columns are in "),
                .link("monthly.csv", href: "monthly.csv"), .text("."),
            ]))
        if !result.months.allSatisfy({ m in hasRingGoals({ $0.description.hasPrefix(m.month) }) }) {
            paragraph(Self.noRingGoalsNote)
        }
    }
}

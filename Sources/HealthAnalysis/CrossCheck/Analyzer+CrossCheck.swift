import HealthExport

extension Analyzer {
    /// Compares record-derived ring values with the day's ActivitySummary (docs/rings.md §4):
    /// exercise and move minutes ±1 min, stand hours exact, energy ±max(1 kcal, 1 %).
    /// A day with a summary but no ring records at all (no Watch energy, exercise, move time or
    /// stand record) is counted apart in `daysWithoutRingRecords`, not compared; otherwise a
    /// missing record value compares as 0.
    static func crossCheck(_ rows: [DailyMetrics], summaries: [CivilDate: ActivitySummary]) -> SummaryCrossCheck {
        var check = SummaryCrossCheck()
        for row in rows {
            guard let s = summaries[row.date] else { continue }
            if row.moveKcal == nil && row.moveMinutes == nil && row.exerciseMinutes == nil && row.standHours == nil {
                check.daysWithoutRingRecords += 1
                continue
            }
            var compared = false
            var agrees = true
            func compare(
                _ metric: SummaryDisagreement.Metric, _ record: Double?, _ summary: Double?,
                tolerance: (Double) -> Double
            ) {
                guard let summary else { return }
                compared = true
                if abs((record ?? 0) - summary) > tolerance(summary) + 1e-9 {
                    agrees = false
                    check.disagreements.append(
                        SummaryDisagreement(date: row.date, metric: metric, recordValue: record, summaryValue: summary))
                }
            }
            if s.isMoveTimeMode {
                compare(.moveMinutes, row.moveMinutes, s.appleMoveTimeMinutes) { _ in 1 }
            } else {
                compare(.moveKcal, row.moveKcal, s.activeEnergyBurnedKcal) { max(1, abs($0) * 0.01) }
            }
            compare(.exerciseMinutes, row.exerciseMinutes, s.appleExerciseTimeMinutes) { _ in 1 }
            compare(.standHours, row.standHours.map(Double.init), s.appleStandHours) { _ in 0 }
            if compared {
                check.daysCompared += 1
                if agrees { check.daysAgreeing += 1 }
            }
        }
        return check
    }
}

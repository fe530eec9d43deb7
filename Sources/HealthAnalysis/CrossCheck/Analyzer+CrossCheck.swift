import HealthExport

extension Analyzer {
    /// Compares record-derived ring values with the day's ActivitySummary, within the tolerances
    /// of `RingTolerance` (docs/rings.md §4).
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
                _ tolerance: RingTolerance
            ) {
                guard let summary else { return }
                compared = true
                if !tolerance.agrees(record ?? 0, summary) {
                    agrees = false
                    check.disagreements.append(
                        SummaryDisagreement(date: row.date, metric: metric, recordValue: record, summaryValue: summary))
                }
            }
            if s.isMoveTimeMode {
                compare(.moveMinutes, row.moveMinutes, s.appleMoveTimeMinutes, .minutes)
            } else {
                compare(.moveKcal, row.moveKcal, s.activeEnergyBurnedKcal, .energy)
            }
            compare(.exerciseMinutes, row.exerciseMinutes, s.appleExerciseTimeMinutes, .minutes)
            compare(.standHours, row.standHours.map(Double.init), s.appleStandHours, .standHours)
            if compared {
                check.daysCompared += 1
                if agrees { check.daysAgreeing += 1 }
            }
        }
        return check
    }
}

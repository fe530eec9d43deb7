import HealthExport

/// `ActivitySummary` elements: the Watch's own ring values and goals per calendar day (docs/export-format.md
/// §7.8, docs/rings.md §2), which give the daily goals, the `summary_*` columns and the cross-check.
final class ActivitySummaries: DomainAccumulator {
    private(set) var byDate: [CivilDate: ActivitySummary] = [:]

    func route(type: String) -> Int32? { nil }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {}

    func consume(_ summary: ActivitySummary, context: StreamContext) { keep(summary) }

    /// Two summaries for one date (seen after restores): the larger one is kept, so that the
    /// choice depends neither on document order nor on how the export was split.
    private func keep(_ summary: ActivitySummary) {
        if let existing = byDate[summary.date], !summary.isLarger(than: existing) { return }
        byDate[summary.date] = summary
    }

    func merge(_ other: ActivitySummaries, sourceMap: [Int], context: StreamContext) {
        for summary in other.byDate.values { keep(summary) }
    }

    var calendarDayExtent: ClosedRange<Int>? {
        guard let first = byDate.keys.min(), let last = byDate.keys.max() else { return nil }
        return first.daysSince1970...last.daysSince1970
    }

    func finish(_ context: inout FinishContext) {
        context.summaries = byDate
    }
}

extension ActivitySummary {
    /// The rule for two summaries of one date (after restores, docs/export-format.md §7.8): the
    /// larger one is kept, comparing active energy, exercise, stand, move time, then the four
    /// goals (no value below any); equal ones are not larger. The analysis and the archive's
    /// import both apply it.
    public func isLarger(than other: ActivitySummary) -> Bool {
        func key(_ s: ActivitySummary) -> [Double] {
            [
                s.activeEnergyBurnedKcal, s.appleExerciseTimeMinutes, s.appleStandHours,
                s.appleMoveTimeMinutes, s.activeEnergyBurnedGoalKcal, s.appleExerciseTimeGoalMinutes,
                s.appleStandHoursGoal, s.appleMoveTimeGoalMinutes,
            ].map { $0 ?? -1 }
        }
        return key(self).lexicographicallyPrecedes(key(other)) == false && key(self) != key(other)
    }
}

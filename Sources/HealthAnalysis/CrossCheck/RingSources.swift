import HealthExport

extension Analyzer {
    /// Per ring and source model, the days and their agreement with the ActivitySummary (the
    /// cross-check's tolerances, docs/rings.md §4).
    static func ringSources(_ rows: [DailyMetrics], check: SummaryCrossCheck, summaries: [CivilDate: ActivitySummary])
        -> [RingSourceUse]
    {
        var disagreeing: [SummaryDisagreement.Metric: Set<CivilDate>] = [:]
        for d in check.disagreements { disagreeing[d.metric, default: []].insert(d.date) }
        var uses: [RingSourceUse] = []
        // Counts in one pass per ring, without copying the rows (a row is about 500 bytes).
        func add(
            _ ring: String, _ model: RingSourceModel, metric: SummaryDisagreement.Metric,
            _ counts: (DailyMetrics) -> Bool
        ) {
            let bad = disagreeing[metric] ?? []
            var days = 0
            var compared = 0
            var agreeing = 0
            for r in rows where counts(r) {
                days += 1
                guard summaries[r.date] != nil else { continue }
                compared += 1
                if !bad.contains(r.date) { agreeing += 1 }
            }
            guard days > 0 else { return }
            uses.append(RingSourceUse(ring: ring, model: model, days: days, compared: compared, agreeing: agreeing))
        }
        let moveMetric = rows.contains { $0.moveMinutes != nil } ? SummaryDisagreement.Metric.moveMinutes : .moveKcal
        add("Move", .appleWatch, metric: moveMetric) { $0.moveSource == .appleWatch || $0.moveMinutes != nil }
        add("Move", .iPhone, metric: .moveKcal) { $0.moveSource == .iPhone && $0.moveMinutes == nil }
        add("Exercise", .appleWatch, metric: .exerciseMinutes) { $0.exerciseMinutes != nil }
        add("Stand", .appleWatch, metric: .standHours) { $0.standHours != nil }
        return uses
    }
}

import HealthExport

/// Where a ring's record-derived value comes from (reference §4.1).
public enum RingSourceModel: String, Hashable, Sendable {
    /// Apple Watch samples (active energy, exercise minutes, stand hours): the Watch's rings.
    case appleWatch = "Apple Watch"
    /// iPhone active energy: the Move ring the Fitness app estimates on the phone for iPhone-only
    /// users (iOS 16+), used on days without Watch energy.
    case iPhone = "iPhone"
}

/// One ring and source model: on how many reported days it gave the ring's value, and how many
/// of those days agree with the ActivitySummary (`compared` have both).
public struct RingSourceUse: Hashable, Sendable {
    /// `Move`, `Exercise`, `Stand`.
    public var ring: String
    public var model: RingSourceModel
    public var days: Int
    public var compared: Int
    public var agreeing: Int

    public init(ring: String, model: RingSourceModel, days: Int, compared: Int, agreeing: Int) {
        self.ring = ring
        self.model = model
        self.days = days
        self.compared = compared
        self.agreeing = agreeing
    }
}

extension Analyzer {
    /// Per ring and source model, the days and their agreement with the ActivitySummary (the
    /// cross-check's tolerances, reference §4.3).
    static func ringSources(_ rows: [DailyMetrics], check: SummaryCrossCheck, summaries: [CivilDate: ActivitySummary])
        -> [RingSourceUse]
    {
        var disagreeing: [String: Set<CivilDate>] = [:]
        for d in check.disagreements { disagreeing[d.metric, default: []].insert(d.date) }
        var uses: [RingSourceUse] = []
        func add(_ ring: String, _ model: RingSourceModel, metric: String, _ days: [DailyMetrics]) {
            guard !days.isEmpty else { return }
            let compared = days.filter { summaries[$0.date] != nil }
            let bad = disagreeing[metric] ?? []
            uses.append(
                RingSourceUse(
                    ring: ring, model: model, days: days.count, compared: compared.count,
                    agreeing: compared.filter { !bad.contains($0.date) }.count))
        }
        let moveMetric = rows.contains { $0.moveMinutes != nil } ? "move_min" : "move_kcal"
        add(
            "Move", .appleWatch, metric: moveMetric,
            rows.filter { $0.moveSource == .appleWatch || $0.moveMinutes != nil })
        add("Move", .iPhone, metric: "move_kcal", rows.filter { $0.moveSource == .iPhone && $0.moveMinutes == nil })
        add("Exercise", .appleWatch, metric: "exercise_min", rows.filter { $0.exerciseMinutes != nil })
        add("Stand", .appleWatch, metric: "stand_hours", rows.filter { $0.standHours != nil })
        return uses
    }
}

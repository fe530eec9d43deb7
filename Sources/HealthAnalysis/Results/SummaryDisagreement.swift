import HealthExport

/// A day where the record-derived ring values and the ActivitySummary disagree beyond the
/// tolerances of docs/rings.md §4 (exercise ±1 min, stand exact, energy ±max(1 kcal, 1 %)).
public struct SummaryDisagreement: Hashable, Sendable {
    /// The ring value compared, named as its daily.csv column (the raw value); in the order
    /// report.md lists them.
    public enum Metric: String, CaseIterable, Hashable, Sendable {
        /// The Move ring in energy (tolerance ±max(1 kcal, 1 %)).
        case moveKcal = "move_kcal"
        /// The Move ring in time mode (tolerance ±1 min, like exercise).
        case moveMinutes = "move_min"
        /// The Exercise ring (tolerance ±1 min).
        case exerciseMinutes = "exercise_min"
        /// The Stand ring (exact).
        case standHours = "stand_hours"
    }

    public var date: CivilDate
    public var metric: Metric
    public var recordValue: Double?
    public var summaryValue: Double?

    public init(date: CivilDate, metric: Metric, recordValue: Double?, summaryValue: Double?) {
        self.date = date
        self.metric = metric
        self.recordValue = recordValue
        self.summaryValue = summaryValue
    }
}

import HealthExport

/// A day where the record-derived ring values and the ActivitySummary disagree beyond the
/// tolerances of reference §4.3 (exercise ±1 min, stand exact, energy ±max(1 kcal, 1 %)).
public struct SummaryDisagreement: Hashable, Sendable {
    public var date: CivilDate
    /// `move_kcal`, `exercise_min` or `stand_hours`; `move_min` for a Move ring in time mode
    /// (tolerance ±1 min, like exercise).
    public var metric: String
    public var recordValue: Double?
    public var summaryValue: Double?

    public init(date: CivilDate, metric: String, recordValue: Double?, summaryValue: Double?) {
        self.date = date
        self.metric = metric
        self.recordValue = recordValue
        self.summaryValue = summaryValue
    }
}

import HealthExport

/// The ActivitySummary cross-check (reference §4.3, §4.4).
public struct SummaryCrossCheck: Hashable, Sendable {
    public var daysCompared: Int
    public var daysAgreeing: Int
    public var disagreements: [SummaryDisagreement]
    /// Days with an ActivitySummary but no ring records (no Watch energy, exercise or stand
    /// record): not compared, not disagreements (e.g. days before the Watch was paired).
    public var daysWithoutRingRecords = 0
    public init(daysCompared: Int = 0, daysAgreeing: Int = 0, disagreements: [SummaryDisagreement] = []) {
        self.daysCompared = daysCompared
        self.daysAgreeing = daysAgreeing
        self.disagreements = disagreements
    }
}

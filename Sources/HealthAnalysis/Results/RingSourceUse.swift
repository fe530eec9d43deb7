import HealthExport

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

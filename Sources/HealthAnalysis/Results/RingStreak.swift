import HealthExport

/// The longest run of consecutive days with all three rings closed.
public struct RingStreak: Hashable, Sendable {
    public var days: Int
    public var first: CivilDate?
    public var last: CivilDate?

    public init(days: Int = 0, first: CivilDate? = nil, last: CivilDate? = nil) {
        self.days = days
        self.first = first
        self.last = last
    }
}

import HealthExport

/// A run of consecutive local days in one zone.
public struct TimeZonePeriod: Hashable, Sendable {
    /// An IANA identifier (`Europe/Berlin`), or a fixed offset such as `UTC+01:00`.
    public var identifier: String
    /// The first and last local day of the period within the reported days (nil when the period
    /// has no reported day).
    public var firstDay: CivilDate?
    public var lastDay: CivilDate?
    public var reason: TimeZonePeriodReason
    /// How the change into this zone was placed, when evidence had to decide it (docs/days-and-time-zones.md §5).
    public var change: ZoneChangeNote?
    /// Where within its first day the change was placed, when later than the zone's midnight
    /// (docs/days-and-time-zones.md §5, "The instant of a move").
    public var instant: ZoneInstantNote?

    public init(
        identifier: String, firstDay: CivilDate? = nil, lastDay: CivilDate? = nil, reason: TimeZonePeriodReason,
        change: ZoneChangeNote? = nil, instant: ZoneInstantNote? = nil
    ) {
        self.identifier = identifier
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.reason = reason
        self.change = change
        self.instant = instant
    }
}

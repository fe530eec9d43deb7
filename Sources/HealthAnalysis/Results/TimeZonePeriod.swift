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
    /// How the change into this zone was placed, when evidence had to decide it (for the report).
    public var changeNote: String?

    public init(
        identifier: String, firstDay: CivilDate? = nil, lastDay: CivilDate? = nil, reason: TimeZonePeriodReason,
        changeNote: String? = nil
    ) {
        self.identifier = identifier
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.reason = reason
        self.changeNote = changeNote
    }
}

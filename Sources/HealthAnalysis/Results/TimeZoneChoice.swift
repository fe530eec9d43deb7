import HealthExport

/// The zone the buckets of the export's current period use and why (reference §2.7): the last of
/// `AnalysisResult.timeZonePeriods`, with that period's reason.
public struct TimeZoneChoice: Hashable, Sendable {
    /// An IANA identifier (`Europe/Berlin`), or a fixed offset such as `UTC+01:00` for `.exportOffset`.
    public var identifier: String
    public var reason: TimeZonePeriodReason
    public init(identifier: String, reason: TimeZonePeriodReason) {
        self.identifier = identifier
        self.reason = reason
    }
}

import HealthExport

/// Why the zone of a period of local days was chosen (reference §2.7, §2.7.1).
public enum TimeZonePeriodReason: Hashable, Sendable {
    /// `--tz` forces one zone for everything.
    case option
    /// The export's `HKTimeZone` metadata named this zone on `samples` samples in the period.
    case hkTimeZone(samples: Int)
    /// No `HKTimeZone` in the export: of the `candidates` IANA zones whose offset at the export
    /// instant equals the export's printed offset, this one's days agree best with the
    /// `ActivitySummary` rows (`agreeingDays` of `comparedDays`).
    case activitySummaryAgreement(candidates: Int, agreeingDays: Int, comparedDays: Int)
    /// No `HKTimeZone` and no ring data to decide: the machine's `TZ`, which has the export's
    /// printed offset at the export instant.
    case environment
    /// Nothing to go on: the export's fixed printed offset (DST ignored; reports warn).
    case exportOffset
}

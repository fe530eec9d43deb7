import HealthExport

/// Why the zone of a period of local days was chosen (docs/days-and-time-zones.md §3, §5).
public enum TimeZonePeriodReason: Hashable, Sendable {
    /// `--tz` forces one zone for everything.
    case option
    /// The export's `HKTimeZone` metadata named this zone on `samples` samples in the period.
    case hkTimeZone(samples: Int)
    /// No `HKTimeZone` in the export: of the `candidates` IANA zones whose offset at the export
    /// instant equals the export's printed offset, this one's days agree best with the
    /// `ActivitySummary` rows (`agreeingDays` of `comparedDays`).
    case activitySummaryAgreement(candidates: Int, agreeingDays: Int, comparedDays: Int)
    /// No `HKTimeZone` and no `ActivitySummary` day to score with: of the `candidates` IANA zones
    /// with the export's printed offset at the export instant, this one's offsets match the true
    /// local time of `matching` of `records` HRV beat lists.
    case hrvBeatOffsets(candidates: Int, matching: Int, records: Int)
    /// No `HKTimeZone`, and no one zone fits all the days (a move or a trip): this period's days
    /// fit this zone best, found by a change-point search (docs/days-and-time-zones.md §6.1):
    /// `agreeingDays` of `comparedDays` agree with the `ActivitySummary`, and `hrvMatching` of
    /// `hrvRecords` HRV beat lists in the period have its offset.
    case changePoints(agreeingDays: Int, comparedDays: Int, hrvMatching: Int, hrvRecords: Int)
    /// No `HKTimeZone` and nothing in the data to score the `candidates` (the IANA zones with the
    /// export's printed offset at the export instant) with: either they all give the same days,
    /// or only the zones of the export locale's `region` (ISO 3166, nil: not used) do.
    case exportOffsetCandidates(candidates: Int, region: String?)
    /// Nothing in the export tells the candidate zones apart (or there is no `ExportDate`): the
    /// machine's `TZ`, with a warning (docs/days-and-time-zones.md §6).
    case environment
    /// Nothing to go on: the export's fixed printed offset (DST ignored; reports warn).
    case exportOffset
}

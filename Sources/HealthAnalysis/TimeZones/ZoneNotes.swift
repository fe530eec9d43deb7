import HealthExport

/// What the zone timeline tells the reader, as typed values with their data (the rules they
/// report are docs/days-and-time-zones.md §5 and §6). They reach the report as
/// `AnalysisNote.Message.zone`; the report writes their sentences (HealthReports,
/// `ZoneNoteText.swift`), and nothing here makes text.
public enum ZoneNote: Hashable, Sendable {
    /// `HKTimeZone` values that are not IANA zones, with how many samples named each.
    case ignoredNonIANA([String: Int])
    /// A stray value (at most 2 samples within a day) between two runs of one zone (§5).
    case strayValue(count: Int, zone: String, between: String)
    /// The days before the first `HKTimeZone` sample fit another zone better (§5).
    case leadingZone(firstNamedDay: Int, zone: String, fit: ZoneFit, named: String, namedFit: ZoneFit)
    /// The days after the last `HKTimeZone` sample fit the zone with the export's printed
    /// offset better (§5).
    case trailingZone(printed: Int64, lastNamedDay: Int, zone: String, fit: ZoneFit, named: String, namedFit: ZoneFit)
    /// A move whose day neither `HKTimeZone` nor the `ActivitySummary` tells (§5).
    case undecidedMove(from: String, to: String, firstCandidate: Int, lastCandidate: Int, chosen: Int)
    /// The export's printed offset is not the last named zone's at the export instant.
    case exportElsewhere(printed: Int64, lastZone: String, lastZoneOffset: Int64)
    /// Neither `HKTimeZone` nor an `ExportDate`: the machine's `TZ` is used.
    case environmentWithoutExportDate(zone: String)
    /// No zone known: days at a fixed offset.
    case fixedOffset(Int64, FixedOffsetCause)
    /// No ring data or HRV beats to test the candidates with, and one group left (§6).
    case untestedCandidates(
        printed: Int64, allSameOffsets: Bool, zones: Int, region: String?, zone: String, byRegion: Bool)
    /// Nothing tells the candidates apart: the machine's `TZ` picks among them (§6).
    case environmentTieBreak(candidates: Int, printed: Int64, zone: String)
    /// The zone chosen among the candidates with the export's offset, and its evidence (§6).
    case chosenAmongCandidates(
        zone: String, candidates: Int, printed: Int64, rings: RingAgreement, hrvMatching: Int, hrvRecords: Int)
    /// Several candidate groups fit equally well; `zone` was taken by `rule` (§6).
    case equallyGood(zone: String, others: [String], rings: RingAgreement, rule: TieRule)
    /// A stand-in whose region differs from the one the export's locale suggests (§6).
    case standInForLocale(zone: String, locale: String, region: String, suggested: String)
    /// A stand-in for `zones` zones with the same offsets on every day (§6).
    case standIn(zone: String, zones: Int, others: [String])
    /// Periods found without `HKTimeZone` (§6.1), against the best single zone when there is one.
    case periodsFound(single: SingleZoneFit?, periods: Int, agreeing: Int, compared: Int, matching: Int, records: Int)

    /// Why days are cut at a fixed offset.
    public enum FixedOffsetCause: Hashable, Sendable {
        case noExportDate
        case noZoneWithExportOffset
        case nothingToTellCandidatesApart
    }

    /// How a tie between equally good candidate groups was broken (§6).
    public enum TieRule: Hashable, Sendable {
        case localeRegion(String?)
        case documentedOrder
    }

    /// How one zone fits a stretch of days: `ActivitySummary` agreement and HRV beat lists.
    public struct ZoneFit: Hashable, Sendable {
        public internal(set) var rings: RingAgreement
        public internal(set) var hrvMatching: Int
        public internal(set) var hrvRecords: Int
    }

    /// The best single zone that periods must beat (§6.1).
    public struct SingleZoneFit: Hashable, Sendable {
        public internal(set) var zone: String
        public internal(set) var rings: RingAgreement
        public internal(set) var hrvMatching: Int
        public internal(set) var hrvRecords: Int
    }

    public var severity: AnalysisNote.Severity {
        switch self {
        case .undecidedMove, .environmentWithoutExportDate, .fixedOffset, .environmentTieBreak: .warning
        default: .info
        }
    }

    /// The note as the report shows it.
    var note: AnalysisNote { AnalysisNote(severity: severity, message: .zone(self)) }
}

/// How the change into a period was placed, when evidence had to decide it (docs/days-and-time-zones.md
/// §5, §6.1). Day numbers are local days since 1970-01-01; the report writes the clause its
/// zone list shows after the period.
public enum ZoneChangeNote: Hashable, Sendable {
    /// Samples naming both zones lie within one local day of the new zone.
    case withinOneDay(from: String, to: String)
    /// Several first days were possible; `chosen` fits the evidence best.
    case bestFit(firstCandidate: Int, lastCandidate: Int, chosen: Int, fit: ZoneNote.ZoneFit)
    /// Several first days were possible and nothing told them apart.
    case undecided(firstCandidate: Int, lastCandidate: Int, chosen: Int)
    /// No sample names a zone: the days' evidence placed the change (§6.1).
    case fromEvidence(before: String, zone: String, firstDay: Int, withExports: Bool)
}

/// A change moved from the new zone's midnight to a later instant within its first day
/// (docs/days-and-time-zones.md §5, "The instant of a move"): `local` is that instant's wall
/// clock in the old zone `from` (seconds since 1970 of the local clock), `agreeing` of `compared`
/// the days around it whose `ActivitySummary` agrees then.
public struct ZoneInstantNote: Hashable, Sendable {
    public internal(set) var from: String
    public internal(set) var local: Int64
    public internal(set) var agreeing: Int
    public internal(set) var compared: Int
}

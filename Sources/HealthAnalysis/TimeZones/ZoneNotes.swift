import HealthExport

/// What the zone timeline tells the reader, as typed values with their data; `severity` and
/// `text` render each one. Every sentence about zones is written here and nowhere else (the
/// rules they report are docs/days-and-time-zones.md §5 and §6).
enum ZoneNote: Equatable, Sendable {
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
    enum FixedOffsetCause: Equatable, Sendable {
        case noExportDate
        case noZoneWithExportOffset
        case nothingToTellCandidatesApart
    }

    /// How a tie between equally good candidate groups was broken (§6).
    enum TieRule: Equatable, Sendable {
        case localeRegion(String?)
        case documentedOrder
    }

    /// How one zone fits a stretch of days: `ActivitySummary` agreement and HRV beat lists.
    struct ZoneFit: Equatable, Sendable {
        var rings: RingAgreement
        var hrvMatching: Int
        var hrvRecords: Int
    }

    /// The best single zone that periods must beat (§6.1).
    struct SingleZoneFit: Equatable, Sendable {
        var zone: String
        var rings: RingAgreement
        var hrvMatching: Int
        var hrvRecords: Int
    }

    var severity: AnalysisNote.Severity {
        switch self {
        case .undecidedMove, .environmentWithoutExportDate, .fixedOffset, .environmentTieBreak: .warning
        default: .info
        }
    }

    /// The note as the report shows it.
    var note: AnalysisNote { AnalysisNote(severity: severity, text: text) }

    var text: String {
        switch self {
        case .ignoredNonIANA(let counts):
            return "Ignored HKTimeZone values that are not IANA zones: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ") + "."
        case .strayValue(let count, let zone, let between):
            return "Ignored \(counted(count, "HKTimeZone sample")) naming \(zone) between samples naming \(between)."
        case .leadingZone(let firstNamedDay, let zone, let fit, let named, let namedFit):
            return
                "Time zone: no sample before \(day(firstNamedDay)) names a zone, and the days before fit \(zone) (\(fit.evidence)) better than \(named), the first zone named (\(namedFit.evidence)): they are read in \(zone)."
        case .trailingZone(let printed, let lastNamedDay, let zone, let fit, let named, let namedFit):
            return
                "Time zone: no sample after \(day(lastNamedDay)) names a zone, the export was made at \(Analyzer.offsetLabel(printed)), and the days after fit \(zone) (\(fit.evidence)) better than \(named), the last zone named (\(namedFit.evidence)): they are read in \(zone) from the change on."
        case .undecidedMove(let from, let to, let firstCandidate, let lastCandidate, let chosen):
            return
                "the move from \(from) to \(to) lies between \(day(firstCandidate)) and \(day(lastCandidate)), and neither HKTimeZone nor the ActivitySummary tells on which day: the days from \(day(firstCandidate - 1)) to \(day(lastCandidate)) may hold hours of the other zone (the change is placed at \(day(chosen)))."
        case .exportElsewhere(let printed, let lastZone, let lastZoneOffset):
            return "The export was made at \(Analyzer.offsetLabel(printed)), but the last HKTimeZone, \(lastZone), "
                + "has \(Analyzer.offsetLabel(lastZoneOffset)) then: "
                + "the phone was elsewhere at export time; days after the last sample naming a zone may be in another zone."
        case .environmentWithoutExportDate(let zone):
            return
                "the export has neither HKTimeZone metadata nor an ExportDate: days are bucketed in this machine's zone (TZ), \(zone). Use --tz to choose the zone the data was recorded in."
        case .fixedOffset(let offset, let cause):
            let why: String
            switch cause {
            case .noExportDate: why = "no ExportDate"
            case .noZoneWithExportOffset: why = "no IANA zone has the export's offset"
            case .nothingToTellCandidatesApart:
                why = "no HKTimeZone metadata and no ring data to tell the candidate zones apart"
            }
            return "no time zone known (\(why)): days are bucketed at the export's fixed offset "
                + "\(Analyzer.offsetLabel(offset)), ignoring daylight saving time. Use --tz to name the zone."
        case .untestedCandidates(let printed, let allSameOffsets, let zones, let region, let zone, let byRegion):
            return
                "The export names no time zone (no HKTimeZone metadata) and has no ring data or HRV beats to test zones with: "
                + (allSameOffsets
                    ? "every zone with its offset \(Analyzer.offsetLabel(printed)) at the export instant has the same offsets over the data (\(counted(zones, "zone")))"
                    : "of the zones with its offset \(Analyzer.offsetLabel(printed)) at the export instant, only those of the export's locale region \(region ?? "") are taken")
                + "; days are bucketed in \(zone)"
                + (byRegion ? ", a zone of the locale's region \(region ?? "")." : ".")
        case .environmentTieBreak(let candidates, let printed, let zone):
            return
                "the export names no time zone (no HKTimeZone metadata) and nothing in it tells the \(counted(candidates, "zone")) "
                + "with its offset \(Analyzer.offsetLabel(printed)) at the export instant apart (no ring data, no HRV beats, "
                + "no locale region among them): days are bucketed in this machine's zone (TZ), \(zone). "
                + "Use --tz to choose the zone the data was recorded in."
        case .chosenAmongCandidates(let zone, let candidates, let printed, let rings, let hrvMatching, let hrvRecords):
            return
                "Time zone: the export names none (no HKTimeZone); \(zone) was chosen among \(counted(candidates, "IANA zone")) with the export's offset "
                + "\(Analyzer.offsetLabel(printed)) at the export instant"
                + (rings.compared > 0
                    ? ": its days agree with the ActivitySummary on \(grouped(rings.agreeing)) of \(counted(rings.compared, "day"))"
                    : "")
                + ", and its offsets match the true local time of \(grouped(hrvMatching)) of \(counted(hrvRecords, "HRV record")) (beat times)."
        case .equallyGood(let zone, let others, let rings, let rule):
            let how: String
            switch rule {
            case .localeRegion(let region): how = "a zone of the export's locale region \(region ?? "")"
            case .documentedOrder: how = "the first in docs/days-and-time-zones.md §6's order"
            }
            return "Time zone: \(zone) and \(others.joined(separator: ", ")) agree equally well with the export "
                + "(ActivitySummary: \(grouped(rings.agreeing)) of \(counted(rings.compared, "day"))); "
                + "\(zone) was taken as \(how). Use --tz to choose."
        case .standInForLocale(let zone, let locale, let region, let suggested):
            return
                "Time zone: \(zone) has the same offsets as your data on every day; your export's locale (\(locale), region \(region)) suggests \(suggested), whose offsets differ from the data's. Use --tz \(suggested) if the data was recorded there."
        case .standIn(let zone, let zones, let others):
            let shown = others.prefix(12).joined(separator: ", ") + (others.count > 12 ? ", …" : "")
            return
                "Time zone: \(zone) stands in for \(counted(zones, "zone")) with the same offsets as your data on every day (also \(shown)); nothing in the export tells them apart, and \(zone) is the first of them by population and the tz database's order. Use --tz to name another."
        case .periodsFound(let single, let periods, let agreeing, let compared, let matching, let records):
            return "Time zone: the export names none (no HKTimeZone)"
                + (single.map {
                    ", and no one zone fits all its days (the best, \($0.zone), agrees with the ActivitySummary on \(grouped($0.rings.agreeing)) of \(counted($0.rings.compared, "day")) and matches \(grouped($0.hrvMatching)) of \(counted($0.hrvRecords, "HRV record")))"
                } ?? ", and its exports were made at offsets that no one zone has")
                + ": the days fall into \(counted(periods, "period")) of zones (listed in the Overview), which agree with the ActivitySummary on \(grouped(agreeing)) of \(counted(compared, "day")) and match \(grouped(matching)) of \(counted(records, "HRV record"))."
        }
    }
}

/// How the change into a period was placed, when evidence had to decide it (docs/days-and-time-zones.md
/// §5, §6.1); `text` is the clause the report's zone list shows after the period.
enum ZoneChangeNote: Equatable, Sendable {
    /// Samples naming both zones lie within one local day of the new zone.
    case withinOneDay(from: String, to: String)
    /// Several first days were possible; `chosen` fits the evidence best.
    case bestFit(firstCandidate: Int, lastCandidate: Int, chosen: Int, fit: ZoneNote.ZoneFit)
    /// Several first days were possible and nothing told them apart.
    case undecided(firstCandidate: Int, lastCandidate: Int, chosen: Int)
    /// No sample names a zone: the days' evidence placed the change (§6.1).
    case fromEvidence(before: String, zone: String, firstDay: Int, withExports: Bool)

    var text: String {
        switch self {
        case .withinOneDay(let from, let to):
            return
                "samples naming \(from) and \(to) lie within one local day; the change is placed after the last one naming \(from)"
        case .bestFit(let firstCandidate, let lastCandidate, let chosen, let fit):
            return
                "the change lies between \(day(firstCandidate)) and \(day(lastCandidate)); \(day(chosen)) agrees best with the ActivitySummary (\(grouped(fit.rings.agreeing)) of \(counted(fit.rings.compared, "day")) around it)"
                + (fit.hrvMatching > 0
                    ? " and the HRV beat times (\(grouped(fit.hrvMatching)) of \(counted(fit.hrvRecords, "HRV record")) around it)"
                    : "")
        case .undecided(let firstCandidate, let lastCandidate, let chosen):
            return
                "the change lies between \(day(firstCandidate)) and \(day(lastCandidate)) (no sample names a zone in between, and the ActivitySummary cannot tell); placed at \(day(chosen))"
        case .fromEvidence(let before, let zone, let firstDay, let withExports):
            let evidence =
                withExports
                ? "ActivitySummary, HRV beat times, the offsets printed on the exports"
                : "ActivitySummary, HRV beat times"
            return
                "no sample names a zone: the days' evidence (\(evidence)) fits \(before) until \(day(firstDay - 1)) and \(zone) from \(day(firstDay))"
        }
    }
}

extension ZoneNote.ZoneFit {
    /// `ActivitySummary: 3 of 4 days agree; HRV beat times: 2 of 6 match`.
    fileprivate var evidence: String {
        var parts: [String] = []
        if rings.compared > 0 {
            parts.append("ActivitySummary: \(grouped(rings.agreeing)) of \(counted(rings.compared, "day")) agree")
        }
        if hrvRecords > 0 { parts.append("HRV beat times: \(grouped(hrvMatching)) of \(grouped(hrvRecords)) match") }
        return parts.joined(separator: "; ")
    }
}

/// A local day number as its date (`2025-01-21`).
private func day(_ number: Int) -> CivilDate { CivilDate(daysSince1970: number) }

/// A change moved from the new zone's midnight to a later instant within its first day
/// (docs/days-and-time-zones.md §5, "The instant of a move"): `local` is that instant's wall
/// clock in the old zone `from` (seconds since 1970 of the local clock), `agreeing` of `compared`
/// the days around it whose `ActivitySummary` agrees then.
struct ZoneInstantNote: Equatable, Sendable {
    var from: String
    var local: Int64
    var agreeing: Int
    var compared: Int

    var text: String {
        let minutes = floorMod(local, 86_400) / 60
        let clock = "\(minutes / 60 < 10 ? "0" : "")\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
        let date = CivilDate(daysSince1970: Int(floorDiv(local, 86_400)))
        return
            "the move is placed at \(date) \(clock) \(from) time, after the last Watch ring data there, where the ActivitySummary agrees best (\(grouped(agreeing)) of \(counted(compared, "day")) around it)"
    }
}

import HealthAnalysis
import HealthExport

// The sentences of the zone timeline's notes: the analysis hands over typed values
// (`ZoneNote`, `ZoneChangeNote`, `ZoneInstantNote`); every sentence about zones is written here
// and nowhere else. The rules they report are docs/days-and-time-zones.md §5 and §6.

extension AnalysisNote {
    /// The note's sentence as report.md, report.json and the command line show it, without any
    /// prefix (whoever shows it marks a warning from `severity`).
    public var text: String {
        switch message {
        case .text(let text): return text
        case .zone(let note): return note.text
        }
    }
}

extension TimeZonePeriod {
    /// How the change into this period was placed, as the clause report.md's zone list shows after
    /// the period (`change`, then `instant`, joined by "; "); nil when neither is known.
    public var changeText: String? {
        let parts = [change?.text, instant?.text].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension ZoneNote {
    /// The note's sentence (docs/days-and-time-zones.md §5, §6).
    public var text: String {
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
                "Time zone: no sample after \(day(lastNamedDay)) names a zone, the export was made at \(offset(printed)), and the days after fit \(zone) (\(fit.evidence)) better than \(named), the last zone named (\(namedFit.evidence)): they are read in \(zone) from the change on."
        case .undecidedMove(let from, let to, let firstCandidate, let lastCandidate, let chosen):
            return
                "the move from \(from) to \(to) lies between \(day(firstCandidate)) and \(day(lastCandidate)), and neither HKTimeZone nor the ActivitySummary tells on which day: the days from \(day(firstCandidate - 1)) to \(day(lastCandidate)) may hold hours of the other zone (the change is placed at \(day(chosen)))."
        case .exportElsewhere(let printed, let lastZone, let lastZoneOffset):
            return "The export was made at \(offset(printed)), but the last HKTimeZone, \(lastZone), "
                + "has \(offset(lastZoneOffset)) then: "
                + "the phone was elsewhere at export time; days after the last sample naming a zone may be in another zone."
        case .environmentWithoutExportDate(let zone):
            return
                "the export has neither HKTimeZone metadata nor an ExportDate: days are bucketed in this machine's zone (TZ), \(zone). Use --tz to choose the zone the data was recorded in."
        case .fixedOffset(let seconds, let cause):
            return "no time zone known (\(cause.text)): days are bucketed at the export's fixed offset "
                + "\(offset(seconds)), ignoring daylight saving time. Use --tz to name the zone."
        case .untestedCandidates(let printed, let allSameOffsets, let zones, let region, let zone, let byRegion):
            return
                "The export names no time zone (no HKTimeZone metadata) and has no ring data or HRV beats to test zones with: "
                + (allSameOffsets
                    ? "every zone with its offset \(offset(printed)) at the export instant has the same offsets over the data (\(counted(zones, "zone")))"
                    : "of the zones with its offset \(offset(printed)) at the export instant, only those of the export's locale region \(region ?? "") are taken")
                + "; days are bucketed in \(zone)"
                + (byRegion ? ", a zone of the locale's region \(region ?? "")." : ".")
        case .environmentTieBreak(let candidates, let printed, let zone):
            return
                "the export names no time zone (no HKTimeZone metadata) and nothing in it tells the \(counted(candidates, "zone")) "
                + "with its offset \(offset(printed)) at the export instant apart (no ring data, no HRV beats, "
                + "no locale region among them): days are bucketed in this machine's zone (TZ), \(zone). "
                + "Use --tz to choose the zone the data was recorded in."
        case .chosenAmongCandidates(let zone, let candidates, let printed, let rings, let hrvMatching, let hrvRecords):
            return
                "Time zone: the export names none (no HKTimeZone); \(zone) was chosen among \(counted(candidates, "IANA zone")) with the export's offset "
                + "\(offset(printed)) at the export instant"
                + (rings.compared > 0
                    ? ": its days agree with the ActivitySummary on \(grouped(rings.agreeing)) of \(counted(rings.compared, "day"))"
                    : "")
                + ", and its offsets match the true local time of \(grouped(hrvMatching)) of \(counted(hrvRecords, "HRV record")) (beat times)."
        case .equallyGood(let zone, let others, let rings, let rule):
            return "Time zone: \(zone) and \(others.joined(separator: ", ")) agree equally well with the export "
                + "(ActivitySummary: \(grouped(rings.agreeing)) of \(counted(rings.compared, "day"))); "
                + "\(zone) was taken as \(rule.text). Use --tz to choose."
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

extension ZoneNote.FixedOffsetCause {
    /// Why days are cut at a fixed offset, as the clause in parentheses.
    fileprivate var text: String {
        switch self {
        case .noExportDate: return "no ExportDate"
        case .noZoneWithExportOffset: return "no IANA zone has the export's offset"
        case .nothingToTellCandidatesApart:
            return "no HKTimeZone metadata and no ring data to tell the candidate zones apart"
        }
    }
}

extension ZoneNote.TieRule {
    /// How the tie was broken, as "\(zone) was taken as …" ends.
    fileprivate var text: String {
        switch self {
        case .localeRegion(let region): return "a zone of the export's locale region \(region ?? "")"
        case .documentedOrder: return "the first in docs/days-and-time-zones.md §6's order"
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

extension ZoneChangeNote {
    /// The clause report.md's zone list shows after the period (docs/days-and-time-zones.md §5, §6.1).
    public var text: String {
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

extension ZoneInstantNote {
    /// The clause after the change's: the old zone's date and clock of the instant
    /// (docs/days-and-time-zones.md §5, "The instant of a move").
    public var text: String {
        let seconds = ((local % 86_400) + 86_400) % 86_400
        let minutes = seconds / 60
        let clock = "\(minutes / 60 < 10 ? "0" : "")\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
        let date = CivilDate(daysSince1970: Int((local - seconds) / 86_400))
        return
            "the move is placed at \(date) \(clock) \(from) time, after the last Watch ring data there, where the ActivitySummary agrees best (\(grouped(agreeing)) of \(counted(compared, "day")) around it)"
    }
}

/// A local day number (days since 1970-01-01) as its date (`2025-01-21`).
private func day(_ number: Int) -> CivilDate { CivilDate(daysSince1970: number) }

/// A fixed offset in seconds as `UTC+01:00`.
private func offset(_ seconds: Int64) -> String { Analyzer.offsetLabel(seconds) }

import Foundation
import HealthExport

/// Which zone is in force when: consecutive periods, each with a zone and the reason for it,
/// decided from the export's own evidence (docs/days-and-time-zones.md §3, §5).
///
/// **Where a change takes effect.** A change into zone B whose first day is the local date X
/// takes effect at B's local midnight starting X: from that instant on, instants are read in B.
/// So every day of B is a whole local day of B, every instant is filed under its own local date
/// in the zone in force at that instant, and no date is repeated or skipped. Travelling east,
/// the last day in the old zone ends early (it is shorter by the offset difference); travelling
/// west, the first day in B also holds the hours of date X that were still spent in the old zone
/// before B's midnight (it is longer). Equivalently: day X starts at the earlier of the two zones'
/// midnights starting X. The first day X is the latest day whose B-midnight lies after the last
/// sample that names the old zone and not after the first sample that names B that fits the
/// `ActivitySummary` and the HRV beat times best (`ChangeFit`), else the latest; a long gap
/// without data (a flight) is where the change usually is, and there any of these days gives the
/// same totals.
struct ZoneTimeline: Sendable {
    struct Period: Sendable {
        var identifier: String
        /// Nil for a fixed offset.
        var timeZone: TimeZone?
        var fixedOffset: Int64
        /// The instant the zone takes effect (`Int64.min` for the first period).
        var start: Int64
        /// The local day number (days since 1970) of the period's first day; nil for the first.
        var firstDay: Int?
        var reason: TimeZonePeriodReason
        var changeNote: String?
    }

    var periods: [Period]
    /// Notes for the report (ignored values, ambiguous candidates, …).
    var notes: [AnalysisNote] = []

    /// The local days and hours of the timeline: each period's offsets from its start on.
    func calendar(covering range: ClosedRange<Int64>) -> LocalCalendar {
        var starts: [Int64] = []
        var offsets: [Int64] = []
        for (i, p) in periods.enumerated() {
            let end = i + 1 < periods.count ? periods[i + 1].start : Int64.max
            let from = max(p.start, range.lowerBound)
            let to = min(end, range.upperBound)
            let own: LocalCalendar
            if let tz = p.timeZone {
                own = LocalCalendar(timeZone: tz, covering: min(from, to)...max(from, to))
            } else {
                own = LocalCalendar(fixedOffsetSeconds: p.fixedOffset)
            }
            let first = i == 0 ? Int64.min : p.start
            let startOffset = own.offset(at: max(p.start, from))
            if offsets.last != startOffset {
                starts.append(first)
                offsets.append(startOffset)
            }
            for s in own.segments where s.start > first && s.start < end && s.offset != offsets.last {
                starts.append(s.start)
                offsets.append(s.offset)
            }
        }
        if starts.isEmpty { return LocalCalendar(fixedOffsetSeconds: 0) }
        starts[0] = Int64.min
        return LocalCalendar(segmentStarts: starts, offsets: offsets)
    }

    /// The index of the period local day `day` belongs to.
    func periodIndex(day: Int) -> Int {
        var k = 0
        for (i, p) in periods.enumerated() {
            if let f = p.firstDay, f <= day { k = i } else if p.firstDay == nil { k = i }
        }
        return k
    }
}

/// How well one placement of a zone change fits the export: `ActivitySummary` agreement, then
/// HRV beat lists with their true offset, then the deviation from the summaries.
struct ChangeFit {
    var rings: RingAgreement
    var offsets: Int

    func isBetter(than other: ChangeFit) -> Bool {
        if rings.agreeing != other.rings.agreeing { return rings.agreeing > other.rings.agreeing }
        if offsets != other.offsets { return offsets > other.offsets }
        return rings.isBetter(than: other.rings)
    }
}

/// Builds a `ZoneTimeline` from the export's evidence (docs/days-and-time-zones.md §5). Pure: the same inputs
/// give the same timeline on every machine; the machine's `TZ` only picks among zones the export
/// itself cannot tell apart.
struct ZoneTimelineBuilder {
    /// `--tz`: one zone for everything.
    var option: String?
    var evidence = TimeZoneEvidence()
    /// `HKTimeZone` counts without instants (a reader's summary): used only when `evidence` is
    /// empty, as one period in the most frequent IANA zone.
    var counts: [String: Int] = [:]
    /// True offsets from HRV beat times (used only without `HKTimeZone`).
    var offsets = OffsetEvidence()
    /// The `ExportDate` instant and its printed offset (seconds east).
    var exportInstant: Int64?
    var exportOffset: Int64?
    /// In an archive, the earlier exports' instants and printed offsets: each names the zones
    /// the person may have been in when it was made (docs/days-and-time-zones.md §6.1).
    var earlierExports: [ZoneChangePoints.Anchor] = []
    /// The machine's `TZ`: used only when nothing in the export tells the candidates apart.
    var environment: String?
    /// The export's `HealthData locale` (`de_DE`): its region breaks ties between zones.
    var locale: String?
    /// Watch ring inputs per 15 minutes, and the `ActivitySummary` rows by local day number.
    var rings = RingQuarterHours()
    var summaries: [Int: ActivitySummary] = [:]
    /// The instants with data (and the export instant).
    var range: ClosedRange<Int64> = 0...0

    /// Zones that stand for their group of equivalent zones when the export cannot tell which
    /// of several zones with identical offsets it was (no `HKTimeZone`): the most populous.
    static let preferredRepresentatives: [String] = [
        "America/Los_Angeles", "America/Denver", "America/Phoenix", "America/Chicago", "America/New_York",
        "America/Halifax", "America/St_Johns", "America/Sao_Paulo", "America/Santiago", "America/Mexico_City",
        "America/Bogota", "America/Argentina/Buenos_Aires", "America/Anchorage", "Pacific/Honolulu",
        "Europe/London", "Europe/Lisbon", "Europe/Berlin", "Europe/Paris", "Europe/Athens", "Europe/Istanbul",
        "Europe/Moscow", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg", "Africa/Nairobi", "Asia/Dubai",
        "Asia/Tehran", "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok",
        "Asia/Shanghai", "Asia/Singapore", "Asia/Tokyo", "Australia/Perth", "Australia/Adelaide",
        "Australia/Darwin", "Australia/Sydney", "Australia/Brisbane", "Pacific/Auckland", "UTC",
    ]

    func build() -> ZoneTimeline {
        if let option, let tz = TimeZone.iana(option) {
            let id = option.trimmingCharacters(in: .whitespaces)
            return ZoneTimeline(periods: [
                .init(identifier: id, timeZone: tz, fixedOffset: 0, start: .min, firstDay: nil, reason: .option)
            ])
        }
        var notes: [AnalysisNote] = []
        var unknown: [String: Int] = [:]
        if evidence.isEmpty {
            // Counts alone: each zone as if seen once, the most frequent last (ties by name).
            let ranked = counts.filter { $0.value > 0 }.sorted { a, b in
                a.value != b.value ? a.value < b.value : a.key > b.key
            }
            if let (top, topZone) = ranked.reversed().lazy.compactMap({ e in TimeZone.iana(e.key).map { (e, $0) } })
                .first
            {
                for (name, n) in ranked where TimeZone.iana(name) == nil { unknown[name] = n }
                var timeline = ZoneTimeline(periods: [
                    .init(
                        identifier: top.key, timeZone: topZone, fixedOffset: 0, start: .min,
                        firstDay: nil, reason: .hkTimeZone(samples: top.value))
                ])
                if !unknown.isEmpty {
                    timeline.notes.append(
                        .info(
                            "Ignored HKTimeZone values that are not IANA zones: "
                                + unknown.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(
                                    separator: ", ") + ".")
                    )
                }
                return timeline
            }
        }
        var runs: [(id: String, tz: TimeZone, first: Int64, last: Int64, count: Int)] = []
        var zones: [String: TimeZone] = [:]
        for (name, e) in evidence.observations {
            let tz: TimeZone
            if let known = zones[name] {
                tz = known
            } else if let found = TimeZone.iana(name) {
                tz = found
                zones[name] = found
            } else {
                unknown[name, default: 0] += e.count
                continue
            }
            if let last = runs.last, last.id == name {
                runs[runs.count - 1].last = max(last.last, e.last)
                runs[runs.count - 1].count += e.count
            } else {
                runs.append((name, tz, e.first, e.last, e.count))
            }
        }
        if !unknown.isEmpty {
            notes.append(
                .info(
                    "Ignored HKTimeZone values that are not IANA zones: "
                        + unknown.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
                        + "."))
        }
        // A stray value (at most 2 samples within a day) between two runs of one zone is taken
        // for noise (a sample synced from another device), not for a trip.
        var k = 1
        while k + 1 < runs.count {
            let r = runs[k]
            if r.count <= 2 && r.last - r.first < 86_400 && runs[k - 1].id == runs[k + 1].id {
                notes.append(
                    .info(
                        "Ignored \(counted(r.count, "HKTimeZone sample")) naming \(r.id) between samples naming \(runs[k - 1].id)."
                    ))
                runs[k - 1].last = runs[k + 1].last
                runs[k - 1].count += runs[k + 1].count
                runs.removeSubrange(k...(k + 1))
            } else {
                k += 1
            }
        }
        guard !runs.isEmpty else {
            var timeline = withoutHKTimeZone()
            timeline.notes.insert(contentsOf: notes, at: 0)
            return timeline
        }
        // HKTimeZone that begins after the data (metadata that begins after a move): the days
        // before the first sample naming a zone are read in the zone their own evidence fits.
        let lead = leadingZone(before: runs[0].first, named: runs[0].id, runs[0].tz)
        if let lead {
            runs.insert((lead.id, lead.tz, range.lowerBound, range.lowerBound, 0), at: 0)
            notes.append(lead.note)
        }

        var periods: [ZoneTimeline.Period] = [
            .init(
                identifier: runs[0].id, timeZone: runs[0].tz, fixedOffset: 0, start: .min, firstDay: nil,
                reason: lead?.reason ?? .hkTimeZone(samples: runs[0].count))
        ]
        var ringQuarters: [Int64]?  // the ring data's quarter-hours, sorted (when needed)
        let hrvObservations = runs.count > 1 ? offsets.observations : []
        for k in 1..<runs.count {
            let a = runs[k - 1]
            let b = runs[k]
            let window = (a.last - 3 * 86_400)...(b.first + 3 * 86_400)
            let calB = LocalCalendar(timeZone: b.tz, covering: window)
            let lowDay = calB.dayNumber(a.last) + 1
            let highDay = calB.dayNumber(b.first)
            // The candidate first days: B-midnight after the last sample naming A and not after
            // the first naming B. `startOfDay` grows with the day, so they are one range, found
            // from its ends (not day by day: the gap can be a century).
            var firstCandidate = lowDay
            var lastCandidate = highDay
            while firstCandidate <= lastCandidate && calB.startOfDay(firstCandidate) <= a.last { firstCandidate += 1 }
            while lastCandidate >= firstCandidate && calB.startOfDay(lastCandidate) > b.first { lastCandidate -= 1 }
            var note: String?
            var chosen: Int
            if firstCandidate > lastCandidate {
                chosen = lowDay
                note =
                    "samples naming \(a.id) and \(b.id) lie within one local day; the change is placed after the last one naming \(a.id)"
            } else if firstCandidate == lastCandidate {
                chosen = firstCandidate
            } else {
                // Score each candidate first day by ActivitySummary agreement around the gap. Two
                // neighbouring candidates x and x + 1 read the same instants in the same zones
                // except [B-midnight x, B-midnight x + 1): without ring data there, they score
                // the same. So the candidates fall into runs of equal score, and only the last
                // candidate of each run is scored: as many as there are days with ring data in
                // the gap, not days in it.
                let quarters = ringQuarters ?? rings.quarters
                ringQuarters = quarters
                var breaks = Set<Int>()  // x with ring data in [B-midnight x, B-midnight x + 1)
                var q = quarters.lowerBound(of: floorDiv(calB.startOfDay(firstCandidate), RingQuarterHours.seconds))
                let stop = calB.startOfDay(lastCandidate)
                while q < quarters.count && quarters[q] * RingQuarterHours.seconds < stop {
                    // The last day whose B-midnight is not after the instant (its local day, or
                    // later where B's clock falls back across midnight).
                    let t = quarters[q] * RingQuarterHours.seconds
                    var x = calB.dayNumber(t)
                    while calB.startOfDay(x + 1) <= t { x += 1 }
                    breaks.insert(x)
                    q += 1
                }
                // HRV beat lists between the candidates tell them apart too (their true offset).
                let start = calB.startOfDay(firstCandidate)
                for o in hrvObservations where o.instant >= start && o.instant < stop {
                    var x = calB.dayNumber(o.instant)
                    while calB.startOfDay(x + 1) <= o.instant { x += 1 }
                    breaks.insert(x)
                }
                var runs: [ClosedRange<Int>] = []  // descending, each of equal score
                var top = lastCandidate
                for x in breaks.sorted(by: >) where x >= firstCandidate && x < top {
                    runs.append((x + 1)...top)
                    top = x
                }
                runs.append(firstCandidate...top)
                // The best fit wins: more days agreeing with the ActivitySummary, then
                // more HRV beat lists with their true offset (a Watch worn only in the hours
                // when both zones show the same date leaves the rings alike), then the smaller
                // deviation from the summaries (a few kcal of the new zone's first morning on the
                // wrong day stay within the Move tolerance). Ties keep the later run.
                var best: ChangeFit?
                var bestRuns = 0
                chosen = lastCandidate
                for run in runs {
                    let x = run.upperBound
                    var trial = periods
                    trial.append(
                        .init(
                            identifier: b.id, timeZone: b.tz, fixedOffset: 0, start: calB.startOfDay(x), firstDay: x,
                            reason: .hkTimeZone(samples: b.count)))
                    let cal = ZoneTimeline(periods: trial).calendar(covering: window)
                    let days = (cal.dayNumber(a.last) - 1)...(cal.dayNumber(b.first) + 1)
                    let score = ChangeFit(
                        rings: RingAgreement.score(rings.dailyValues(cal), summaries: summaries, days: days),
                        offsets: offsets.matches(cal, in: window))
                    if let b = best, !score.isBetter(than: b) {
                        if !b.isBetter(than: score) { bestRuns += 1 }
                    } else {
                        best = score
                        bestRuns = 1
                        chosen = x
                    }
                }
                let first = CivilDate(daysSince1970: firstCandidate)
                let last = CivilDate(daysSince1970: lastCandidate)
                if let best, best.rings.compared > 0 || hrvObservations.count > 0, bestRuns == 1 {
                    note =
                        "the change lies between \(first) and \(last); \(CivilDate(daysSince1970: chosen)) agrees best with the ActivitySummary (\(grouped(best.rings.agreeing)) of \(counted(best.rings.compared, "day")) around it)"
                        + (best.offsets > 0
                            ? " and the HRV beat times (\(grouped(best.offsets)) of \(counted(offsets.count(in: window), "HRV record")) around it)"
                            : "")
                } else {
                    note =
                        "the change lies between \(first) and \(last) (no sample names a zone in between, and the ActivitySummary cannot tell); placed at \(CivilDate(daysSince1970: chosen))"
                    if bestRuns > 1 {
                        // Ring data lies between the equally good first days, so the days in
                        // between hold different values depending on the choice.
                        notes.append(
                            .warning(
                                "the move from \(a.id) to \(b.id) lies between \(first) and \(last), and neither HKTimeZone nor the ActivitySummary tells on which day: the days from \(CivilDate(daysSince1970: firstCandidate - 1)) to \(last) may hold hours of the other zone (the change is placed at \(CivilDate(daysSince1970: chosen)))."
                            ))
                    }
                }
            }
            periods.append(
                .init(
                    identifier: b.id, timeZone: b.tz, fixedOffset: 0, start: calB.startOfDay(chosen), firstDay: chosen,
                    reason: .hkTimeZone(samples: b.count), changeNote: note))
        }
        if let e = exportInstant, let printed = exportOffset, let lastPeriod = periods.last,
            let last = lastPeriod.timeZone, Self.offset(last, e) != printed
        {
            notes.append(
                .info(
                    "The export was made at \(Analyzer.offsetLabel(printed)), but the last HKTimeZone, \(lastPeriod.identifier), "
                        + "has \(Analyzer.offsetLabel(Self.offset(last, e))) then: "
                        + "the phone was elsewhere at export time; days after the last sample naming a zone may be in another zone."
                ))
        }
        return ZoneTimeline(periods: periods, notes: notes)
    }

    /// The zone of the days before the first `HKTimeZone` sample (at `cutoff`, naming `named`),
    /// when they have evidence of their own (docs/days-and-time-zones.md §5), scored up to the day
    /// before the named zone's first day: nil when they fit `named` (at least 95 % of the days
    /// with a summary agree, and 95 % of the HRV beat lists have its offset) or no zone fits them
    /// better. Otherwise the zone group that fits them best
    /// (ActivitySummary agreement, then HRV beat offsets, then the order of §6), its reason, and a
    /// note naming the evidence.
    func leadingZone(before cutoff: Int64, named: String, _ zone: TimeZone) -> (
        id: String, tz: TimeZone, reason: TimeZonePeriodReason, note: AnalysisNote
    )? {
        guard range.lowerBound < cutoff - 3 * 86_400 else { return nil }
        // Every candidate is scored on the same dates and instants: those before the day before
        // the named zone's first day (that day may hold the change, which is placed later).
        let namedCalendar = LocalCalendar(timeZone: zone, covering: range)
        let firstNamedDay = namedCalendar.dayNumber(cutoff)
        let before = range.lowerBound...(namedCalendar.startOfDay(firstNamedDay - 1) - 1)
        let days = min(namedCalendar.dayNumber(range.lowerBound), firstNamedDay - 2)...(firstNamedDay - 2)
        func fit(_ calendar: LocalCalendar) -> (rings: RingAgreement, matching: Int) {
            let rings = RingAgreement.score(rings.dailyValues(calendar), summaries: summaries, days: days)
            return (rings, offsets.matches(calendar, in: before))
        }
        let records = offsets.count(in: before)
        let own = fit(namedCalendar)
        guard own.rings.compared > 0 || records > 0 else { return nil }
        let ringsFit = Double(own.rings.agreeing) >= 0.95 * Double(own.rings.compared)
        let beatsFit = Double(own.matching) >= 0.95 * Double(records)
        if ringsFit && beatsFit { return nil }
        var best: (ids: [String], fit: (rings: RingAgreement, matching: Int))?
        let groups = Self.zoneGroups(range: range) { _ in true }.values.map {
            (calendar: $0.calendar, ids: $0.ids.sorted())
        }
        .sorted { a, b in
            if inRegion(a.ids) != inRegion(b.ids) { return inRegion(a.ids) }
            if preference(a.ids) != preference(b.ids) { return preference(a.ids) < preference(b.ids) }
            return representative(a.ids) < representative(b.ids)
        }
        for g in groups {
            let f = fit(g.calendar)
            if let b = best {
                if f.rings.agreeing < b.fit.rings.agreeing { continue }
                if f.rings.agreeing == b.fit.rings.agreeing && f.matching <= b.fit.matching { continue }
            }
            best = (g.ids, f)
        }
        guard let best,
            best.fit.rings.agreeing > own.rings.agreeing
                || (best.fit.rings.agreeing == own.rings.agreeing && best.fit.matching > own.matching)
        else { return nil }
        let id = representative(best.ids)
        guard let tz = TimeZone(identifier: id) else { return nil }
        func evidence(_ f: (rings: RingAgreement, matching: Int)) -> String {
            var parts: [String] = []
            if f.rings.compared > 0 {
                parts.append(
                    "ActivitySummary: \(grouped(f.rings.agreeing)) of \(counted(f.rings.compared, "day")) agree")
            }
            if records > 0 { parts.append("HRV beat times: \(grouped(f.matching)) of \(grouped(records)) match") }
            return parts.joined(separator: "; ")
        }
        let note = AnalysisNote.info(
            "Time zone: no sample before \(CivilDate(daysSince1970: firstNamedDay)) names a zone, and the days before fit \(id) (\(evidence(best.fit))) better than \(named), the first zone named (\(evidence(own))): they are read in \(id)."
        )
        return (
            id, tz,
            .changePoints(
                agreeingDays: best.fit.rings.agreeing, comparedDays: best.fit.rings.compared,
                hrvMatching: best.fit.matching, hrvRecords: records),
            note
        )
    }

    /// No `HKTimeZone`: the IANA zones with the printed offset at the export instant, grouped by
    /// their offsets over the data, scored by `ActivitySummary` agreement (docs/days-and-time-zones.md §6).
    func withoutHKTimeZone() -> ZoneTimeline {
        let env = environment.flatMap { TimeZone.iana($0) }
        guard let e = exportInstant, let printed = exportOffset else {
            if let env {
                return ZoneTimeline(
                    periods: [
                        .init(
                            identifier: env.identifier, timeZone: env, fixedOffset: 0, start: .min, firstDay: nil,
                            reason: .environment)
                    ],
                    notes: [
                        .warning(
                            "the export has neither HKTimeZone metadata nor an ExportDate: days are bucketed in this machine's zone (TZ), \(env.identifier). Use --tz to choose the zone the data was recorded in."
                        )
                    ])
            }
            return fixed(0, warning: "no ExportDate")
        }
        let latest = ZoneChangePoints.Anchor(instant: e, offset: printed)
        let anchors = (earlierExports.filter { $0 != latest } + [latest]).sorted { $0.instant < $1.instant }
        // The zones that had each export's printed offset when it was made; when no one zone
        // had them all (an archive of exports made in different zones), those of the latest.
        var groups = Self.zoneGroups(range: range) { tz in
            anchors.allSatisfy { Self.offset(tz, $0.instant) == $0.offset }
        }
        if groups.isEmpty {
            if let periods = changePoints(anchors: anchors, beating: nil) { return periods }
            groups = Self.zoneGroups(range: range) { tz in Self.offset(tz, e) == printed }
        }
        let candidateCount = groups.values.reduce(0) { $0 + $1.ids.count }
        guard !groups.isEmpty else {
            return fixed(printed, warning: "no IANA zone has the export's offset")
        }
        let region = ZoneRegions.region(ofLocale: locale)
        let hasRingEvidence = !rings.isEmpty && summaries.values.contains { $0.hasRingValues }
        var scored: [(signature: [Int64], ids: [String], score: RingAgreement, offsets: Int)] = groups.map {
            sig, group in
            let score =
                hasRingEvidence
                ? RingAgreement.score(rings.dailyValues(group.calendar), summaries: summaries) : RingAgreement()
            return (sig, group.ids.sorted(), score, offsets.matches(group.calendar))
        }
        // Ring agreement first; then the true offsets of HRV beat times; then the locale's region;
        // then a well-known zone.
        scored.sort { a, b in
            if a.score.agreeing != b.score.agreeing { return a.score.agreeing > b.score.agreeing }
            if a.offsets != b.offsets { return a.offsets > b.offsets }
            if inRegion(a.ids) != inRegion(b.ids) { return inRegion(a.ids) }
            if preference(a.ids) != preference(b.ids) { return preference(a.ids) < preference(b.ids) }
            return representative(a.ids) < representative(b.ids)
        }
        let top = scored.filter { $0.score.agreeing == scored[0].score.agreeing && $0.offsets == scored[0].offsets }
        var notes: [AnalysisNote] = []
        if (!hasRingEvidence || scored[0].score.compared == 0) && offsets.isEmpty {
            // Nothing in the data scores the candidates: they all give the same days, or the
            // locale's region keeps one group.
            let local = scored.filter { inRegion($0.ids) }
            if scored.count == 1 || local.count == 1 {
                let group = scored.count == 1 ? scored[0] : local[0]
                let id = representative(group.ids)
                let byRegion = region != nil && inRegion(group.ids) && (scored.count > 1 || group.ids.count > 1)
                if group.ids.count > 1 || scored.count > 1 {
                    notes.append(
                        .info(
                            "The export names no time zone (no HKTimeZone metadata) and has no ring data or HRV beats to test zones with: "
                                + (scored.count == 1
                                    ? "every zone with its offset \(Analyzer.offsetLabel(printed)) at the export instant has the same offsets over the data (\(counted(group.ids.count, "zone")))"
                                    : "of the zones with its offset \(Analyzer.offsetLabel(printed)) at the export instant, only those of the export's locale region \(region ?? "") are taken")
                                + "; days are bucketed in \(id)"
                                + (byRegion ? ", a zone of the locale's region \(region ?? "")." : ".")
                        ))
                }
                return ZoneTimeline(
                    periods: [
                        .init(
                            identifier: id, timeZone: TimeZone(identifier: id), fixedOffset: 0, start: .min,
                            firstDay: nil,
                            reason: .exportOffsetCandidates(candidates: candidateCount, region: byRegion ? region : nil)
                        )
                    ], notes: notes)
            }
            if let env, scored.contains(where: { $0.ids.contains(env.identifier) }) {
                notes.append(
                    .warning(
                        "the export names no time zone (no HKTimeZone metadata) and nothing in it tells the \(counted(candidateCount, "zone")) "
                            + "with its offset \(Analyzer.offsetLabel(printed)) at the export instant apart (no ring data, no HRV beats, "
                            + "no locale region among them): days are bucketed in this machine's zone (TZ), \(env.identifier). "
                            + "Use --tz to choose the zone the data was recorded in."
                    ))
                return ZoneTimeline(
                    periods: [
                        .init(
                            identifier: env.identifier, timeZone: env, fixedOffset: 0, start: .min, firstDay: nil,
                            reason: .environment)
                    ], notes: notes)
            }
            return fixed(printed, warning: "no HKTimeZone metadata and no ring data to tell the candidate zones apart")
        }
        let winner = top[0]
        // No one zone fits the days (a move or a trip): look for periods.
        let poorRings =
            winner.score.compared > 0 && Double(winner.score.agreeing) < 0.95 * Double(winner.score.compared)
        let poorBeats = !offsets.isEmpty && Double(winner.offsets) < 0.95 * Double(offsets.count)
        if poorRings || poorBeats,
            let periods = changePoints(
                anchors: anchors, beating: (winner.score, winner.offsets, representative(winner.ids)))
        {
            return periods
        }
        let id = representative(winner.ids)
        if let note = standInNote(winner.ids, named: id) { notes.append(note) }
        if !offsets.isEmpty {
            notes.append(
                .info(
                    "Time zone: the export names none (no HKTimeZone); \(id) was chosen among \(counted(candidateCount, "IANA zone")) with the export's offset "
                        + "\(Analyzer.offsetLabel(printed)) at the export instant"
                        + (winner.score.compared > 0
                            ? ": its days agree with the ActivitySummary on \(grouped(winner.score.agreeing)) of \(counted(winner.score.compared, "day"))"
                            : "")
                        + ", and its offsets match the true local time of \(grouped(winner.offsets)) of \(counted(offsets.count, "HRV record")) (beat times)."
                ))
        }
        if top.count > 1 {
            let others = top.filter { $0.signature != winner.signature }.map { representative($0.ids) }
            let rule =
                region != nil && inRegion(winner.ids) && top.contains(where: { !inRegion($0.ids) })
                ? "a zone of the export's locale region \(region ?? "")"
                : "the first in docs/days-and-time-zones.md §6's order"
            notes.append(
                .info(
                    "Time zone: \(id) and \(others.joined(separator: ", ")) agree equally well with the export "
                        + "(ActivitySummary: \(grouped(winner.score.agreeing)) of \(counted(winner.score.compared, "day"))); "
                        + "\(id) was taken as \(rule). Use --tz to choose."
                ))
        }
        return ZoneTimeline(
            periods: [
                .init(
                    identifier: id, timeZone: TimeZone(identifier: id), fixedOffset: 0, start: .min, firstDay: nil,
                    reason: winner.score.compared > 0
                        ? .activitySummaryAgreement(
                            candidates: candidateCount, agreeingDays: winner.score.agreeing,
                            comparedDays: winner.score.compared)
                        : .hrvBeatOffsets(candidates: candidateCount, matching: winner.offsets, records: offsets.count))
            ], notes: notes)
    }

    /// The UTC offset of `tz` at instant `t` (seconds east).
    static func offset(_ tz: TimeZone, _ t: Int64) -> Int64 {
        Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// The canonical zones of the tz database (`ZoneDatabase`) that `include` accepts, grouped by
    /// their offsets over `range` (zones in one group give the same days), each group with the
    /// calendar of its zones.
    static func zoneGroups(
        range: ClosedRange<Int64>, _ include: (TimeZone) -> Bool
    ) -> [[Int64]: (calendar: LocalCalendar, ids: [String])] {
        var groups: [[Int64]: (calendar: LocalCalendar, ids: [String])] = [:]
        for id in ZoneDatabase.candidateIdentifiers {
            guard let tz = TimeZone(identifier: id), include(tz) else { continue }
            let cal = LocalCalendar(timeZone: tz, covering: range)
            let signature = cal.segments.flatMap { [$0.start, $0.offset] }
            groups[signature, default: (cal, [])].ids.append(id)
            groups[signature]?.calendar = cal  // the last zone's (same segments)
        }
        return groups
    }

    /// True when a zone of the export locale's region is among `ids`.
    func inRegion(_ ids: [String]) -> Bool {
        let regionZones = ZoneRegions.zones(ofLocale: locale)
        return ids.contains { regionZones.contains($0) }
    }

    /// The zone that names a group of zones giving the same days. Ties are broken by the
    /// export's own evidence, never by the machine's TZ: the zones of the locale's region first,
    /// then the well-known representatives (the most populous), then the tz database's
    /// `zone1970.tab` order, then the name (docs/days-and-time-zones.md §6).
    func representative(_ ids: [String]) -> String {
        let regionZones = ZoneRegions.zones(ofLocale: locale)
        let local = ids.filter { regionZones.contains($0) }
        let pool = local.isEmpty ? ids : local
        if let p = Self.preferredRepresentatives.first(where: { pool.contains($0) }) { return p }
        // Then the tz database's own order (zone1970.tab), then the name.
        if let first = ZoneDatabase.candidateIdentifiers.first(where: { pool.contains($0) }) { return first }
        let plain = pool.filter { !$0.hasPrefix("Etc/") && $0.contains("/") }
        return (plain.isEmpty ? pool : plain).min() ?? ids[0]  // a group has at least one zone
    }

    /// A note naming `id` as a stand-in (docs/days-and-time-zones.md §6): `ids` are the zones with
    /// the same offsets as the data on every day, and nothing in an export tells them apart. When
    /// the export's locale names a region none of whose zones is among them, the note says which
    /// zone the locale suggests (its offsets differ from the data's; not with `suggestingHome`
    /// false, for a period away from a home that another period is in); otherwise, when `id` was
    /// taken among several zones by population or the tz database's order, it lists them. Nil
    /// when `id` is the only zone, or the locale's region chose it.
    func standInNote(_ ids: [String], named id: String, suggestingHome: Bool = true) -> AnalysisNote? {
        let regionZones = ZoneRegions.zones(ofLocale: locale)
        if suggestingHome, let locale, let region = ZoneRegions.region(ofLocale: locale), !regionZones.isEmpty,
            !inRegion(ids)
        {
            let suggested = Self.preferredRepresentatives.first { regionZones.contains($0) } ?? regionZones[0]
            return .info(
                "Time zone: \(id) has the same offsets as your data on every day; your export's locale (\(locale), region \(region)) suggests \(suggested), whose offsets differ from the data's. Use --tz \(suggested) if the data was recorded there."
            )
        }
        guard ids.count > 1, !inRegion(ids) else { return nil }
        let others = ids.filter { $0 != id }
        let shown = others.prefix(12).joined(separator: ", ") + (others.count > 12 ? ", …" : "")
        return .info(
            "Time zone: \(id) stands in for \(counted(ids.count, "zone")) with the same offsets as your data on every day (also \(shown)); nothing in the export tells them apart, and \(id) is the first of them by population and the tz database's order. Use --tz to name another."
        )
    }

    /// The place of a group in `preferredRepresentatives` (after them all when none is in it).
    func preference(_ ids: [String]) -> Int {
        Self.preferredRepresentatives.firstIndex { ids.contains($0) } ?? Self.preferredRepresentatives.count
    }

    /// Periods of zones found by `ZoneChangePoints` (docs/days-and-time-zones.md §6.1), or nil
    /// when the search finds one period only, or (given `beating`, the best single zone's
    /// agreement and HRV matches) periods that fit the days no better than that zone.
    /// Candidates: the well-known representative zones and every zone with an export's printed
    /// offset at its instant, grouped by their offsets over the data.
    func changePoints(
        anchors: [ZoneChangePoints.Anchor], beating single: (score: RingAgreement, offsets: Int, zone: String)?
    ) -> ZoneTimeline? {
        let groups = Self.zoneGroups(range: range) { _ in true }
        let ordered = groups.values.map { (calendar: $0.calendar, ids: $0.ids.sorted()) }.sorted { a, b in
            if inRegion(a.ids) != inRegion(b.ids) { return inRegion(a.ids) }
            if preference(a.ids) != preference(b.ids) { return preference(a.ids) < preference(b.ids) }
            return representative(a.ids) < representative(b.ids)
        }
        var search = ZoneChangePoints(candidates: ordered.map { .init(ids: $0.ids, calendar: $0.calendar) })
        search.rings = rings
        search.summaries = summaries
        search.offsets = offsets
        search.anchors = anchors
        guard let found = search.search(), found.count > 1 else { return nil }
        var periods: [ZoneTimeline.Period] = []
        for (k, p) in found.enumerated() {
            let c = ordered[p.candidate]
            let id = representative(c.ids)
            var note: String?
            if k > 0 {
                let before = representative(ordered[found[k - 1].candidate].ids)
                let evidence =
                    anchors.count > 1
                    ? "ActivitySummary, HRV beat times, the offsets printed on the exports"
                    : "ActivitySummary, HRV beat times"
                note =
                    "no sample names a zone: the days' evidence (\(evidence)) fits \(before) until \(CivilDate(daysSince1970: p.firstDay - 1)) and \(id) from \(CivilDate(daysSince1970: p.firstDay))"
            }
            periods.append(
                .init(
                    identifier: id, timeZone: TimeZone(identifier: id), fixedOffset: 0,
                    start: k == 0 ? .min : c.calendar.startOfDay(p.firstDay), firstDay: k == 0 ? nil : p.firstDay,
                    reason: .changePoints(
                        agreeingDays: p.agreeing, comparedDays: p.compared, hrvMatching: p.hrvMatching,
                        hrvRecords: p.hrvRecords),
                    changeNote: note))
        }
        var timeline = ZoneTimeline(periods: periods)
        // Stand-ins are named; the locale's zone is suggested only when no period lies in the
        // locale's region (a trip away from home is not a stand-in for home).
        let anyInRegion = found.contains { inRegion(ordered[$0.candidate].ids) }
        for id in Set(found.map { representative(ordered[$0.candidate].ids) }).sorted() {
            let ids = found.first { representative(ordered[$0.candidate].ids) == id }.map { ordered[$0.candidate].ids }
            if let ids, let note = standInNote(ids, named: id, suggestingHome: !anyInRegion) {
                timeline.notes.append(note)
            }
        }
        // The periods as the report reads them (each change at the new zone's midnight) must
        // fit better than the best single zone; each period's evidence is counted that way too.
        let calendar = timeline.calendar(covering: range)
        let values = rings.dailyValues(calendar)
        var perPeriod = [(agreeing: Int, compared: Int, matching: Int, records: Int)](
            repeating: (0, 0, 0, 0), count: periods.count)
        for (day, summary) in summaries {
            guard let v = values[day], let c = RingAgreement.compare(v, summary) else { continue }
            let k = timeline.periodIndex(day: day)
            perPeriod[k].compared += 1
            if c.agrees { perPeriod[k].agreeing += 1 }
        }
        for o in offsets.observations {
            let k = timeline.periodIndex(day: calendar.dayNumber(o.instant))
            perPeriod[k].records += o.count
            if OffsetEvidence.explains(calendar.offset(at: o.instant), o.offset) { perPeriod[k].matching += o.count }
        }
        for (k, e) in perPeriod.enumerated() {
            timeline.periods[k].reason = .changePoints(
                agreeingDays: e.agreeing, comparedDays: e.compared, hrvMatching: e.matching, hrvRecords: e.records)
        }
        // The whole timeline's fit: the periods' sums.
        let agreeing = perPeriod.reduce(0) { $0 + $1.agreeing }
        let compared = perPeriod.reduce(0) { $0 + $1.compared }
        let matching = perPeriod.reduce(0) { $0 + $1.matching }
        if let single {
            let better =
                agreeing > single.score.agreeing || (agreeing == single.score.agreeing && matching > single.offsets)
            guard better else { return nil }
        }
        timeline.notes.append(
            .info(
                "Time zone: the export names none (no HKTimeZone)"
                    + (single.map {
                        ", and no one zone fits all its days (the best, \($0.zone), agrees with the ActivitySummary on \(grouped($0.score.agreeing)) of \(counted($0.score.compared, "day")) and matches \(grouped($0.offsets)) of \(counted(offsets.count, "HRV record")))"
                    } ?? ", and its exports were made at offsets that no one zone has")
                    + ": the days fall into \(counted(periods.count, "period")) of zones (listed in the Overview), which agree with the ActivitySummary on \(grouped(agreeing)) of \(counted(compared, "day")) and match \(grouped(matching)) of \(counted(offsets.count, "HRV record"))."
            ))
        return timeline
    }

    private func fixed(_ offset: Int64, warning why: String) -> ZoneTimeline {
        let label = Analyzer.offsetLabel(offset)
        return ZoneTimeline(
            periods: [
                .init(
                    identifier: label, timeZone: nil, fixedOffset: offset, start: .min, firstDay: nil,
                    reason: .exportOffset)
            ],
            notes: [
                .warning(
                    "no time zone known (\(why)): days are bucketed at the export's fixed offset \(label), "
                        + "ignoring daylight saving time. Use --tz to name the zone.")
            ])
    }
}

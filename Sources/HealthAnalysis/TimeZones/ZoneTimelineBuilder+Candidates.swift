import Foundation
import HealthExport

/// A group of candidate zones with the same offsets over the data, scored against the export:
/// `ActivitySummary` agreement and HRV beat lists with their offset (docs/days-and-time-zones.md §6).
struct ScoredZoneGroup {
    var signature: [Int64]
    var ids: [String]
    var score: RingAgreement
    var offsets: Int
}

extension ZoneTimelineBuilder {
    /// No `HKTimeZone` (docs/days-and-time-zones.md §6), in stages: the candidates (the IANA
    /// zones with every export's printed offset at its instant, grouped by their offsets over the
    /// data), their scores (`ActivitySummary` agreement, then HRV beat offsets), then the single
    /// zone that fits best, or periods of zones when none fits all days (§6.1).
    func withoutHKTimeZone() -> ZoneTimeline {
        let env = environment.flatMap { TimeZone.iana($0) }
        guard let e = exportInstant, let printed = exportOffset else {
            if let env {
                return .single(
                    env.identifier, env, reason: .environment,
                    notes: [.environmentWithoutExportDate(zone: env.identifier)])
            }
            return fixed(0, .noExportDate)
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
        guard !groups.isEmpty else { return fixed(printed, .noZoneWithExportOffset) }
        let scored = scoredGroups(groups)
        if (!hasRingEvidence || scored[0].score.compared == 0) && offsets.isEmpty {
            return untested(scored, printed: printed, candidates: candidateCount, environment: env)
        }
        let winner = scored[0]
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
        return chosen(among: scored, printed: printed, candidates: candidateCount)
    }

    /// True when the export has ring data and summaries with ring values to compare it with.
    var hasRingEvidence: Bool { !rings.isEmpty && summaries.values.contains { $0.hasRingValues } }

    /// The candidate groups scored and ordered, best first: ring agreement; then the true offsets
    /// of HRV beat times; then the locale's region; then a well-known zone (§6).
    func scoredGroups(_ groups: [[Int64]: (calendar: LocalCalendar, ids: [String])]) -> [ScoredZoneGroup] {
        let withRings = hasRingEvidence
        var scored = groups.map { sig, group in
            let score =
                withRings
                ? RingAgreement.score(rings.dailyValues(group.calendar), summaries: summaries) : RingAgreement()
            return ScoredZoneGroup(
                signature: sig, ids: group.ids.sorted(), score: score, offsets: offsets.matches(group.calendar))
        }
        scored.sort { a, b in
            if a.score.agreeing != b.score.agreeing { return a.score.agreeing > b.score.agreeing }
            if a.offsets != b.offsets { return a.offsets > b.offsets }
            if inRegion(a.ids) != inRegion(b.ids) { return inRegion(a.ids) }
            if preference(a.ids) != preference(b.ids) { return preference(a.ids) < preference(b.ids) }
            return representative(a.ids) < representative(b.ids)
        }
        return scored
    }

    /// Nothing in the data scores the candidates (§6): they all give the same days, or the
    /// locale's region keeps one group; else the machine's `TZ` when it is among them; else the
    /// export's fixed offset.
    private func untested(
        _ scored: [ScoredZoneGroup], printed: Int64, candidates: Int, environment env: TimeZone?
    ) -> ZoneTimeline {
        let region = ZoneRegions.region(ofLocale: locale)
        let local = scored.filter { inRegion($0.ids) }
        if scored.count == 1 || local.count == 1 {
            let group = scored.count == 1 ? scored[0] : local[0]
            let id = representative(group.ids)
            let byRegion = region != nil && inRegion(group.ids) && (scored.count > 1 || group.ids.count > 1)
            var notes: [ZoneNote] = []
            if group.ids.count > 1 || scored.count > 1 {
                notes.append(
                    .untestedCandidates(
                        printed: printed, allSameOffsets: scored.count == 1, zones: group.ids.count, region: region,
                        zone: id, byRegion: byRegion))
            }
            return .single(
                id, TimeZone(identifier: id),
                reason: .exportOffsetCandidates(candidates: candidates, region: byRegion ? region : nil), notes: notes)
        }
        if let env, scored.contains(where: { $0.ids.contains(env.identifier) }) {
            return .single(
                env.identifier, env, reason: .environment,
                notes: [.environmentTieBreak(candidates: candidates, printed: printed, zone: env.identifier)])
        }
        return fixed(printed, .nothingToTellCandidatesApart)
    }

    /// The best-scoring group's zone for every day (§6), with notes naming a stand-in, the
    /// evidence, and the groups that fit equally well.
    private func chosen(among scored: [ScoredZoneGroup], printed: Int64, candidates: Int) -> ZoneTimeline {
        let winner = scored[0]
        let top = scored.filter { $0.score.agreeing == winner.score.agreeing && $0.offsets == winner.offsets }
        let id = representative(winner.ids)
        var notes: [ZoneNote] = []
        if let note = standInNote(winner.ids, named: id) { notes.append(note) }
        if !offsets.isEmpty {
            notes.append(
                .chosenAmongCandidates(
                    zone: id, candidates: candidates, printed: printed, rings: winner.score,
                    hrvMatching: winner.offsets, hrvRecords: offsets.count))
        }
        if top.count > 1 {
            let others = top.filter { $0.signature != winner.signature }.map { representative($0.ids) }
            let region = ZoneRegions.region(ofLocale: locale)
            let byRegion = region != nil && inRegion(winner.ids) && top.contains(where: { !inRegion($0.ids) })
            notes.append(
                .equallyGood(
                    zone: id, others: others, rings: winner.score,
                    rule: byRegion ? .localeRegion(region) : .documentedOrder))
        }
        return .single(
            id, TimeZone(identifier: id),
            reason: winner.score.compared > 0
                ? .activitySummaryAgreement(
                    candidates: candidates, agreeingDays: winner.score.agreeing, comparedDays: winner.score.compared)
                : .hrvBeatOffsets(candidates: candidates, matching: winner.offsets, records: offsets.count),
            notes: notes)
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

    /// The zone groups over the data (of the zones `include` accepts), in the order of §6: the
    /// locale's region, the well-known representatives, then the name.
    func orderedZoneGroups(
        _ include: (TimeZone) -> Bool = { _ in true }
    ) -> [(calendar: LocalCalendar, ids: [String])] {
        Self.zoneGroups(range: range, include).values.map { (calendar: $0.calendar, ids: $0.ids.sorted()) }
            .sorted { a, b in
                if inRegion(a.ids) != inRegion(b.ids) { return inRegion(a.ids) }
                if preference(a.ids) != preference(b.ids) { return preference(a.ids) < preference(b.ids) }
                return representative(a.ids) < representative(b.ids)
            }
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
    /// taken among several zones by population or the tz database's order (also among several
    /// of the locale's region, §6 item 3), it lists them, the region's first. Nil when `id` is
    /// the only zone, or the locale's region chose it (its only zone in `ids`).
    func standInNote(_ ids: [String], named id: String, suggestingHome: Bool = true)
        -> ZoneNote?
    {
        let regionZones = ZoneRegions.zones(ofLocale: locale)
        if suggestingHome, let locale, let region = ZoneRegions.region(ofLocale: locale), !regionZones.isEmpty,
            !inRegion(ids)
        {
            let suggested = Self.preferredRepresentatives.first { regionZones.contains($0) } ?? regionZones[0]
            return .standInForLocale(zone: id, locale: locale, region: region, suggested: suggested)
        }
        let local = ids.filter { regionZones.contains($0) }
        if local.count > 1 {
            let others = local.filter { $0 != id } + ids.filter { $0 != id && !regionZones.contains($0) }
            return .standIn(zone: id, zones: ids.count, others: others)
        }
        guard ids.count > 1, !inRegion(ids) else { return nil }
        return .standIn(zone: id, zones: ids.count, others: ids.filter { $0 != id })
    }

    /// The place of a group in `preferredRepresentatives` (after them all when none is in it).
    func preference(_ ids: [String]) -> Int {
        Self.preferredRepresentatives.firstIndex { ids.contains($0) } ?? Self.preferredRepresentatives.count
    }
}

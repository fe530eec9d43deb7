import Foundation
import HealthExport

extension ZoneTimelineBuilder {
    /// Periods of zones found by `ZoneChangePoints` (docs/days-and-time-zones.md §6.1), or nil
    /// when the search finds one period only, or (given `beating`, the best single zone's
    /// agreement and HRV matches) periods that fit the days no better than that zone.
    /// Candidates: the well-known representative zones and every zone with an export's printed
    /// offset at its instant, grouped by their offsets over the data.
    func changePoints(
        anchors: [ZoneChangePoints.Anchor], beating single: (score: RingAgreement, offsets: Int, zone: String)?
    ) -> ZoneTimeline? {
        let ordered = orderedZoneGroups()
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
            let change =
                k == 0
                ? nil
                : ZoneChangeNote.fromEvidence(
                    before: representative(ordered[found[k - 1].candidate].ids), zone: id, firstDay: p.firstDay,
                    withExports: anchors.count > 1)
            periods.append(
                .init(
                    identifier: id, timeZone: TimeZone(identifier: id), fixedOffset: 0,
                    start: k == 0 ? .min : c.calendar.startOfDay(p.firstDay), firstDay: k == 0 ? nil : p.firstDay,
                    reason: .changePoints(
                        agreeingDays: p.agreeing, comparedDays: p.compared, hrvMatching: p.hrvMatching,
                        hrvRecords: p.hrvRecords),
                    change: change))
        }
        // Each change at the instant the evidence allows within its first day (§5).
        var timeline = placedAtInstants(ZoneTimeline(periods: periods), latest: [])
        // Stand-ins are named; the locale's zone is suggested only when no period lies in the
        // locale's region (a trip away from home is not a stand-in for home).
        let anyInRegion = found.contains { inRegion(ordered[$0.candidate].ids) }
        for id in Set(found.map { representative(ordered[$0.candidate].ids) }).sorted() {
            let ids = found.first { representative(ordered[$0.candidate].ids) == id }.map { ordered[$0.candidate].ids }
            if let ids, let note = standInNote(ids, named: id, suggestingHome: !anyInRegion) {
                timeline.notes.append(note)
            }
        }
        // The periods as the report reads them (each change where it was placed) must
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
            .periodsFound(
                single: single.map {
                    .init(zone: $0.zone, rings: $0.score, hrvMatching: $0.offsets, hrvRecords: offsets.count)
                }, periods: periods.count, agreeing: agreeing, compared: compared, matching: matching,
                records: offsets.count))
        return timeline
    }
}

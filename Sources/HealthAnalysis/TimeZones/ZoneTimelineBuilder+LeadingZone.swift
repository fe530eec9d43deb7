import Foundation
import HealthExport

extension ZoneTimelineBuilder {
    /// The zone of the days before the first `HKTimeZone` sample (at `cutoff`, naming `named`),
    /// when they have evidence of their own (docs/days-and-time-zones.md §5), scored up to the day
    /// before the named zone's first day: nil when they fit `named` (at least 95 % of the days
    /// with a summary agree, and 95 % of the HRV beat lists have its offset) or no zone fits them
    /// better. Otherwise the zone group that fits them best
    /// (ActivitySummary agreement, then HRV beat offsets, then the order of §6), its reason, and a
    /// note naming the evidence.
    /// The zone is named among its group as in §6, and `standIn` says so when it stands in for
    /// others (`standInNote`; the locale's zone is suggested only when `suggestingHome`).
    func leadingZone(before cutoff: Int64, named: String, _ zone: TimeZone, suggestingHome: Bool = true) -> (
        id: String, tz: TimeZone, reason: TimeZonePeriodReason, note: ZoneNote, standIn: ZoneNote?
    )? {
        guard range.lowerBound < cutoff - 3 * 86_400 else { return nil }
        // Every candidate is scored on the same dates and instants: those before the day before
        // the named zone's first day (that day may hold the change, which is placed later).
        let namedCalendar = LocalCalendar(timeZone: zone, covering: range)
        let firstNamedDay = namedCalendar.dayNumber(cutoff)
        let before = range.lowerBound...(namedCalendar.startOfDay(firstNamedDay - 1) - 1)
        let days = min(namedCalendar.dayNumber(range.lowerBound), firstNamedDay - 2)...(firstNamedDay - 2)
        let records = offsets.count(in: before)
        func fit(_ calendar: LocalCalendar) -> ZoneNote.ZoneFit {
            let rings = RingAgreement.score(rings.dailyValues(calendar), summaries: summaries, days: days)
            return .init(rings: rings, hrvMatching: offsets.matches(calendar, in: before), hrvRecords: records)
        }
        let own = fit(namedCalendar)
        guard own.rings.compared > 0 || records > 0 else { return nil }
        let ringsFit = Double(own.rings.agreeing) >= 0.95 * Double(own.rings.compared)
        let beatsFit = Double(own.hrvMatching) >= 0.95 * Double(records)
        if ringsFit && beatsFit { return nil }
        guard let best = bestFitting(orderedZoneGroups(), fit, over: own) else { return nil }
        let id = representative(best.ids)
        guard let tz = TimeZone(identifier: id) else { return nil }
        return (
            id, tz,
            .changePoints(
                agreeingDays: best.fit.rings.agreeing, comparedDays: best.fit.rings.compared,
                hrvMatching: best.fit.hrvMatching, hrvRecords: records),
            .leadingZone(firstNamedDay: firstNamedDay, zone: id, fit: best.fit, named: named, namedFit: own),
            standInNote(best.ids, named: id, suggestingHome: suggestingHome)
        )
    }

    /// The first of `groups` (in their order) that fits best by `fit` (ActivitySummary agreement,
    /// then HRV beat lists), when it fits strictly better than `own`; nil otherwise.
    func bestFitting(
        _ groups: [(calendar: LocalCalendar, ids: [String])], _ fit: (LocalCalendar) -> ZoneNote.ZoneFit,
        over own: ZoneNote.ZoneFit
    ) -> (ids: [String], fit: ZoneNote.ZoneFit)? {
        var best: (ids: [String], fit: ZoneNote.ZoneFit)?
        for g in groups {
            let f = fit(g.calendar)
            if let b = best {
                if f.rings.agreeing < b.fit.rings.agreeing { continue }
                if f.rings.agreeing == b.fit.rings.agreeing && f.hrvMatching <= b.fit.hrvMatching { continue }
            }
            best = (g.ids, f)
        }
        guard let best,
            best.fit.rings.agreeing > own.rings.agreeing
                || (best.fit.rings.agreeing == own.rings.agreeing && best.fit.hrvMatching > own.hrvMatching)
        else { return nil }
        return best
    }
}

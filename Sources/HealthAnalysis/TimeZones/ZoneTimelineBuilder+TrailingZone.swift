import Foundation
import HealthExport

extension ZoneTimelineBuilder {
    /// The period after the last `HKTimeZone` sample (`last`), when the export was made at an
    /// offset that the last named zone does not have then and the days after that sample fit a
    /// zone with the export's offset better by their own evidence (docs/days-and-time-zones.md §5):
    /// `ActivitySummary` agreement, then HRV beat lists with their true offset. The change into
    /// that zone is placed as any other (`place`, the export instant standing for its first
    /// sample), and `notes` gets a note naming the evidence. Nil when the export's offset is the
    /// last zone's, or nothing after the last sample tells (then the last zone runs to the end).
    /// The zone is named among its group as in §6, with a stand-in note when it stands in for
    /// others (`standInNote`; the locale's zone is suggested only when `suggestingHome`).
    func trailingZone(
        after last: ZoneRun, periods: [ZoneTimeline.Period], evidence: inout ZoneChangeEvidence,
        notes: inout [ZoneNote], suggestingHome: Bool = true
    ) -> ZoneTimeline.Period? {
        guard let e = exportInstant, let printed = exportOffset, e > last.last, Self.offset(last.tz, e) != printed
        else { return nil }
        // Every candidate is scored on the same instants and dates: those after the last sample
        // naming a zone, from the day after its day (in the last zone) on.
        let lastCalendar = LocalCalendar(timeZone: last.tz, covering: range)
        let after = (last.last + 1)...e
        let firstDay = lastCalendar.dayNumber(last.last) + 1
        let days = firstDay...max(firstDay, lastCalendar.dayNumber(e))
        let records = offsets.count(in: after)
        func fit(_ calendar: LocalCalendar) -> ZoneNote.ZoneFit {
            let rings = RingAgreement.score(rings.dailyValues(calendar), summaries: summaries, days: days)
            return .init(rings: rings, hrvMatching: offsets.matches(calendar, in: after), hrvRecords: records)
        }
        let own = fit(lastCalendar)
        guard own.rings.compared > 0 || records > 0,
            let best = bestFitting(orderedZoneGroups { Self.offset($0, e) == printed }, fit, over: own)
        else { return nil }
        let id = representative(best.ids)
        guard let tz = TimeZone(identifier: id) else { return nil }
        let next = ZoneRun(id: id, tz: tz, first: e, last: e, count: 0)
        var period = place(
            ZoneChangeCandidates(from: last, to: next), after: periods, evidence: &evidence, notes: &notes)
        period.reason = .changePoints(
            agreeingDays: best.fit.rings.agreeing, comparedDays: best.fit.rings.compared,
            hrvMatching: best.fit.hrvMatching, hrvRecords: records)
        notes.append(
            .trailingZone(
                printed: printed, lastNamedDay: days.lowerBound - 1, zone: id, fit: best.fit, named: last.id,
                namedFit: own))
        if let note = standInNote(best.ids, named: id, suggestingHome: suggestingHome) {
            notes.append(note)
        }
        return period
    }
}

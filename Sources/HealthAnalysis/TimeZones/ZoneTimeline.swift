import Foundation
import HealthExport

/// Which zone is in force when: consecutive periods, each with a zone and the reason for it,
/// decided from the export's own evidence (docs/days-and-time-zones.md §3, §5).
///
/// **Where a change takes effect.** A change into zone B whose first day is the local date X
/// takes effect at B's local midnight starting X, or later within B's day X where the evidence
/// places the move (docs/days-and-time-zones.md §5, "The instant of a move"): from that instant
/// on, instants are read in B. Every instant is filed under its own local date in the zone in
/// force at that instant, and no date is repeated or skipped. Travelling east, the last day in
/// the old zone ends at the change (at B's midnight it is shorter by the offset difference);
/// travelling west, the first day in B also holds the hours of date X that were still spent in
/// the old zone before the change (it is longer): day X starts at the earlier of the two zones'
/// midnights starting X. The first day X is the latest day whose B-midnight lies after the last
/// sample that names the old zone and not after the first sample that names B that fits the
/// `ActivitySummary` and the HRV beat times best (`ChangeFit`), else the latest; the instant
/// within it is the one after the old zone's last ring data that fits them strictly better than
/// B's midnight (`ZoneTimelineBuilder.placedAtInstants`).
struct ZoneTimeline: Sendable {
    struct Period: Sendable {
        var identifier: String
        /// Nil for a fixed offset.
        var timeZone: TimeZone?
        var fixedOffset: Int64
        /// The instant the zone takes effect (`Int64.min` for the first period): B's midnight
        /// starting `firstDay`, or later within that day.
        var start: Int64
        /// The local day number (days since 1970) of the period's first day; nil for the first.
        var firstDay: Int?
        var reason: TimeZonePeriodReason
        /// How the change into this zone was placed, when evidence had to decide it.
        var change: ZoneChangeNote?
        /// Where the change was moved after the new zone's midnight, when it was.
        var instant: ZoneInstantNote?
    }

    var periods: [Period]
    /// Notes for the report (ignored values, ambiguous candidates, …), typed; the report writes
    /// their sentences.
    var notes: [ZoneNote] = []

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

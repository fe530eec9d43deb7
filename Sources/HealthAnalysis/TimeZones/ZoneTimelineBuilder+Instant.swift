import Foundation
import HealthExport

extension ZoneTimelineBuilder {
    /// The instant stage (docs/days-and-time-zones.md §5, "The instant of a move"): each change,
    /// placed so far at the new zone B's midnight starting its first day x, moves to the instant
    /// within B's day x that fits the `ActivitySummary` rows and the HRV beat lists of the days
    /// around it best: from the data after the last of the old zone's pattern to the first of the
    /// new one's. Instants are tried at B's midnight and at the start of each 15-minute bucket of
    /// ring data and each HRV beat list after it, up to the earlier of B's next midnight, the old
    /// zone A's midnight after that (later, A's and B's dates would run backwards), the next
    /// change, and `latest[k]` (the first sample naming B, when one does). A later instant wins
    /// only when it fits strictly better (`ChangeFit`): without evidence the change stays at B's
    /// midnight. The period's first day stays x (every instant tried shows date x in B).
    ///
    /// Runs once per change, after the periods are known, on the data of a few days around it.
    func placedAtInstants(_ timeline: ZoneTimeline, latest: [Int64?]) -> ZoneTimeline {
        guard timeline.periods.count > 1, hasRingEvidence || !offsets.isEmpty else { return timeline }
        var result = timeline
        var buckets: [(quarter: Int64, bucket: RingQuarterHours.Bucket)]?
        let hrv = offsets.observations
        for k in 1..<result.periods.count {
            let p = result.periods[k]
            guard let x = p.firstDay, let b = p.timeZone else { continue }
            let bCalendar = LocalCalendar(timeZone: b, covering: (p.start - 3 * 86_400)...(p.start + 3 * 86_400))
            let previous = result.periods[k - 1]
            let aCalendar =
                previous.timeZone.map {
                    LocalCalendar(timeZone: $0, covering: (p.start - 3 * 86_400)...(p.start + 3 * 86_400))
                } ?? LocalCalendar(fixedOffsetSeconds: previous.fixedOffset)
            let lo = p.start
            var hi = min(bCalendar.startOfDay(x + 1), aCalendar.startOfDay(x + 1)) - 1
            if k + 1 < result.periods.count { hi = min(hi, result.periods[k + 1].start - 1) }
            if let bound = k < latest.count ? latest[k] : nil { hi = min(hi, bound) }
            guard hi > lo else { continue }
            let window = (lo - 3 * 86_400)...(hi + 3 * 86_400)
            if buckets == nil { buckets = rings.buckets }
            let near = (buckets ?? []).filter { window.contains($0.quarter * RingQuarterHours.seconds) }
            let beats = hrv.filter { window.contains($0.instant) }
            // The instants to try: B's midnight, then the end of each bucket and just after each
            // beat list (the earliest instant of each gap in the data: moving within a gap
            // changes no day's rings).
            var instants = Set(near.map { ($0.quarter + 1) * RingQuarterHours.seconds })
            for o in beats { instants.insert(o.instant + 1) }
            let tried = [lo] + instants.filter { $0 > lo && $0 <= hi }.sorted()
            guard tried.count > 1 else { continue }
            let days = (x - 1)...(x + 1)
            // The periods whose span meets the window: the trial calendars need no others.
            var firstIndex = k - 1
            while firstIndex > 0 && result.periods[firstIndex].start > window.lowerBound { firstIndex -= 1 }
            var lastIndex = k
            while lastIndex + 1 < result.periods.count && result.periods[lastIndex + 1].start < window.upperBound {
                lastIndex += 1
            }
            func fit(_ t: Int64) -> ChangeFit {
                var trial = ZoneTimeline(periods: Array(result.periods[firstIndex...lastIndex]))
                trial.periods[k - firstIndex].start = t
                let calendar = trial.calendar(covering: window)
                var values: [Int: RingQuarterHours.Bucket] = [:]
                for (q, v) in near {
                    let d = calendar.dayNumber(q * RingQuarterHours.seconds)
                    guard days.contains(d) else { continue }
                    var sum = values[d] ?? .init()
                    sum.energyKcal += v.energyKcal
                    sum.exerciseMinutes += v.exerciseMinutes
                    sum.standHours += v.standHours
                    values[d] = sum
                }
                var matching = 0
                for o in beats where OffsetEvidence.explains(calendar.offset(at: o.instant), o.offset) {
                    matching += o.count
                }
                return ChangeFit(
                    rings: RingAgreement.score(values, summaries: summaries, days: days), offsets: matching)
            }
            var best = fit(lo)
            var chosen = lo
            for t in tried.dropFirst() {
                let f = fit(t)
                if f.isBetter(than: best) {
                    best = f
                    chosen = t
                }
            }
            guard chosen != lo else { continue }
            result.periods[k].start = chosen
            result.periods[k].instant = ZoneInstantNote(
                from: previous.identifier, local: aCalendar.localSeconds(chosen), agreeing: best.rings.agreeing,
                compared: best.rings.compared)
        }
        return result
    }
}

import Foundation
import HealthExport

/// The candidates stage of one change between two runs of `HKTimeZone` samples
/// (docs/days-and-time-zones.md §5): the local days of the new zone B that may be its first,
/// those whose B-midnight lies after the last sample naming A and not after the first naming B.
/// `startOfDay` grows with the day, so they are one range, found from its ends (not day by day:
/// the gap can be a century); empty (`first > last`) when both samples lie within one B day.
struct ZoneChangeCandidates {
    var from: ZoneRun
    var to: ZoneRun
    /// The instants around the gap that placements are scored on.
    var window: ClosedRange<Int64>
    /// B's calendar over `window`.
    var calendar: LocalCalendar
    /// B's day after the last sample naming A.
    var lowDay: Int
    var first: Int
    var last: Int

    init(from a: ZoneRun, to b: ZoneRun) {
        from = a
        to = b
        window = (a.last - 3 * 86_400)...(b.first + 3 * 86_400)
        calendar = LocalCalendar(timeZone: b.tz, covering: window)
        lowDay = calendar.dayNumber(a.last) + 1
        first = lowDay
        last = calendar.dayNumber(b.first)
        while first <= last && calendar.startOfDay(first) <= a.last { first += 1 }
        while last >= first && calendar.startOfDay(last) > b.first { last -= 1 }
    }

    /// The last candidate day whose B-midnight is not after instant `t` (its local day, or later
    /// where B's clock falls back across midnight).
    func day(containing t: Int64) -> Int {
        var x = calendar.dayNumber(t)
        while calendar.startOfDay(x + 1) <= t { x += 1 }
        return x
    }
}

/// The evidence that change points are found from, gathered once for all changes: the ring
/// data's quarter-hours (sorted, read when a change first needs them) and the HRV beat lists.
struct ZoneChangeEvidence {
    var quarters: [Int64]?
    var hrv: [(instant: Int64, offset: Int64, count: Int)]
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

extension ZoneTimelineBuilder {
    /// The change points stage (docs/days-and-time-zones.md §5): the candidate first days in runs
    /// of equal score, last run first. Two neighbouring candidates x and x + 1 read the same
    /// instants in the same zones except [B-midnight x, B-midnight x + 1): without ring data or
    /// HRV beat lists there, they score the same. So only the last candidate of each run needs a
    /// score: as many as there are days with such data in the gap, not days in it.
    func changePoints(_ c: ZoneChangeCandidates, evidence: inout ZoneChangeEvidence) -> [ClosedRange<Int>] {
        let quarters = evidence.quarters ?? rings.quarters
        evidence.quarters = quarters
        var breaks = Set<Int>()  // x with data in [B-midnight x, B-midnight x + 1)
        var q = quarters.lowerBound(of: floorDiv(c.calendar.startOfDay(c.first), RingQuarterHours.seconds))
        let stop = c.calendar.startOfDay(c.last)
        while q < quarters.count && quarters[q] * RingQuarterHours.seconds < stop {
            breaks.insert(c.day(containing: quarters[q] * RingQuarterHours.seconds))
            q += 1
        }
        let start = c.calendar.startOfDay(c.first)
        for o in evidence.hrv where o.instant >= start && o.instant < stop {
            breaks.insert(c.day(containing: o.instant))
        }
        var runs: [ClosedRange<Int>] = []  // descending, each of equal score
        var top = c.last
        for x in breaks.sorted(by: >) where x >= c.first && x < top {
            runs.append((x + 1)...top)
            top = x
        }
        runs.append(c.first...top)
        return runs
    }

    /// The placement stage (docs/days-and-time-zones.md §5): the period of B that `c` starts,
    /// at the candidate first day that fits the export best, with the note saying how it was
    /// placed (and a warning in `notes` when ring data lies between equally good days).
    func place(
        _ c: ZoneChangeCandidates, after periods: [ZoneTimeline.Period], evidence: inout ZoneChangeEvidence,
        notes: inout [ZoneNote]
    ) -> ZoneTimeline.Period {
        var chosen: Int
        var change: ZoneChangeNote?
        var start: Int64?
        if c.first > c.last {
            // Both samples lie within B's day `last` (a westward departure on the travel day):
            // the change starts just after the last sample naming A, within that day, and the
            // instant stage may move it later (§5, "The instant of a move").
            chosen = c.last
            start = max(c.calendar.startOfDay(c.last), c.from.last + 1)
            change = .withinOneDay(from: c.from.id, to: c.to.id)
        } else if c.first == c.last {
            chosen = c.first
        } else {
            // The best fit wins: more days agreeing with the ActivitySummary, then more HRV beat
            // lists with their true offset (a Watch worn only in the hours when both zones show
            // the same date leaves the rings alike), then the smaller deviation from the
            // summaries (a few kcal of the new zone's first morning on the wrong day stay within
            // the Move tolerance). Ties keep the later run.
            var best: ChangeFit?
            var bestRuns = 0
            chosen = c.last
            for run in changePoints(c, evidence: &evidence) {
                let score = fit(c, firstDay: run.upperBound, after: periods)
                if let b = best, !score.isBetter(than: b) {
                    if !b.isBetter(than: score) { bestRuns += 1 }
                } else {
                    best = score
                    bestRuns = 1
                    chosen = run.upperBound
                }
            }
            if let best, best.rings.compared > 0 || evidence.hrv.count > 0, bestRuns == 1 {
                let records = offsets.count(in: c.window)
                change = .bestFit(
                    firstCandidate: c.first, lastCandidate: c.last, chosen: chosen,
                    fit: .init(rings: best.rings, hrvMatching: best.offsets, hrvRecords: records))
            } else {
                change = .undecided(firstCandidate: c.first, lastCandidate: c.last, chosen: chosen)
                if bestRuns > 1 {
                    // Ring data lies between the equally good first days, so the days in
                    // between hold different values depending on the choice.
                    notes.append(
                        .undecidedMove(
                            from: c.from.id, to: c.to.id, firstCandidate: c.first, lastCandidate: c.last,
                            chosen: chosen))
                }
            }
        }
        return .init(
            identifier: c.to.id, timeZone: c.to.tz, fixedOffset: 0, start: start ?? c.calendar.startOfDay(chosen),
            firstDay: chosen, reason: .hkTimeZone(samples: c.to.count), change: change)
    }

    /// How the timeline `periods` followed by B from day `x` on fits the days around the gap.
    private func fit(_ c: ZoneChangeCandidates, firstDay x: Int, after periods: [ZoneTimeline.Period]) -> ChangeFit {
        var trial = periods
        trial.append(
            .init(
                identifier: c.to.id, timeZone: c.to.tz, fixedOffset: 0, start: c.calendar.startOfDay(x), firstDay: x,
                reason: .hkTimeZone(samples: c.to.count)))
        let cal = ZoneTimeline(periods: trial).calendar(covering: c.window)
        let days = (cal.dayNumber(c.from.last) - 1)...(cal.dayNumber(c.to.first) + 1)
        return ChangeFit(
            rings: RingAgreement.score(rings.dailyValues(cal), summaries: summaries, days: days),
            offsets: offsets.matches(cal, in: c.window))
    }
}

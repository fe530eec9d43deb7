import HealthExport

/// Periods of zones for an export that names none (no `HKTimeZone`), found from the days
/// themselves (docs/days-and-time-zones.md §6.1): each candidate zone group scores every local
/// day (1 when its ring values agree with that day's `ActivitySummary`, plus the share of the
/// day's HRV beat lists whose true offset it has), and the search picks the sequence of groups
/// with the highest total, where every change costs `changePenalty` and every period lasts at
/// least two days. Each export instant (the latest export's, and in an archive every earlier
/// export's) must lie in a group with the offset printed on that export.
///
/// Pure and deterministic: equal scores go to the earlier candidate (the caller orders them by
/// preference) and to the earliest change that the evidence allows, but for days that give
/// neither zone any evidence at the start of a period (`keepEmptyDaysBeforeChanges`).
struct ZoneChangePoints {
    /// A group of zones with the same offsets over the data, with their calendar.
    struct Candidate {
        var ids: [String]
        var calendar: LocalCalendar
    }

    /// An export instant and the UTC offset printed on that export (seconds east).
    struct Anchor: Sendable, Equatable {
        var instant: Int64
        var offset: Int64
    }

    /// A run of local days (day numbers) in one candidate, with the evidence it rests on.
    struct Period: Equatable {
        var candidate: Int
        var firstDay: Int
        var lastDay: Int
        /// Days with a summary and ring values, and how many of them agree.
        var agreeing = 0
        var compared = 0
        /// HRV beat lists in the period, and how many of them have the candidate's offset.
        var hrvMatching = 0
        var hrvRecords = 0
    }

    /// What one change must gain: more than two days' score, so that two odd days at either end
    /// of the data never make a period of their own, while a move (every day before it
    /// disagrees) and a trip of three days with ring data and HRV beats (2 a day) do.
    static let changePenalty = 2.5
    /// Periods shorter than this many days are not considered (but for the first, which also
    /// holds the days before the search's first).
    static let shortestPeriodDays = 2
    /// The longest run of days searched (a century); longer inputs are not searched.
    static let longestSearchDays = 36_600

    var candidates: [Candidate]
    var rings = RingQuarterHours()
    var summaries: [Int: ActivitySummary] = [:]
    var offsets = OffsetEvidence()
    var anchors: [Anchor] = []

    private struct DayEvidence {
        var agrees = false
        var compared = false
        var hrvMatching = 0
        var hrvRecords = 0
        var score: Double { (agrees ? 1 : 0) + (hrvRecords > 0 ? Double(hrvMatching) / Double(hrvRecords) : 0) }
    }

    /// The periods, first to last; nil when no sequence of candidates has every anchor's offset
    /// or there is nothing to search. In stages: each candidate's evidence per day, the best
    /// total per day and candidate (a dynamic programme over the days), the best end traced back
    /// to the first day, and the periods of that assignment.
    func search() -> [Period]? {
        guard !candidates.isEmpty, let scored = scoredDays() else { return nil }
        let pass = bestTotals(scored)
        guard var assignment = traceBack(pass, days: scored.days.count) else { return nil }
        keepEmptyDaysBeforeChanges(&assignment, scored)
        return periods(assignment, scored)
    }

    /// Moves each change later over the days at its start that hold no evidence for either zone
    /// group (no agreeing ActivitySummary, no matching HRV beat list: a travel day without any
    /// sample, whose two calendars' days hold only hours of the days around it) when the day
    /// before has evidence for the old group and the day after for the new one (a gap within
    /// the data; across a stretch without any evidence, such as exports with only their export
    /// instants, the change stays as early as allowed, §6.1 "Archives"), while the new period
    /// keeps `shortestPeriodDays` and the old group has every anchor's offset there.
    /// Such a day scores 0 in both, so the total is unchanged; it stays in the zone before, as
    /// with `HKTimeZone`, where the latest day is taken when nothing tells the days apart
    /// (docs/days-and-time-zones.md §5, §6.1).
    private func keepEmptyDaysBeforeChanges(_ assignment: inout [Int], _ scored: ScoredDays) {
        let lo = scored.days.lowerBound
        var i = 1
        while i < assignment.count {
            let (a, b) = (assignment[i - 1], assignment[i])
            var end = i
            while end < assignment.count && assignment[end] == b { end += 1 }
            // The gap: days scoring 0 in both, between a day with evidence for A and one for B.
            var e = i
            while a != b, e < end, scored.score(a, lo + e) == 0, scored.score(b, lo + e) == 0 { e += 1 }
            if a != b, e > i, end - e >= Self.shortestPeriodDays, scored.score(a, lo + i - 1) > 0,
                scored.score(b, lo + e) > 0
            {
                for d in i..<e { assignment[d] = a }
            }
            i = max(end, i + 1)
        }
    }

    /// Each candidate's evidence per day, the days where it lacks an anchor's offset, and the
    /// days searched (from the first to the last day with evidence or an anchor).
    private struct ScoredDays {
        var evidence: [[Int: DayEvidence]]
        var forbidden: [Set<Int>]
        var days: ClosedRange<Int>

        func score(_ k: Int, _ day: Int) -> Double {
            if forbidden[k].contains(day) { return -Double.infinity }
            return evidence[k][day]?.score ?? 0
        }
    }

    /// The evidence stage; nil when there are no days or more than `longestSearchDays`.
    private func scoredDays() -> ScoredDays? {
        let observations = offsets.observations
        var evidence: [[Int: DayEvidence]] = []
        var forbidden: [Set<Int>] = []
        var lo = Int.max
        var hi = Int.min
        for c in candidates {
            var days: [Int: DayEvidence] = [:]
            let values = rings.dailyValues(c.calendar)
            for (day, s) in summaries {
                guard let v = values[day], let r = RingAgreement.compare(v, s) else { continue }
                days[day, default: DayEvidence()].compared = true
                days[day]?.agrees = r.agrees
            }
            for o in observations {
                let day = c.calendar.dayNumber(o.instant)
                days[day, default: DayEvidence()].hrvRecords += o.count
                if OffsetEvidence.explains(c.calendar.offset(at: o.instant), o.offset) {
                    days[day]?.hrvMatching += o.count
                }
            }
            var no = Set<Int>()
            for a in anchors {
                let day = c.calendar.dayNumber(a.instant)
                lo = min(lo, day)
                hi = max(hi, day)
                if c.calendar.offset(at: a.instant) != a.offset { no.insert(day) }
            }
            for day in days.keys {
                lo = min(lo, day)
                hi = max(hi, day)
            }
            evidence.append(days)
            forbidden.append(no)
        }
        guard lo <= hi, hi - lo < Self.longestSearchDays else { return nil }
        return ScoredDays(evidence: evidence, forbidden: forbidden, days: lo...hi)
    }

    /// The forward pass's result: the last day's best totals per candidate for a period of at
    /// least two days (`v2`), and per day the choices that the back-trace follows.
    private struct BestTotals {
        var v2: [Double]
        /// `fromLonger[i][k]`: (k, ≥ 2) at day i came from (k, ≥ 2) (else from (k, 1)).
        var fromLonger: [[Bool]]
        /// The best and second-best predecessor of a change at day i.
        var switchFrom: [(Int, Int)]
    }

    /// The dynamic programme: v1[k] is the best total with day i the first of a period in k,
    /// v2[k] with day i at least the second.
    private func bestTotals(_ scored: ScoredDays) -> BestTotals {
        let n = scored.days.count
        let lo = scored.days.lowerBound
        let g = candidates.count
        let minus = -Double.infinity
        var v1 = [Double](repeating: minus, count: g)
        var v2 = [Double](repeating: minus, count: g)
        var fromLonger = [[Bool]](repeating: [], count: n)
        var switchFrom = [(Int, Int)](repeating: (-1, -1), count: n)
        // The first period also holds the days before the first one searched: it may be short.
        for k in 0..<g {
            v1[k] = scored.score(k, lo)
            v2[k] = v1[k]
        }
        for i in 1..<n {
            let day = lo + i
            // The two best periods of at least two days that could end at day i − 1.
            var first = -1
            var second = -1
            for k in 0..<g where v2[k] > minus {
                if first < 0 || v2[k] > v2[first] {
                    second = first
                    first = k
                } else if second < 0 || v2[k] > v2[second] {
                    second = k
                }
            }
            switchFrom[i] = (first, second)
            var n1 = [Double](repeating: minus, count: g)
            var n2 = [Double](repeating: minus, count: g)
            var longer = [Bool](repeating: false, count: g)
            for k in 0..<g {
                let s = scored.score(k, day)
                guard s > minus else { continue }
                // Ties keep the longer run, which moves a change as early as the evidence allows.
                let stay = max(v1[k], v2[k])
                if stay > minus {
                    n2[k] = stay + s
                    longer[k] = v2[k] >= v1[k]
                }
                let from = first != k ? first : second
                if from >= 0 { n1[k] = v2[from] - Self.changePenalty + s }
            }
            v1 = n1
            v2 = n2
            fromLonger[i] = longer
        }
        return BestTotals(v2: v2, fromLonger: fromLonger, switchFrom: switchFrom)
    }

    /// The candidate of each of the `n` days, back from the best end: a period of at least two
    /// days (or the first, of any length), the earlier candidate on ties; nil when none.
    private func traceBack(_ pass: BestTotals, days n: Int) -> [Int]? {
        var end = -1
        var endValue = -Double.infinity
        for k in 0..<candidates.count {
            let v = pass.v2[k]
            if v > endValue {
                end = k
                endValue = v
            }
        }
        guard end >= 0 else { return nil }
        var assignment = [Int](repeating: 0, count: n)
        var k = end
        var inFirstDay = false
        var i = n - 1
        while i >= 0 {
            assignment[i] = k
            if i == 0 { break }
            if inFirstDay {
                let (first, second) = pass.switchFrom[i]
                k = first != k ? first : second
                inFirstDay = false
            } else {
                inFirstDay = !pass.fromLonger[i][k]
            }
            i -= 1
        }
        return assignment
    }

    /// The runs of one candidate in `assignment`, with the evidence each rests on.
    private func periods(_ assignment: [Int], _ scored: ScoredDays) -> [Period] {
        var periods: [Period] = []
        for (i, c) in assignment.enumerated() {
            let day = scored.days.lowerBound + i
            if periods.last?.candidate != c {
                periods.append(Period(candidate: c, firstDay: day, lastDay: day))
            }
            periods[periods.count - 1].lastDay = day
            if let e = scored.evidence[c][day] {
                if e.compared { periods[periods.count - 1].compared += 1 }
                if e.agrees { periods[periods.count - 1].agreeing += 1 }
                periods[periods.count - 1].hrvMatching += e.hrvMatching
                periods[periods.count - 1].hrvRecords += e.hrvRecords
            }
        }
        return periods
    }
}

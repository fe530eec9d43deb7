/// docs/deduplication.md §4 ("priority coverage with time proration") in its per-sample form, used to
/// derive the truth from the samples the generator wrote.
///
/// The sweep of docs/deduplication.md §4 credits, at each instant, every active sample of the smallest active
/// rank. Equivalently, a sample of rank r contributes exactly on the part of its interval
/// where no sample of a rank < r is active: `value × |uncovered ∩ day| / duration`.
/// Zero-length samples count in full unless a smaller rank covers their instant. This form
/// is what is implemented here: per rank the union of covering intervals, then each sample
/// minus the union of the smaller ranks, split at local midnights.
struct PriorityCoverage {
    struct Piece {
        var start: Int64
        var end: Int64
        var value: Int64
        var rank: UInt8
    }

    /// Sums per day (in value units) of `pieces`, with day `k` = `[bounds[k], bounds[k+1])`.
    /// Parts outside all days are dropped (the generator writes none).
    static func dailySums(_ pieces: [Piece], dayBounds bounds: [Int64]) -> [Double] {
        var sums = Array(repeating: 0.0, count: bounds.count - 1)
        let maxRank = Int(pieces.map(\.rank).max() ?? 0)
        // Union of [start, end) per rank, then cumulative unions of all smaller ranks.
        var perRank = Array(repeating: [(Int64, Int64)](), count: maxRank + 1)
        for p in pieces where p.end > p.start { perRank[Int(p.rank)].append((p.start, p.end)) }
        var below = Array(repeating: [(Int64, Int64)](), count: maxRank + 1)
        var acc: [(Int64, Int64)] = []
        for r in 0...maxRank {
            below[r] = acc
            acc = merged(acc + perRank[r])
        }
        for p in pieces {
            let cover = below[Int(p.rank)]
            if p.end == p.start {
                if !covers(cover, p.start), let k = dayIndex(p.start, bounds) { sums[k] += Double(p.value) }
                continue
            }
            let duration = Double(p.end - p.start)
            // Walk the uncovered parts of [start, end).
            var t = p.start
            var i = firstEndingAfter(cover, t)
            while t < p.end {
                let gapEnd = i < cover.count ? min(max(cover[i].0, t), p.end) : p.end
                if gapEnd > t {
                    addSplit(t, gapEnd, Double(p.value), duration, &sums, bounds)
                }
                if i < cover.count { t = max(t, cover[i].1) } else { t = p.end }
                i += 1
            }
        }
        return sums
    }

    /// Adds `value × seconds / duration` for the part of `[a, b)` in each day it overlaps.
    /// The product is exact in a double and the division is rounded once, so a whole number
    /// of units (all the generator writes) comes out exact.
    private static func addSplit(
        _ a: Int64, _ b: Int64, _ value: Double, _ duration: Double, _ sums: inout [Double], _ bounds: [Int64]
    ) {
        guard var k = dayIndex(max(a, bounds[0]), bounds) else { return }
        var t = max(a, bounds[0])
        let end = min(b, bounds[bounds.count - 1])
        while t < end && k < sums.count {
            let e = min(end, bounds[k + 1])
            sums[k] += value * Double(e - t) / duration
            t = e
            k += 1
        }
    }

    static func merged(_ intervals: [(Int64, Int64)]) -> [(Int64, Int64)] {
        let sorted = intervals.sorted { $0.0 < $1.0 }
        var out: [(Int64, Int64)] = []
        for iv in sorted {
            if let last = out.last, iv.0 <= last.1 {
                out[out.count - 1].1 = max(last.1, iv.1)
            } else {
                out.append(iv)
            }
        }
        return out
    }

    /// Index of the first interval whose end is after `t`.
    private static func firstEndingAfter(_ cover: [(Int64, Int64)], _ t: Int64) -> Int {
        var lo = 0
        var hi = cover.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cover[mid].1 <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private static func covers(_ cover: [(Int64, Int64)], _ t: Int64) -> Bool {
        let i = firstEndingAfter(cover, t)
        return i < cover.count && cover[i].0 <= t
    }

    /// The day `k` with `bounds[k] <= t < bounds[k+1]`.
    static func dayIndex(_ t: Int64, _ bounds: [Int64]) -> Int? {
        guard t >= bounds[0], t < bounds[bounds.count - 1] else { return nil }
        var lo = 0
        var hi = bounds.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if bounds[mid] <= t { lo = mid } else { hi = mid }
        }
        return lo
    }
}

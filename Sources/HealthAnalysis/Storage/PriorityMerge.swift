import HealthExport

/// Collects what a merge (or a plain proration) counts: per local day, and per source for the
/// days of the reported range; optionally the days on which a low-priority source filled a large
/// share (docs/deduplication.md §7, case F).
struct MergeAccumulator {
    /// Per local day to which any sample contributed, its total (a zero is data, no entry is
    /// not): as many entries as days with data, whatever the span of their dates.
    private(set) var totals = SparseSums()
    /// Days whose amounts are attributed to sources.
    let window: ClosedRange<Int>
    /// Counted amount per source position, over `window`.
    private(set) var counted: [Double]
    /// Samples per source position that touch `window` (filled by `prorate`).
    var samples: [Int]

    /// Per position: may this source be reported as a filler (class `other`)? Nil: no tracking.
    private let fillerEligible: [Bool]?
    private var dayAmounts: [Double] = []
    private var dayTouched: [Int] = []
    private var currentDay = Int.min
    private var dayBestRank = Int.max
    private var dayBestPosition = -1
    /// (day, position, share of the day's total) for filler days inside `window`.
    private(set) var fillers: [(day: Int, position: Int, share: Double)] = []
    static let fillerShare = 0.25

    init(window: ClosedRange<Int>, positions: Int, fillerEligible: [Bool]? = nil) {
        self.window = window
        self.counted = [Double](repeating: 0, count: positions)
        self.samples = [Int](repeating: 0, count: positions)
        self.fillerEligible = fillerEligible
        if fillerEligible != nil { dayAmounts = [Double](repeating: 0, count: positions) }
    }

    @inline(__always)
    mutating func add(day: Int, position: Int, rank: Int, amount: Double) {
        totals.add(day, amount)
        guard window.contains(day) else { return }
        counted[position] += amount
        if fillerEligible != nil {
            if day != currentDay { flushDay() }
            currentDay = day
            if dayAmounts[position] == 0 { dayTouched.append(position) }
            dayAmounts[position] += amount
            if rank < dayBestRank {
                dayBestRank = rank
                dayBestPosition = position
            }
        }
    }

    /// Ends the current filler-tracking day (call once after the last `add`).
    mutating func flushDay() {
        guard let eligible = fillerEligible, currentDay != .min else { return }
        var total = 0.0
        for p in dayTouched { total += dayAmounts[p] }
        if total > 0 {
            for p in dayTouched.sorted() where eligible[p] && p != dayBestPosition {
                let share = dayAmounts[p] / total
                if share >= Self.fillerShare { fillers.append((currentDay, p, share)) }
            }
        }
        for p in dayTouched { dayAmounts[p] = 0 }
        dayTouched.removeAll(keepingCapacity: true)
        currentDay = .min
        dayBestRank = .max
        dayBestPosition = -1
    }
}

/// An active sample of the sweep, in a `MinHeap` by end instant.
private struct ActiveSample: MinHeapElement {
    var end: Int64
    var rank: Int32
    var rate: Double
    var heapKey: Int64 { end }
}

/// Priority coverage with time proration (docs/deduplication.md §4), exact: an event sweep over the
/// samples' starts and ends and the bucket (local-day) boundaries. In each elementary interval
/// the highest-priority rank with an active sample counts, at the summed rate of its active
/// samples (a source overlapping itself is summed); lower ranks are hidden. A zero-length
/// sample counts in full unless a sample of strictly higher priority covers its instant.
///
/// Incremental: feed the samples with `add` in `CumulativeSample.order` order (sources
/// remapped to priority positions), then call `finish` once. Only the samples active at the
/// current instant are kept (a heap by end), so memory does not grow with the number of samples.
///
/// - Complexity: O(n log a) for n samples with at most a active at once, plus the buckets crossed.
struct PriorityMergeSweep<Cursor: BucketCursor> {
    private let priority: SourcePriority
    /// Per source position, whether the source takes part (nil: all).
    private let include: [Bool]?
    private var cursor: Cursor
    private(set) var acc: MergeAccumulator

    private var count: [Int32]
    private var rate: [Double]
    private var bits: [UInt64]
    private var heap = MinHeap<ActiveSample>()
    private var t = Int64.min
    private var started = false
    /// The zero-length samples starting at `t`, handled once every sample starting at `t` is in.
    private var zeroLength: [CumulativeSample] = []

    init(priority: SourcePriority, include: [Bool]?, buckets cursor: Cursor, into acc: MergeAccumulator) {
        self.priority = priority
        self.include = include
        self.cursor = cursor
        self.acc = acc
        let ranks = priority.rankCount
        count = [Int32](repeating: 0, count: ranks)
        rate = [Double](repeating: 0, count: ranks)
        bits = [UInt64](repeating: 0, count: (ranks + 63) / 64)
    }

    @inline(__always) private func bestRank() -> Int? {
        for w in bits.indices where bits[w] != 0 { return w << 6 | bits[w].trailingZeroBitCount }
        return nil
    }

    /// Takes the next sample (not before the previous one's start).
    @inline(__always)
    mutating func add(_ s: CumulativeSample) {
        if let include, !include[Int(s.source)] { return }
        let start = Int64(s.start)
        if !started {
            started = true
            t = start
        } else if start != t {
            advance(to: start)
        }
        if s.duration == 0 {
            zeroLength.append(s)
            return
        }
        let r = priority.rank(position: Int(s.source), manual: s.isManual)
        let rt = Double(s.value) / Double(s.duration)
        heap.insert(ActiveSample(end: s.end, rank: Int32(r), rate: rt))
        count[r] += 1
        rate[r] += rt
        bits[r >> 6] |= 1 << UInt64(r & 63)
    }

    /// Ends the sweep: counts what is still active, then ends the accumulator's current day.
    mutating func finish() {
        if started {
            countZeroLength()
            while let end = heap.first?.end {
                countInterval(to: end)
                removeEnded()
            }
        }
        acc.flushDay()
    }

    /// Zero-length samples at `t` count unless a strictly higher rank is active.
    private mutating func countZeroLength() {
        guard !zeroLength.isEmpty else { return }
        let best = bestRank() ?? Int.max
        let day = cursor.position(at: t)
        for s in zeroLength {
            let r = priority.rank(position: Int(s.source), manual: s.isManual)
            if best >= r {  // not covered by a strictly higher priority
                acc.add(day: day, position: Int(s.source), rank: r, amount: Double(s.value))
            }
        }
        zeroLength.removeAll(keepingCapacity: true)
    }

    /// Moves from `t` to the next sample's start, through the ends in between.
    private mutating func advance(to target: Int64) {
        countZeroLength()
        while true {
            let next = min(target, heap.first?.end ?? .max)
            countInterval(to: next)
            removeEnded()
            if t == target { return }
        }
    }

    /// Counts [t, next) at the best active rank and moves `t` to `next`.
    @inline(__always)
    private mutating func countInterval(to next: Int64) {
        if let r = bestRank() {
            let rt = rate[r]
            let position = Int(priority.positionOfRank[r])
            var a = t
            while a < next {  // split at local midnights
                let day = cursor.position(at: a)
                let b = min(next, cursor.end)
                acc.add(day: day, position: position, rank: r, amount: rt * Double(b - a))
                a = b
            }
        }
        t = next
    }

    /// Samples ending at `t` stop covering ([start, end) intervals).
    @inline(__always)
    private mutating func removeEnded() {
        while let top = heap.first, top.end <= t {
            heap.removeFirst()
            let r = Int(top.rank)
            count[r] -= 1
            if count[r] == 0 {
                rate[r] = 0  // no drift left behind
                bits[r >> 6] &= ~(1 << UInt64(r & 63))
            } else {
                rate[r] -= top.rate
            }
        }
    }
}

/// Plain sums prorated by time into buckets (local days): `--no-dedup`, and the raw per-source
/// totals. Also counts, per source, the samples that touch `acc.window`.
///
/// Incremental like `PriorityMergeSweep`: `add` each sample in order, then `finish` once.
struct ProrationSweep<Cursor: BucketCursor> {
    private let priority: SourcePriority
    private let include: [Bool]?
    private var cursor: Cursor
    private(set) var acc: MergeAccumulator

    init(priority: SourcePriority, include: [Bool]?, buckets cursor: Cursor, into acc: MergeAccumulator) {
        self.priority = priority
        self.include = include
        self.cursor = cursor
        self.acc = acc
    }

    @inline(__always)
    mutating func add(_ s: CumulativeSample) {
        let p = Int(s.source)
        if let include, !include[p] { return }
        let r = priority.rank(position: p, manual: s.isManual)
        let start = Int64(s.start)
        let end = s.end
        let value = Double(s.value)
        let firstDay = cursor.position(at: start)
        if end <= cursor.end {  // within one day (or zero-length): no rounding at all
            acc.add(day: firstDay, position: p, rank: r, amount: value)
            if acc.window.contains(firstDay) { acc.samples[p] += 1 }
            return
        }
        let rt = value / Double(s.duration)
        var a = start
        var touched = false
        while a < end {
            let day = cursor.position(at: a)
            let b = min(end, cursor.end)
            acc.add(day: day, position: p, rank: r, amount: rt * Double(b - a))
            if acc.window.contains(day) { touched = true }
            a = b
        }
        if touched { acc.samples[p] += 1 }
    }

    mutating func finish() { acc.flushDay() }
}

/// `PriorityMergeSweep` over sorted samples held in memory, into any buckets (local days in
/// reports; local hours in tests of docs/deduplication.md §7, case C).
/// - Parameters:
///   - samples: one type's samples in `CumulativeSample.order` order, sources remapped to
///     priority positions.
///   - include: per source position, whether the source takes part (nil: all).
func mergeByPriority<Cursor: BucketCursor>(
    _ samples: UnsafeBufferPointer<CumulativeSample>, priority: SourcePriority, include: [Bool]?,
    buckets cursor: inout Cursor, into acc: inout MergeAccumulator
) {
    var sweep = PriorityMergeSweep(priority: priority, include: include, buckets: cursor, into: acc)
    for s in samples { sweep.add(s) }
    sweep.finish()
    acc = sweep.acc
}

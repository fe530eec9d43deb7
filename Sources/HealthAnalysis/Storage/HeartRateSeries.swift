/// One heart-rate sample for the time-weighted mean: 16 bytes.
struct HeartRatePoint: Sendable {
    var instant: Int64
    var bpm: Double

    /// By instant, then by value: the order the time-weighted mean reads samples in.
    @inline(__always)
    static func precedes(_ a: HeartRatePoint, _ b: HeartRatePoint) -> Bool {
        a.instant != b.instant ? a.instant < b.instant : a.bpm < b.bpm
    }
}

/// Every heart-rate sample, in bounded memory: the external sort of `CumulativeStore`, for
/// `HeartRatePoint`s. At most `bufferLimit` points are buffered; a full buffer is sorted and
/// written to the scratch space as one run; `forEachSorted` streams all points in
/// `HeartRatePoint.precedes` order by a k-way merge of the runs and the buffer, reading each run
/// in blocks. Equal points are identical, so the sequence does not depend on the input order.
///
/// A failed spill is remembered and thrown by `forEachSorted`; later points are dropped.
struct HeartRateSeries {
    struct Run {
        let scratch: any ScratchSpace
        let offset: Int64
        let count: Int
    }

    let scratch: any ScratchSpace
    let bufferLimit: Int
    private var buffer: ContiguousArray<HeartRatePoint> = []
    private var runs: [Run] = []
    private(set) var failure: (any Error)?

    /// The points stored (buffered and spilled).
    var count: Int { buffer.count + runs.reduce(0) { $0 + $1.count } }

    init(scratch: any ScratchSpace, bufferLimit: Int) {
        self.scratch = scratch
        self.bufferLimit = max(1, bufferLimit)
    }

    @inline(__always)
    mutating func append(_ point: HeartRatePoint) {
        guard failure == nil else { return }
        if buffer.capacity == 0 { buffer.reserveCapacity(min(bufferLimit, 1 << 16)) }
        buffer.append(point)
        if buffer.count >= bufferLimit { spill() }
    }

    mutating func spill() {
        guard failure == nil, !buffer.isEmpty else { return }
        buffer.sort(by: HeartRatePoint.precedes)
        do {
            let offset = try buffer.withUnsafeBytes { try scratch.write($0) }
            runs.append(Run(scratch: scratch, offset: offset, count: buffer.count))
            buffer.removeAll(keepingCapacity: true)
        } catch {
            failure = error
            buffer = []
        }
    }

    /// Takes over `other`'s points: its runs are referenced, its buffered points appended.
    mutating func merge(_ other: HeartRateSeries) {
        if failure == nil, let f = other.failure { failure = f }
        guard failure == nil else { return }
        runs.append(contentsOf: other.runs)
        for p in other.buffer { append(p) }
    }

    /// Calls `body` with every point in `HeartRatePoint.precedes` order. Empties the series.
    /// - Throws: the error of a failed spill or of reading a run back.
    mutating func forEachSorted(_ body: (HeartRatePoint) -> Void) throws {
        if let failure { throw failure }
        buffer.sort(by: HeartRatePoint.precedes)
        let block = max(1, min(4096, bufferLimit / max(1, runs.count + 1)))
        var readers: [PointReader] = []
        if !buffer.isEmpty { readers.append(PointReader(points: buffer)) }
        buffer = []
        for run in runs {
            var reader = PointReader(run: run, block: block)
            try reader.refill()
            readers.append(reader)
        }
        runs = []
        // A k-way merge; the reader count is small, so the smallest head is found by a scan.
        var live = Array(readers.indices)
        while !live.isEmpty {
            var best = 0
            for k in 1..<live.count
            where HeartRatePoint.precedes(readers[live[k]].current, readers[live[best]].current) {
                best = k
            }
            let r = live[best]
            body(readers[r].take())
            if readers[r].isBlockEmpty { try readers[r].refill() }
            if readers[r].isEmpty { live.remove(at: best) }
        }
    }
}

/// Reads one run (or the sorted buffer) in blocks.
private struct PointReader {
    private let run: HeartRateSeries.Run?
    private var blockCapacity: Int
    private var points: ContiguousArray<HeartRatePoint>
    private var index = 0
    private var read = 0

    init(points: ContiguousArray<HeartRatePoint>) {
        run = nil
        self.points = points
        blockCapacity = points.count
        read = points.count
    }

    init(run: HeartRateSeries.Run, block: Int) {
        self.run = run
        blockCapacity = block
        points = []
    }

    var isBlockEmpty: Bool { index == points.count }
    var isEmpty: Bool { index == points.count && read == (run?.count ?? read) }
    var current: HeartRatePoint { points[index] }

    @inline(__always)
    mutating func take() -> HeartRatePoint {
        index += 1
        return points[index - 1]
    }

    mutating func refill() throws {
        guard let run, read < run.count else { return }
        let n = min(blockCapacity, run.count - read)
        if points.count != n { points = ContiguousArray(repeating: HeartRatePoint(instant: 0, bpm: 0), count: n) }
        try points.withUnsafeMutableBytes { bytes in
            try run.scratch.read(into: bytes, at: run.offset + Int64(read * MemoryLayout<HeartRatePoint>.stride))
        }
        read += n
        index = 0
    }
}

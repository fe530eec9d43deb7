/// The cumulative samples of every type, in bounded memory: an external sort.
///
/// Samples of all types go into one buffer of at most `bufferLimit` samples (the type's slot
/// kept in the spare high bits of `flags`). When it is full, it is sorted by (slot, start,
/// duration), each slot's part is written to the scratch space as one run, and the buffer is
/// reused. `forEachSorted(slot:…)` then streams one type's samples in the exact
/// `CumulativeSample.order` order by a k-way merge of its runs (and of what is still buffered),
/// reading each run in blocks: memory is the buffer, at most `bufferLimit` samples of blocks
/// and the samples of one (start, duration) group, whatever the export's size.
///
/// Runs are ordered by (start, duration) only; the rest of the order (source position, value,
/// flags) is established per group of equal (start, duration) after the sources are remapped
/// to priority positions, which are only known in `finish`. So a run written with other source
/// indices (another analyzer's, see `merge`) needs no re-sorting: it is read through a map.
///
/// A failed spill (a full disk) is remembered and thrown by `forEachSorted`; samples appended
/// after it are dropped.
struct CumulativeStore {
    /// 262 144 samples (4 MiB) buffered in all before a spill.
    static let defaultBufferLimit = 1 << 18
    /// Samples read from a run at once, at most (64 KiB).
    static let maximumBlock = 4096
    /// `flags` bits below this are the sample's own (`CumulativeSample.manual`); the buffer keeps
    /// the slot above them.
    static let slotShift: UInt16 = 1
    static let ownFlags: UInt16 = (1 << slotShift) - 1
    static let maximumSlots = 1 << (16 - Int(slotShift))

    /// A sorted run in a scratch space.
    struct Run {
        let scratch: any ScratchSpace
        let offset: Int64
        let count: Int
        /// Writer's source index → this store's source index (nil: the same).
        let sourceMap: [UInt16]?
    }

    let scratch: any ScratchSpace
    let bufferLimit: Int
    private var buffer: ContiguousArray<CumulativeSample> = []
    /// Set by the first `forEachSorted`: the buffer sorted by slot, each slot's range in it.
    private var bufferRanges: [Range<Int>]?
    private var runs: [[Run]]
    /// Samples stored per slot (buffered and spilled).
    private(set) var counts: [Int]
    private(set) var failure: (any Error)?
    /// How many spills happened and how many bytes they wrote (for tests and benchmarks).
    private(set) var spills = 0
    private(set) var spilledBytes: Int64 = 0

    init(slots: Int, scratch: any ScratchSpace, bufferLimit: Int = Self.defaultBufferLimit) {
        precondition(bufferLimit >= 1, "CumulativeStore needs room for at least one sample")
        precondition(slots <= Self.maximumSlots, "CumulativeStore: too many slots")
        self.scratch = scratch
        self.bufferLimit = bufferLimit
        runs = Array(repeating: [], count: slots)
        counts = Array(repeating: 0, count: slots)
    }

    var slotCount: Int { runs.count }

    /// Adds an empty slot (a cumulative type seen for the first time) and returns its number.
    mutating func addSlot() -> Int {
        precondition(runs.count < Self.maximumSlots, "CumulativeStore: too many slots")
        runs.append([])
        counts.append(0)
        return runs.count - 1
    }

    @inline(__always)
    mutating func append(_ sample: CumulativeSample, slot: Int) {
        guard failure == nil else { return }
        if buffer.isEmpty && buffer.capacity == 0 {
            // Once, at its full size: growing by doubling would briefly need 1.5 times as much.
            // Pages are only touched as samples arrive, so a small export costs what it uses.
            buffer.reserveCapacity(min(bufferLimit, Self.defaultBufferLimit))
        }
        var s = sample
        s.flags = s.flags & Self.ownFlags | UInt16(slot) << Self.slotShift
        buffer.append(s)
        counts[slot] += 1
        if buffer.count >= bufferLimit { spill() }
    }

    @inline(__always)
    static func key(_ s: CumulativeSample) -> UInt64 { UInt64(s.start) << 32 | UInt64(s.duration) }

    @inline(__always)
    static func slot(_ s: CumulativeSample) -> Int { Int(s.flags >> slotShift) }

    /// Sorts the buffer by (slot, start, duration) and returns each slot's range in it.
    private mutating func sortBuffer() -> [Range<Int>] {
        buffer.sort { a, b in
            let sa = a.flags >> Self.slotShift
            let sb = b.flags >> Self.slotShift
            return sa != sb ? sa < sb : Self.key(a) < Self.key(b)
        }
        var ranges = Array(repeating: 0..<0, count: runs.count)
        var i = 0
        while i < buffer.count {
            let slot = Self.slot(buffer[i])
            var j = i + 1
            while j < buffer.count && Self.slot(buffer[j]) == slot { j += 1 }
            ranges[slot] = i..<j
            i = j
        }
        return ranges
    }

    /// Sorts the buffer, writes each slot's part as a run, and empties the buffer.
    mutating func spill() {
        guard failure == nil, !buffer.isEmpty else { return }
        let ranges = sortBuffer()
        for k in buffer.indices { buffer[k].flags &= Self.ownFlags }
        for slot in ranges.indices where !ranges[slot].isEmpty {
            let range = ranges[slot]
            do {
                let offset = try buffer.withUnsafeBytes { all in
                    let stride = MemoryLayout<CumulativeSample>.stride
                    return try scratch.write(
                        UnsafeRawBufferPointer(rebasing: all[range.lowerBound * stride..<range.upperBound * stride]))
                }
                runs[slot].append(Run(scratch: scratch, offset: offset, count: range.count, sourceMap: nil))
                spilledBytes += Int64(range.count * MemoryLayout<CumulativeSample>.stride)
            } catch {
                failure = error
                buffer = []
                return
            }
        }
        spills += 1
        buffer.removeAll(keepingCapacity: true)
    }

    /// Takes over `other`'s samples (for parallel parsing): its runs are referenced (read
    /// through a source map, never copied), its buffered samples are appended here.
    /// - Parameters:
    ///   - slotMap: `other`'s slot → this store's slot (every slot of `other` must be mapped).
    ///   - sourceMap: `other`'s source index → this store's source index.
    /// - Returns: how many samples were dropped because their source's index in this store
    ///   does not fit 16 bits (the merged source table can pass what each part stayed under).
    ///   Then, and only then, `other`'s runs are read back and copied sample by sample.
    mutating func merge(_ other: CumulativeStore, slotMap: [Int], sourceMap: [Int]) -> Int {
        if failure == nil, let f = other.failure { failure = f }
        guard failure == nil else { return 0 }
        precondition(other.bufferRanges == nil, "CumulativeStore.merge of a store being finished")
        guard sourceMap.allSatisfy({ $0 >= 0 && $0 <= Int(UInt16.max) }) else {
            return copy(other, slotMap: slotMap, sourceMap: sourceMap)
        }
        let map16 = sourceMap.map { UInt16($0) }
        for otherSlot in other.runs.indices {
            let slot = slotMap[otherSlot]
            for run in other.runs[otherSlot] {
                let composed = run.sourceMap.map { $0.map { map16[Int($0)] } } ?? map16
                runs[slot].append(Run(scratch: run.scratch, offset: run.offset, count: run.count, sourceMap: composed))
                counts[slot] += run.count
            }
        }
        for var s in other.buffer {
            let slot = slotMap[Self.slot(s)]
            s.source = map16[Int(s.source)]
            append(s, slot: slot)
        }
        return 0
    }

    /// `merge` sample by sample, dropping samples whose new source index passes 16 bits.
    private mutating func copy(_ other: CumulativeStore, slotMap: [Int], sourceMap: [Int]) -> Int {
        var dropped = 0
        func add(_ sample: CumulativeSample, slot: Int) {
            let index = sourceMap[Int(sample.source)]
            guard index >= 0 && index <= Int(UInt16.max) else {
                dropped += 1
                return
            }
            var s = sample
            s.source = UInt16(index)
            append(s, slot: slot)
        }
        let identity = (0..<sourceMap.count).map { UInt16(truncatingIfNeeded: $0) }
        for otherSlot in other.runs.indices {
            for run in other.runs[otherSlot] {
                var reader = RunReader(run: run, map: run.sourceMap ?? identity, block: Self.maximumBlock)
                do {
                    try reader.refill()
                    while !reader.isEmpty {
                        let s = reader.take()
                        if reader.isBlockEmpty { try reader.refill() }
                        add(s, slot: slotMap[otherSlot])
                    }
                } catch {
                    failure = error
                    return dropped
                }
            }
        }
        for s in other.buffer { add(s, slot: slotMap[Self.slot(s)]) }
        return dropped
    }

    /// Calls `body` with each sample of `slot`, its source remapped to `positions[source]`, in
    /// `CumulativeSample.order` order; with `removingDuplicates`, a sample equal to the one
    /// before in start, duration, source and value is left out (a manual flag on either copy
    /// survives). No sample can be appended or merged afterwards.
    /// - Returns: how many duplicates were left out.
    /// - Throws: the error of a failed spill or of reading a run back.
    mutating func forEachSorted(
        slot: Int, positions: [Int], removingDuplicates: Bool, _ body: (CumulativeSample) -> Void
    ) throws -> Int {
        prepareForStreaming()
        return try streamSorted(slot: slot, positions: positions, removingDuplicates: removingDuplicates, body)
    }

    /// Sorts what is still buffered (once): after it, `streamSorted` may stream several slots at
    /// once from several threads, and no sample can be appended or merged.
    mutating func prepareForStreaming() {
        if bufferRanges == nil { bufferRanges = sortBuffer() }
    }

    /// `forEachSorted` without changing the store, after `prepareForStreaming()`: safe to call
    /// for different slots from different threads at once (the scratch space is thread-safe,
    /// the buffer is only read). `concurrentStreams`: how many slots stream at once; their run
    /// blocks share the memory of `bufferLimit` samples.
    func streamSorted(
        slot: Int, positions: [Int], removingDuplicates: Bool, concurrentStreams: Int = 1,
        _ body: (CumulativeSample) -> Void
    ) throws -> Int {
        if let failure { throw failure }
        guard let bufferRanges else { preconditionFailure("CumulativeStore.streamSorted before prepareForStreaming") }
        let inMemory = bufferRanges[slot]
        let slotRuns = runs[slot]

        let map16 = positions.map { UInt16($0) }
        let readerCount = slotRuns.count + (inMemory.isEmpty ? 0 : 1)
        let block = max(1, min(Self.maximumBlock, bufferLimit / max(1, readerCount * max(1, concurrentStreams))))
        var readers: [RunReader] = []
        readers.reserveCapacity(readerCount)
        if !inMemory.isEmpty { readers.append(RunReader(samples: buffer, range: inMemory, map: map16)) }
        for run in slotRuns {
            let map = run.sourceMap.map { $0.map { map16[Int($0)] } } ?? map16
            var reader = RunReader(run: run, map: map, block: block)
            try reader.refill()
            readers.append(reader)
        }

        var grouper = GroupEmitter(removingDuplicates: removingDuplicates)
        if readers.count == 1 {
            while !readers[0].isEmpty {
                grouper.add(readers[0].take(), body)
                if readers[0].isBlockEmpty { try readers[0].refill() }
            }
        } else {
            var heap = MinHeap(readers.indices.map { ReaderHead(reader: $0, heapKey: Self.key(readers[$0].current)) })
            while let top = heap.first?.reader {
                grouper.add(readers[top].take(), body)
                if readers[top].isBlockEmpty { try readers[top].refill() }
                if readers[top].isEmpty {
                    heap.removeFirst()
                } else {
                    heap.replaceFirst(ReaderHead(reader: top, heapKey: Self.key(readers[top].current)))
                }
            }
        }
        grouper.flush(body)
        return grouper.duplicates
    }
}

/// Reads one run (or a slot's part of the buffer) in blocks, remapping sources and clearing
/// the slot bits of `flags`.
private struct RunReader {
    private let run: CumulativeStore.Run?
    private let map: [UInt16]
    private var blockCapacity: Int
    private var samples: ContiguousArray<CumulativeSample>
    private var index: Int
    private var limit: Int
    private var read = 0  // samples of the run read so far

    /// Reads `samples[range]` (shared, not copied).
    init(samples: ContiguousArray<CumulativeSample>, range: Range<Int>, map: [UInt16]) {
        run = nil
        self.map = map
        self.samples = samples
        index = range.lowerBound
        limit = range.upperBound
        blockCapacity = range.count
    }

    init(run: CumulativeStore.Run, map: [UInt16], block: Int) {
        self.run = run
        self.map = map
        blockCapacity = block
        samples = []
        index = 0
        limit = 0
    }

    var isBlockEmpty: Bool { index == limit }
    var isEmpty: Bool { index == limit && read == (run?.count ?? read) }
    var current: CumulativeSample { samples[index] }

    @inline(__always)
    mutating func take() -> CumulativeSample {
        var s = samples[index]
        index += 1
        s.source = map[Int(s.source)]
        s.flags &= CumulativeStore.ownFlags
        return s
    }

    /// Reads the next block, if any is left.
    mutating func refill() throws {
        guard let run, read < run.count else { return }
        let n = min(blockCapacity, run.count - read)
        let stride = MemoryLayout<CumulativeSample>.stride
        if samples.count != n {
            samples = ContiguousArray(
                repeating: CumulativeSample(start: 0, duration: 0, value: 0, source: 0, flags: 0), count: n)
        }
        try samples.withUnsafeMutableBytes { bytes in
            try run.scratch.read(into: bytes, at: run.offset + Int64(read * stride))
        }
        read += n
        index = 0
        limit = n
    }
}

/// A run reader's index with the key of its current sample, in a `MinHeap`.
private struct ReaderHead: MinHeapElement {
    var reader: Int
    var heapKey: UInt64
}

/// Collects the samples of one (start, duration) group, puts them in the full order, removes
/// exact duplicates and hands them on.
private struct GroupEmitter {
    let removingDuplicates: Bool
    /// The group's first sample (most groups have only one: it is emitted without the array).
    private var first: CumulativeSample?
    /// The group's other samples.
    private var more: [CumulativeSample] = []
    private var groupKey = UInt64.max
    private(set) var duplicates = 0

    init(removingDuplicates: Bool) { self.removingDuplicates = removingDuplicates }

    @inline(__always)
    mutating func add(_ s: CumulativeSample, _ body: (CumulativeSample) -> Void) {
        let key = CumulativeStore.key(s)
        if key == groupKey && first != nil {
            more.append(s)
            return
        }
        flush(body)
        groupKey = key
        first = s
    }

    mutating func flush(_ body: (CumulativeSample) -> Void) {
        guard let head = first else { return }
        first = nil
        if more.isEmpty {
            body(head)
            return
        }
        var group = [head] + more
        more.removeAll(keepingCapacity: more.count <= 1024)
        group.sort(by: CumulativeSample.order)
        guard removingDuplicates else {
            for s in group { body(s) }
            return
        }
        var kept = group[0]
        for s in group.dropFirst() {
            if s.source == kept.source && s.value == kept.value {  // start and duration are the group's
                kept.flags |= s.flags
                duplicates += 1
            } else {
                body(kept)
                kept = s
            }
        }
        body(kept)
    }
}

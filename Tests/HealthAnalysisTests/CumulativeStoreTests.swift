import Foundation
import HealthExport
import SyntheticExport
import TestSupport
import Testing

@testable import HealthAnalysis

/// The external sort of cumulative samples (`CumulativeStore`): whatever the buffer size, the
/// number of runs, the input order or the split into merged parts, `finish` sees the samples in
/// exactly the order (and with exactly the duplicates removed) of one in-memory sort.
@Suite("Cumulative store (external sort)")
struct CumulativeStoreTests {
    /// Random samples over a few hours with many ties: 40 distinct starts, 3 durations, 4
    /// sources, 3 values, manual flags, so that equal (start, duration) groups, exact duplicates
    /// and duplicates differing only in the manual flag are frequent.
    static func randomSamples(_ n: Int, seed: UInt64) -> [CumulativeSample] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in
            CumulativeSample(
                start: 1_700_000_000 + UInt32(rng.next() % 40) * 60, duration: [0, 60, 300][Int(rng.next() % 3)],
                value: [1, 2.5, 7][Int(rng.next() % 3)], source: UInt16(rng.next() % 4),
                flags: rng.next() % 5 == 0 ? CumulativeSample.manual : 0)
        }
    }

    /// The reference: remap, sort in memory, drop exact duplicates (keeping a manual flag).
    static func sortedInMemory(_ samples: [CumulativeSample], positions: [Int], dedup: Bool) -> (
        [CumulativeSample], Int
    ) {
        var all = samples.map { s -> CumulativeSample in
            var s = s
            s.source = UInt16(positions[Int(s.source)])
            return s
        }
        all.sort(by: CumulativeSample.order)
        guard dedup else { return (all, 0) }
        var kept: [CumulativeSample] = []
        for s in all {
            if let last = kept.last, last.start == s.start, last.duration == s.duration, last.source == s.source,
                last.value == s.value
            {
                kept[kept.count - 1].flags |= s.flags
            } else {
                kept.append(s)
            }
        }
        return (kept, all.count - kept.count)
    }

    static func streamed(_ store: inout CumulativeStore, slot: Int, positions: [Int], dedup: Bool) throws -> (
        [CumulativeSample], Int
    ) {
        var out: [CumulativeSample] = []
        let removed = try store.forEachSorted(slot: slot, positions: positions, removingDuplicates: dedup) {
            out.append($0)
        }
        return (out, removed)
    }

    static func same(_ a: [CumulativeSample], _ b: [CumulativeSample]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.start == $1.start && $0.duration == $1.duration && $0.source == $1.source
                    && $0.value == $1.value && $0.flags == $1.flags
            }
    }

    @Test(arguments: [1, 2, 7, 64, 5000])
    func streamsInTheInMemoryOrderForAnyBufferSize(bufferLimit: Int) throws {
        let samples = Self.randomSamples(1500, seed: UInt64(bufferLimit))
        let positions = [2, 0, 3, 1]
        for dedup in [true, false] {
            var store = CumulativeStore(slots: 2, scratch: InMemoryScratchSpace(), bufferLimit: bufferLimit)
            // Slot 1 gets every third sample: runs hold segments of both slots.
            for (k, s) in samples.enumerated() { store.append(s, slot: k % 3 == 0 ? 1 : 0) }
            // 1500 samples in buffers of `bufferLimit`: 1500 / bufferLimit spills (none for 5000).
            #expect(store.spills == 1500 / bufferLimit)
            #expect(store.counts == [1000, 500])
            for slot in 0..<2 {
                let mine = samples.enumerated().filter { ($0.offset % 3 == 0 ? 1 : 0) == slot }.map(\.element)
                let expected = Self.sortedInMemory(mine, positions: positions, dedup: dedup)
                let got = try Self.streamed(&store, slot: slot, positions: positions, dedup: dedup)
                #expect(Self.same(got.0, expected.0))
                #expect(got.1 == expected.1)
                if dedup { #expect(expected.1 > 50) }  // the ties are really there (~80 in 500)
            }
        }
    }

    /// `finish` streams the types at once on several threads (`ParallelWork`): each stream must
    /// be the in-memory order of its slot, with its blocks sized for the shared budget.
    @Test(arguments: [1, 3, 8])
    func slotsStreamedAtOnceFromSeveralThreadsAreEachInOrder(threads: Int) throws {
        let samples = Self.randomSamples(3000, seed: 7)
        let positions = [3, 1, 0, 2]
        var store = CumulativeStore(slots: 5, scratch: InMemoryScratchSpace(), bufferLimit: 97)
        for (k, s) in samples.enumerated() { store.append(s, slot: k % 5) }
        store.prepareForStreaming()
        let shared = store
        let streams = try ParallelWork.map(count: 5, order: [4, 2, 0, 1, 3], threads: threads) { slot in
            var out: [CumulativeSample] = []
            let removed = try shared.streamSorted(
                slot: slot, positions: positions, removingDuplicates: true, concurrentStreams: threads
            ) { out.append($0) }
            return (out, removed)
        }
        for slot in 0..<5 {
            let mine = samples.enumerated().filter { $0.offset % 5 == slot }.map(\.element)
            let expected = Self.sortedInMemory(mine, positions: positions, dedup: true)
            #expect(Self.same(streams[slot].0, expected.0), "slot \(slot)")
            #expect(streams[slot].1 == expected.1)
            #expect(streams[slot].0.count == 600 - expected.1)  // 3000 samples, every fifth in each slot
        }
    }

    /// The work of several threads comes back in index order, and the error thrown is the one of
    /// the lowest index that failed, whatever ran first.
    @Test(arguments: [1, 2, 4])
    func parallelWorkKeepsTheIndexOrderAndTheFirstError(threads: Int) throws {
        struct Failed: Error, Equatable { let index: Int }
        let squares = try ParallelWork.map(count: 6, order: [5, 4, 3, 2, 1, 0], threads: threads) { $0 * $0 }
        #expect(squares == [0, 1, 4, 9, 16, 25])
        #expect(throws: Failed(index: 2)) {
            _ = try ParallelWork.map(count: 6, order: [5, 4, 3, 2, 1, 0], threads: threads) { i -> Int in
                if i == 2 || i == 4 { throw Failed(index: i) }
                return i
            }
        }
    }

    @Test func mergedStoresWithOtherSourceAndSlotNumbersStreamLikeOneStore() throws {
        let samples = Self.randomSamples(900, seed: 42)
        let positions = [1, 3, 0, 2]
        var whole = CumulativeStore(slots: 1, scratch: InMemoryScratchSpace(), bufferLimit: 10)
        for s in samples { whole.append(s, slot: 0) }
        let expected = try Self.streamed(&whole, slot: 0, positions: positions, dedup: true)

        // Part A numbers sources as the whole does; part B has them reversed (its source k is
        // the whole's 3 - k) and keeps the type in its slot 1. B is merged into A.
        var a = CumulativeStore(slots: 1, scratch: InMemoryScratchSpace(), bufferLimit: 10)
        var b = CumulativeStore(slots: 2, scratch: InMemoryScratchSpace(), bufferLimit: 13)
        for (k, s) in samples.enumerated() {
            if k % 2 == 0 {
                a.append(s, slot: 0)
            } else {
                var r = s
                r.source = 3 - s.source
                b.append(r, slot: 1)
            }
        }
        let dropped = a.merge(b, slotMap: [0, 0], sourceMap: [3, 2, 1, 0])
        #expect(dropped == 0)
        #expect(a.counts == [900])
        let got = try Self.streamed(&a, slot: 0, positions: positions, dedup: true)
        #expect(Self.same(got.0, expected.0))
        #expect(got.1 == expected.1)
    }

    @Test func mergeDropsSamplesWhoseSourceIndexPassesSixteenBits() throws {
        var a = CumulativeStore(slots: 1, scratch: InMemoryScratchSpace(), bufferLimit: 2)
        var b = CumulativeStore(slots: 1, scratch: InMemoryScratchSpace(), bufferLimit: 2)
        // b: 5 samples of source 0 (2 runs of 2 and 1 buffered) and 2 of source 1.
        for k in 0..<7 {
            b.append(
                CumulativeSample(start: UInt32(k), duration: 1, value: 1, source: k < 5 ? 0 : 1, flags: 0), slot: 0)
        }
        // Source 1 of b becomes index 70 000 here: its 2 samples are dropped, the 5 others kept.
        #expect(a.merge(b, slotMap: [0], sourceMap: [0, 70_000]) == 2)
        let got = try Self.streamed(&a, slot: 0, positions: [0], dedup: true)
        #expect(got.0.map(\.start) == [0, 1, 2, 3, 4])
    }

    /// A scratch space whose writes fail, like a full disk.
    final class FullDisk: ScratchSpace {
        struct Full: Error, Equatable {}
        func write(_ bytes: UnsafeRawBufferPointer) throws -> Int64 { throw Full() }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws { throw Full() }
    }

    @Test func aFailedSpillFailsFinishWithTheScratchSpacesError() throws {
        let records = (0..<10).map { k in
            sample(.watch, InvariantsTests.utc, "2025-05-05 10:0\(k)", "2025-05-05 10:0\(k)", 10)
        }
        let analyzer = Analyzer(
            options: AnalysisOptions(timeZoneIdentifier: "UTC"), scratch: FullDisk(), sampleBufferLimit: 4)
        var batch = ExportBatch()
        batch.records = records
        analyzer.consume(batch)
        #expect(throws: FullDisk.Full()) {
            try analyzer.finish(exportDate: nil, timeZoneCounts: [:], environmentTimeZone: nil)
        }
    }

    @Test func everyPermutationGivesTheSameResultWithATinyBuffer() throws {
        let options = AnalysisOptions(timeZoneIdentifier: "UTC")
        let reference = try analyze(InvariantsTests.mixed, options: options)
        for order in permutations(InvariantsTests.mixed) {
            for limit in [1, 2] {
                let r = try analyze(order, options: options, batchSize: 1, sampleBufferLimit: limit)
                expectSame(r, reference)
            }
        }
    }

    /// A synthetic export of 9 days with every domain, as batches.
    static let batches: [ExportBatch] = {
        let configuration = SyntheticExportConfiguration(
            firstDay: "2025-10-22", days: 9, timeZoneIdentifier: "Europe/Berlin", seed: 5)
        var xml: [UInt8] = []
        _ = SyntheticExport.write(configuration) { xml.append(contentsOf: $0) }
        let file = TestScratch.file("store", suffix: ".xml")
        try! Data(xml).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var batches: [ExportBatch] = []
        _ = try! ExportReader(options: ReaderOptions(batchSize: 700)).read(.path(file.path)) { batches.append($0) }
        return batches
    }()

    static func finish(_ analyzer: Analyzer) throws -> AnalysisResult {
        try analyzer.finish(exportDate: nil, timeZoneCounts: ["Europe/Berlin": 1], environmentTimeZone: nil)
    }

    @Test(arguments: [
        AnalysisOptions(), AnalysisOptions(deduplicate: false), AnalysisOptions(removeExactDuplicates: false),
    ])
    func manyRunsGiveTheInMemoryResult(options: AnalysisOptions) throws {
        let inMemory = Analyzer(options: options, sampleBufferLimit: Int.max)
        for b in Self.batches { inMemory.consume(b) }
        let expected = try Self.finish(inMemory)

        let scratch = InMemoryScratchSpace()
        let spilling = Analyzer(options: options, scratch: scratch, sampleBufferLimit: 97)
        for b in Self.batches { spilling.consume(b) }
        let result = try Self.finish(spilling)
        // 9 days hold ~15 000 cumulative samples: about 150 runs of 97, 16 bytes per sample.
        #expect(scratch.size > 9 * 1000 * 16)
        #expect(expected.days.count == 9 && expected.days.allSatisfy { $0.steps != nil })
        expectSame(result, expected)
    }

    @Test func mergedSpillingPartsGiveTheInMemoryResult() throws {
        let whole = Analyzer(options: AnalysisOptions(), sampleBufferLimit: Int.max)
        for b in Self.batches { whole.consume(b) }
        let expected = try Self.finish(whole)
        // Three parts sharing one scratch space, each with its own small buffer.
        let scratch = InMemoryScratchSpace()
        let parts = [31, 200, 5].map { Analyzer(options: AnalysisOptions(), scratch: scratch, sampleBufferLimit: $0) }
        for (i, b) in Self.batches.enumerated() { parts[i % 3].consume(b) }
        parts[1].merge(parts[0])
        parts[1].merge(parts[2])
        expectSame(try Self.finish(parts[1]), expected)
    }
}

/// Every part of two results is equal (`Double`s bit for bit, except that 0 equals -0).
func expectSame(_ a: AnalysisResult, _ b: AnalysisResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.days == b.days, sourceLocation: sourceLocation)
    #expect(a.weeks == b.weeks, sourceLocation: sourceLocation)
    #expect(a.standHours == b.standHours, sourceLocation: sourceLocation)
    #expect(a.sources == b.sources, sourceLocation: sourceLocation)
    #expect(a.sourceOrder == b.sourceOrder, sourceLocation: sourceLocation)
    #expect(a.crossCheck == b.crossCheck, sourceLocation: sourceLocation)
    #expect(a.longestAllRingsStreak == b.longestAllRingsStreak, sourceLocation: sourceLocation)
    #expect(a.notes == b.notes, sourceLocation: sourceLocation)
    #expect(a.firstDay == b.firstDay && a.lastDay == b.lastDay, sourceLocation: sourceLocation)
    #expect(
        a.standHourProfile.map { [$0.hour, $0.stoodDays, $0.daysWithRecord] }
            == b.standHourProfile.map { [$0.hour, $0.stoodDays, $0.daysWithRecord] }, sourceLocation: sourceLocation)
}

@Suite("In-memory scratch space")
struct InMemoryScratchSpaceTests {
    @Test func readsBackRangesWithinAndAcrossWrites() throws {
        let scratch = InMemoryScratchSpace()
        #expect(try [UInt8](0..<10).withUnsafeBytes { try scratch.write($0) } == 0)
        #expect(try [UInt8]().withUnsafeBytes { try scratch.write($0) } == 10)
        #expect(try [UInt8](10..<15).withUnsafeBytes { try scratch.write($0) } == 10)
        #expect(try [UInt8](15..<40).withUnsafeBytes { try scratch.write($0) } == 15)
        #expect(scratch.size == 40)
        for (offset, count) in [(0, 40), (3, 4), (8, 10), (10, 5), (12, 28), (39, 1), (40, 0)] {
            var back = [UInt8](repeating: 0xFF, count: count)
            try back.withUnsafeMutableBytes { try scratch.read(into: $0, at: Int64(offset)) }
            #expect(back == Array(UInt8(offset)..<UInt8(offset + count)))
        }
        var tooMuch = [UInt8](repeating: 0, count: 2)
        #expect(throws: ScratchSpaceError.readOutOfRange(offset: 39, count: 2)) {
            try tooMuch.withUnsafeMutableBytes { try scratch.read(into: $0, at: 39) }
        }
    }
}

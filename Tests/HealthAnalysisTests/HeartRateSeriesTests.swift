import HealthExport
import Testing

@testable import HealthAnalysis

/// The external sort of heart-rate points (`HeartRateSeries`).
@Suite("Heart-rate series (external sort)")
struct HeartRateSeriesTests {
    @Test(arguments: [1, 3, 50, 10_000])
    func streamsAllPointsSortedForAnyBufferSizeAndMerge(bufferLimit: Int) throws {
        var rng = SeededGenerator(seed: UInt64(bufferLimit))
        // 40 instants × 3 values: ties of instant and exact duplicates are frequent.
        let points = (0..<600).map { _ in
            HeartRatePoint(
                instant: 1_700_000_000 + Int64(rng.next() % 40) * 5, bpm: [60, 61.5, 150][Int(rng.next() % 3)])
        }
        var a = HeartRateSeries(scratch: InMemoryScratchSpace(), bufferLimit: bufferLimit)
        var b = HeartRateSeries(scratch: InMemoryScratchSpace(), bufferLimit: bufferLimit + 1)
        for (k, p) in points.enumerated() {
            if k % 3 == 0 { b.append(p) } else { a.append(p) }
        }
        a.merge(b)
        var got: [HeartRatePoint] = []
        try a.forEachSorted { got.append($0) }
        let expected = points.sorted(by: HeartRatePoint.precedes)
        #expect(got.map(\.instant) == expected.map(\.instant))
        #expect(got.map(\.bpm) == expected.map(\.bpm))
    }

    @Test func aFailedSpillFailsTheStream() {
        var s = HeartRateSeries(scratch: CumulativeStoreTests.FullDisk(), bufferLimit: 2)
        for k in 0..<5 { s.append(HeartRatePoint(instant: Int64(k), bpm: 60)) }
        #expect(throws: CumulativeStoreTests.FullDisk.Full()) { try s.forEachSorted { _ in } }
    }
}

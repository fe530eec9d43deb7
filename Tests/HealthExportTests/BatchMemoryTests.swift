import Foundation
import Testing

@testable import HealthExport

/// Bounded batches (memory): a run of HRV records, ~70 `InstantaneousBeatsPerMinute`
/// each, is delivered in batches of at most `ReaderSession.batchBeatLimit` beats (plus one
/// record's), not 4096 records (7 MB) at a time; nothing is lost or reordered.
@Suite("Batch memory")
struct BatchMemoryTests {
    static func hrvExport(records: Int, beats: Int) -> String {
        var body = ""
        for r in 0..<records {
            let minute = String(format: "%02d", r % 60)
            let hour = String(format: "%02d", 8 + r / 60)
            body +=
                " <Record type=\"HKQuantityTypeIdentifierHeartRateVariabilitySDNN\" sourceName=\"Watch\" unit=\"ms\" "
                + "startDate=\"2025-01-11 \(hour):\(minute):00 +0100\" endDate=\"2025-01-11 \(hour):\(minute):59 +0100\" "
                + "value=\"40\">\n  <HeartRateVariabilityMetadataList>\n"
            for b in 0..<beats {
                body += "   <InstantaneousBeatsPerMinute bpm=\"\(60 + b % 20)\" time=\"\(b % 12 + 1):00:00.00 AM\"/>\n"
            }
            body += "  </HeartRateVariabilityMetadataList>\n </Record>\n"
        }
        return export(body)
    }

    @Test func aRunOfHRVRecordsIsDeliveredInBatchesOfBoundedBeats() throws {
        // 100 records × 100 beats = 10,000 beats. The batch is delivered after the record that
        // brings it to 8,192 or more: the 82nd (8,200 beats); the last 18 records follow at the end.
        let path = try temporaryFile(Array(Self.hrvExport(records: 100, beats: 100).utf8))
        var sizes: [Int] = []
        var beats: [Int] = []
        var values: [Double] = []
        _ = try ExportReader(options: ReaderOptions(batchSize: 4096)).read(.path(path)) { batch in
            sizes.append(batch.records.count)
            beats.append(batch.records.reduce(0) { $0 + $1.heartbeats.count })
            values += batch.records.flatMap { $0.heartbeats.map(\.bpm) }
        }
        #expect(ReaderSession.batchBeatLimit == 8192)
        #expect(sizes == [82, 18])
        #expect(beats == [8200, 1800])
        // Same beats in the same order as one record per batch.
        var one: [Double] = []
        _ = try ExportReader(options: ReaderOptions(batchSize: 1)).read(.path(path)) { batch in
            one += batch.records.flatMap { $0.heartbeats.map(\.bpm) }
        }
        #expect(values == one)
        #expect(values.count == 10_000)
    }

    @Test func largeBlocksAreReturnedToTheSystemOnGlibc() {
        #if canImport(Glibc)
            #expect(ProcessMemory.returnLargeBlocksToTheSystem())
        #endif
        #expect(ProcessMemory.largeBlockBytes == 256 * 1024)
    }
}

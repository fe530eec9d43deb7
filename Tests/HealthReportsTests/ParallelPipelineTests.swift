import Foundation
import HealthAnalysis
import HealthExport
import HealthReports
import HealthTables
import SyntheticExport
import TestSupport
import Testing

/// `ReportPipeline.run(threads:)`: one analyzer per parser thread, merged before `finish`. Every
/// report file must be byte-identical to the one-thread run's, for any thread count and any
/// chunk and segment size (tiny segments spread the export over all threads).
@Suite("Report pipeline with several parser threads")
struct ParallelPipelineTests {
    static let export: String = {
        let (bytes, _) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(
                firstDay: "2025-10-22", days: 9, timeZoneIdentifier: "Europe/Berlin", seed: 5, extendedHealthData: true)
        )
        let file = TestScratch.file("pipeline", suffix: ".xml")
        try! Data(bytes).write(to: file)
        return file.path
    }()

    static func reports(
        threads: Int, chunkSize: Int, segmentSize: Int, sampleBufferLimit: Int = Analyzer.defaultSampleBufferLimit
    ) throws -> [String] {
        let run = try ReportPipeline.run(
            .path(export), options: AnalysisOptions(), environmentTimeZone: nil,
            readerOptions: ReaderOptions(chunkSize: chunkSize, segmentSize: segmentSize), threads: threads,
            sampleBufferLimit: sampleBufferLimit)
        return ReportFile.allCases.map { ReportWriter().text(of: $0, for: run.result, context: run.context) }
    }

    @Test(arguments: [2, 3, 4])
    func everyReportFileIsTheSameAsWithOneThread(threads: Int) throws {
        let one = try Self.reports(threads: 1, chunkSize: 512 * 1024, segmentSize: 512 * 1024)
        #expect(one[0].contains("2025-10-26"))  // the DST day is in the report
        for (chunk, segment) in [(4096, 1), (7 * 1024, 64 * 1024), (512 * 1024, 512 * 1024)] {
            let n = try Self.reports(threads: threads, chunkSize: chunk, segmentSize: segment)
            for (file, (a, b)) in zip(ReportFile.allCases, zip(one, n)) {
                #expect(a == b, "\(file) with \(threads) threads, chunk \(chunk), segment \(segment)")
            }
        }
    }

    /// `ReportWriter.threads` renders the files at once: the folder it writes (every CSV, the
    /// report, the JSON and the charts) is byte for byte the one-thread writer's.
    @Test(arguments: [2, 3])
    func theWritersThreadsWriteTheSameFolder(threads: Int) throws {
        let run = try ReportPipeline.run(.path(Self.export), options: AnalysisOptions(), environmentTimeZone: nil)
        let dir = TestScratch.file("writer")
        defer { try? FileManager.default.removeItem(at: dir) }
        var serial = ReportWriter()
        serial.threads = 1
        var parallel = ReportWriter()
        parallel.threads = threads
        let a = try serial.write(run.result, context: run.context, to: dir.appendingPathComponent("one").path)
        let b = try parallel.write(run.result, context: run.context, to: dir.appendingPathComponent("n").path)
        // 10 report files and the charts with data (the extended export has them all).
        #expect(a.count == b.count && a.count > 10)
        for (x, y) in zip(a, b) {
            #expect(URL(fileURLWithPath: x).lastPathComponent == URL(fileURLWithPath: y).lastPathComponent)
            #expect(try Data(contentsOf: URL(fileURLWithPath: x)) == Data(contentsOf: URL(fileURLWithPath: y)), "\(x)")
        }
    }

    /// Every analyzer spills sorted runs to the shared scratch file (a 1,000-sample buffer against
    /// the export's 14,389 cumulative samples: 7,614 + 3,779 + 1,167 + 1,163 + 440 + 201 + 25, so
    /// at least 14 runs) and the merge references the other analyzers' runs: still
    /// the one-thread, in-memory result.
    @Test(arguments: [1, 2, 4])
    func spillingAnalyzersOfEveryThreadGiveTheSameReports(threads: Int) throws {
        let one = try Self.reports(threads: 1, chunkSize: 512 * 1024, segmentSize: 512 * 1024)
        let n = try Self.reports(
            threads: threads, chunkSize: 64 * 1024, segmentSize: 64 * 1024, sampleBufferLimit: 1000)
        for (file, (a, b)) in zip(ReportFile.allCases, zip(one, n)) {
            #expect(a == b, "\(file) with \(threads) threads spilling every 1,000 samples")
        }
    }
}

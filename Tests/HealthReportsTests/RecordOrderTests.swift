import HealthAnalysis
import HealthExport
import SyntheticExport
import Testing

@testable import HealthReports
@testable import HealthTables

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The report does not depend on the order of the records in the file, nor on whether the
/// analyzer spilled cumulative samples to its temporary file; that file never has a name.
@Suite("Record order and the scratch file")
struct RecordOrderTests {
    /// Writes the 12-day synthetic export in `order` to `<dir>/export.xml`.
    static func writeExport(_ order: SyntheticExportConfiguration.RecordOrder, into dir: String) -> String {
        var configuration = SyntheticExportConfiguration(
            firstDay: "2025-10-20", days: 12, timeZoneIdentifier: "Europe/Berlin", seed: 3)
        configuration.recordOrder = order
        configuration.extendedHealthData = true  // sleep from two sources, naps, vitals, duplicated workouts
        makeDirectory(dir)
        let path = dir + "/export.xml"
        let file = fopen(path, "wb")!
        defer { fclose(file) }
        _ = SyntheticExport.write(configuration) { chunk in
            precondition(fwrite(chunk.baseAddress, 1, chunk.count, file) == chunk.count)
        }
        return path
    }

    /// Runs the report pipeline and writer; returns each output file's name and contents.
    static func report(
        _ export: String, into out: String, scratch: String, bufferLimit: Int, threads: Int = 1
    ) throws -> [String: String] {
        let run = try ReportPipeline.run(
            .path(export), options: AnalysisOptions(), environmentTimeZone: nil,
            readerOptions: ReaderOptions(segmentSize: 64 * 1024), threads: threads,
            scratch: try TemporaryScratchFile(directory: scratch), sampleBufferLimit: bufferLimit)
        _ = try ReportWriter().write(run.result, context: run.context, to: out)
        var files: [String: String] = [:]
        for name in directoryEntries(out) { files[name] = readFile(out + "/" + name) }
        return files
    }

    @Test func typeGroupedAndDayInterleavedExportsGiveByteIdenticalReports() throws {
        let tmp = TemporaryDirectory()
        let scratch = tmp.appending("scratch")
        makeDirectory(scratch)
        let byType = Self.writeExport(.byType, into: tmp.appending("by-type"))
        let byDay = Self.writeExport(.byDay, into: tmp.appending("by-day"))
        #expect(readFile(byType) != readFile(byDay))  // really another order

        // 12 days hold about 20 000 cumulative samples: a buffer of 500 spills about 40 times.
        let reference = try Self.report(byType, into: tmp.appending("out-0"), scratch: scratch, bufferLimit: 1 << 20)
        let runs = [
            try Self.report(byType, into: tmp.appending("out-1"), scratch: scratch, bufferLimit: 500),
            try Self.report(byDay, into: tmp.appending("out-2"), scratch: scratch, bufferLimit: 500),
            try Self.report(byDay, into: tmp.appending("out-3"), scratch: scratch, bufferLimit: 1 << 20),
            // Parser threads, each analyzer spilling into the shared file, then merged.
            try Self.report(byType, into: tmp.appending("out-4"), scratch: scratch, bufferLimit: 300, threads: 3),
            try Self.report(byDay, into: tmp.appending("out-5"), scratch: scratch, bufferLimit: 300, threads: 2),
        ]
        let charts = ["heart", "rings", "sleep", "stand_hours", "steps", "workouts"].map { "chart_\($0).svg" }
        #expect(
            reference.keys.sorted()
                == charts + [
                    "daily.csv", "load-duckdb.sql", "load-sqlite.sql", "monthly.csv", "report.html", "report.json",
                    "report.md",
                    "schema.sql", "sleep.csv", "sources.csv",
                    "stand_hours.csv", "trends.csv", "weekly.csv", "workouts.csv",
                ])
        #expect(reference["daily.csv"]!.utf8.filter { $0 == 0x0A }.count == 13)  // header + 12 days
        for files in runs {
            #expect(files == reference)
        }
        #expect(directoryEntries(scratch) == [])
    }

    @Test func theScratchFileHasNoNameFromTheStartAndReadsBackWhatWasWritten() throws {
        let tmp = TemporaryDirectory()
        let file = try TemporaryScratchFile(directory: tmp.path)
        #expect(directoryEntries(tmp.path) == [])
        let first: [UInt8] = Array(0..<200)
        let second: [UInt8] = Array(repeating: 7, count: 5)
        #expect(try first.withUnsafeBytes { try file.write($0) } == 0)
        #expect(try second.withUnsafeBytes { try file.write($0) } == 200)
        var back = [UInt8](repeating: 0, count: 9)
        try back.withUnsafeMutableBytes { try file.read(into: $0, at: 196) }
        #expect(back == [196, 197, 198, 199, 7, 7, 7, 7, 7])
        back = [UInt8](repeating: 0, count: 10)  // 5 bytes are left at 200
        #expect(throws: ScratchFileError.truncated(directory: tmp.path)) {
            try back.withUnsafeMutableBytes { try file.read(into: $0, at: 200) }
        }
        #expect(file.size == 205)
    }

    @Test func aFailedRunLeavesNoScratchFile() throws {
        let tmp = TemporaryDirectory()
        let scratch = tmp.appending("scratch")
        makeDirectory(scratch)
        let export = Self.writeExport(.byDay, into: tmp.appending("in"))
        // Cut the document in the middle: the reader fails after the analyzer has spilled.
        let text = readFile(export)!
        let cut = tmp.appending("cut.xml")
        writeFile(cut, String(text.prefix(text.utf8.count / 2)))
        #expect(throws: ExportReadError.self) {
            _ = try ReportPipeline.run(
                .path(cut), options: AnalysisOptions(), environmentTimeZone: nil,
                scratch: try TemporaryScratchFile(directory: scratch), sampleBufferLimit: 100)
        }
        #expect(directoryEntries(scratch) == [])
    }

    @Test func aMissingScratchDirectoryIsNamedInTheError() {
        let tmp = TemporaryDirectory()
        let missing = tmp.appending("missing")
        #expect(throws: ScratchFileError.cannotCreate(directory: missing, ReportError.Errno(rawValue: ENOENT))) {
            _ = try TemporaryScratchFile(directory: missing)
        }
        let error = ScratchFileError.cannotCreate(directory: missing, ReportError.Errno(rawValue: ENOENT))
        #expect(
            error.description
                == "cannot create a temporary file in '\(missing)' (set TMPDIR to another directory): No such file or directory (errno 2)"
        )
    }
}

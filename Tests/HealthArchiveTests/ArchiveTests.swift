import CSQLite
import Foundation
import HealthAnalysis
import HealthExport
import HealthReports
import HealthTables
import Synchronization
import SyntheticExport
import TestSupport
import Testing

@testable import HealthArchive

/// 21 days over the Europe/Berlin autumn change, exported in winter (printed offset +0100).
let winter = SyntheticExportConfiguration(
    firstDay: "2025-10-13", days: 21, timeZoneIdentifier: "Europe/Berlin", seed: 7,
    exportDate: "2025-11-10 12:00")
/// The same person and days, exported in summer (every timestamp printed in +0200).
let summer = SyntheticExportConfiguration(
    firstDay: "2025-10-13", days: 21, timeZoneIdentifier: "Europe/Berlin", seed: 7,
    exportDate: "2026-06-01 12:00")

@Suite("Archive")
struct ArchiveTests {
    /// The export holds what real ones do (docs/deduplication.md §2): an exact duplicate of a step
    /// sample next to it and another one near the end (another batch), a negative value and a
    /// sample that ends before it starts; report.md notes them, with lines, from both.
    @Test func reportFromTheArchiveIsByteIdenticalToReportOnTheExport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flawed = try flawedExport(winter)
        let export = dir.appendingPathComponent("export.xml").path
        try Data(flawed.xml.utf8).write(to: URL(fileURLWithPath: export))
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        let first = try archive.importExport(.path(export))
        #expect(first.recordsNew == first.recordsRead - 2, "the two copies are one row")
        let direct = try ReportPipeline.run(.path(export), options: AnalysisOptions(), environmentTimeZone: nil)
        let replayed = try ReportPipeline.run(
            reading: { try archive.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
        let writer = ReportWriter()
        #expect(direct.result.days.first?.date.description == "2025-10-13")
        #expect(direct.result.days.count == 21)
        for file in ReportFile.allCases {
            let a = writer.text(of: file, for: direct.result, context: direct.context)
            let b = writer.text(of: file, for: replayed.result, context: replayed.context)
            #expect(a == b, "\(file.fileName) differs")
            // A real report of the 21 days 2025-10-13 (a Monday) to 2025-11-02 (a Sunday): a
            // header and one row per day, per ISO week (3) and per month (October, November).
            let rows = [ReportFile.daily: 21, .weekly: 3, .monthly: 2][file]
            if let rows {
                #expect(a.split(separator: "\n").count == 1 + rows, "\(file.fileName)")
            }
        }
        // The notes are there: 3 steps samples are one (2 removed), and the flawed lines.
        let report = writer.text(of: .report, for: replayed.result, context: replayed.context)
        #expect(report.contains("Removed 2 exact duplicate samples (StepCount 2)"))
        #expect(report.contains("Dropped 1 sample with a negative value (first at line \(flawed.negativeLine))."))
        #expect(
            report.contains(
                "Dropped 1 sample that ends before it starts (first at line \(flawed.endBeforeStartLine))."))
        // The options are honoured the same way: a period and a plain sum.
        var options = AnalysisOptions()
        options.from = CivilDate(year: 2025, month: 10, day: 20)
        options.to = CivilDate(year: 2025, month: 10, day: 27)
        options.deduplicate = false
        let directPart = try ReportPipeline.run(.path(export), options: options, environmentTimeZone: nil)
        let replayedPart = try ReportPipeline.run(
            reading: { try archive.read(consume: $0) }, options: options, environmentTimeZone: nil)
        #expect(
            writer.text(of: .daily, for: directPart.result, context: directPart.context)
                == writer.text(of: .daily, for: replayedPart.result, context: replayedPart.context))
    }

    /// An export's exact duplicates are kept as the most copies any one export held: a
    /// re-import and a second export holding the same copies add nothing, and the replay still
    /// equals the export record for record.
    @Test func duplicatesInsideExportsAreNotDoubledAcrossExports() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flawed = try flawedExport(winter)
        let a = dir.appendingPathComponent("a.xml").path
        let b = dir.appendingPathComponent("b.xml").path
        try Data(flawed.xml.utf8).write(to: URL(fileURLWithPath: a))
        // The same records, exported a day later: another export.
        let later = flawed.xml.replacingOccurrences(
            of: "<ExportDate value=\"2025-11-10", with: "<ExportDate value=\"2025-11-11")
        #expect(later != flawed.xml)
        try Data(later.utf8).write(to: URL(fileURLWithPath: b))
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        var options = ReaderOptions()
        options.segmentSize = 64 * 1024  // copies arrive from different workers
        let first = try archive.importExport(.path(a), readerOptions: options, threads: 3)
        let counts = try archive.rowCounts()
        let records = try dump(archive)
        let again = try archive.importExport(.path(a))
        #expect(again.recordsNew == 0)
        #expect(try archive.rowCounts() == counts)
        #expect(try dump(archive) == records)
        let other = try archive.importExport(.path(b))
        #expect(other.recordsNew == 0 && !other.exportWasKnown)
        var expected = counts
        expected["exports"]! += 1
        #expect(try archive.rowCounts() == expected)
        #expect(try dump(archive) == records, "3 copies stay 3, not 6")
        // Replayed, the archive holds each record as often as the export: 3 of the flawed one.
        var direct: [String] = []
        _ = try ExportReader().read(.path(a)) { batch in
            direct += batch.records.filter { !$0.isNestedInCorrelation }.map { "R \(describe($0))" }
        }
        let replayed = records.filter { $0.hasPrefix("R ") && !$0.hasSuffix(" true") }
        #expect(replayed == direct.sorted())
        #expect(replayed.count == first.recordsRead)
        let copies = try #require(try archive.db.integer("SELECT max(copies) FROM records"))
        #expect(copies == 3)
    }

    /// A record an earlier export stored once, which a later export holds three times, one copy
    /// in a later batch than the other two: the later import counts all three (its count of a
    /// record stored before is kept per block between batches, in `temp.import_seen`), so the
    /// record's `copies` becomes max(1, 3) = 3; without the count kept, the last copy would
    /// start again at 1 and `copies` would stay 2. Importing the flawed export again adds nothing.
    @Test func copiesOfAnEarlierRecordAreCountedAcrossBatches() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try writeExport(winter, to: dir, name: "plain.xml")
        let flawed = dir.appendingPathComponent("flawed.xml").path
        try Data(try flawedExport(winter).xml.utf8).write(to: URL(fileURLWithPath: flawed))
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        let first = try archive.importExport(.path(plain))
        #expect(first.recordsNew == first.recordsRead)
        #expect(try archive.db.integer("SELECT max(copies) FROM records") == 1)
        var options = ReaderOptions()
        options.batchSize = 512  // the copy before the end is many batches after the other two
        let second = try archive.importExport(.path(flawed), readerOptions: options)
        // New: the copy with value -5 and the one with start and end swapped.
        #expect(second.recordsNew == 2)
        #expect(try archive.db.integer("SELECT max(copies) FROM records") == 3)
        #expect(try archive.db.integer("SELECT count(*) FROM records WHERE copies > 1") == 1)
        let again = try archive.importExport(.path(flawed), readerOptions: options)
        #expect(again.recordsNew == 0)
        #expect(try archive.db.integer("SELECT max(copies) FROM records") == 3)
    }

    /// `import --threads N` writes the same rows with the same ids for any N: the
    /// threads' batches are written in document order (`SegmentOrder`). Before, the ids of
    /// records of one type and start second followed the order the threads' batches arrived in,
    /// and names' lookup ids the order they first arrived. Every table but `exports` (which
    /// holds the import's own time), row for row in key order, ids included, after one-thread
    /// and 3-thread imports of the same export with many 16 KiB segments.
    @Test func parserThreadsGiveTheSameRowsAndIds() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try writeExport(winter, to: dir, name: "export.xml")
        var options = ReaderOptions()
        options.segmentSize = 16 * 1024
        var tables: [[String]] = []
        for (name, threads) in [("one", 1), ("three", 3), ("two", 2)] {
            let archive = try Archive(path: dir.appendingPathComponent("\(name).sqlite").path)
            _ = try archive.importExport(.path(export), readerOptions: options, threads: threads)
            tables.append(try rows(archive, except: ["exports"]))
        }
        #expect(tables[0].count > 30_000)
        for other in tables.dropFirst() {
            // (the first row that differs, not two lists of 30,000 rows)
            let differs = zip(tables[0], other).first { $0.0 != $0.1 }
            #expect(other.count == tables[0].count && differs == nil, "\(String(describing: differs))")
        }
    }

    @Test func parserThreadsGiveTheSameArchive() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try writeExport(winter, to: dir, name: "export.xml")
        let serial = try Archive(path: dir.appendingPathComponent("serial.sqlite").path)
        let parallel = try Archive(path: dir.appendingPathComponent("parallel.sqlite").path)
        let a = try serial.importExport(.path(export))
        var options = ReaderOptions()
        options.segmentSize = 64 * 1024  // many segments for the 3 workers
        let b = try parallel.importExport(.path(export), readerOptions: options, threads: 3)
        #expect(a.recordsNew == b.recordsNew && a.recordsNew > 30_000)
        #expect(try dump(serial) == dump(parallel))
        #expect(try serial.rowCounts() == parallel.rowCounts())
        let again = try parallel.importExport(.path(export), readerOptions: options, threads: 3)
        #expect(again.recordsNew == 0 && again.recordsPresent == a.recordsRead)
        let writer = ReportWriter()
        let x = try ReportPipeline.run(
            reading: { try serial.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
        let y = try ReportPipeline.run(
            reading: { try parallel.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
        for file in ReportFile.allCases {
            #expect(
                writer.text(of: file, for: x.result, context: x.context)
                    == writer.text(of: file, for: y.result, context: y.context))
        }
    }

    @Test func reimportingAnExportAddsNothing() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try writeExport(winter, to: dir, name: "export.xml")
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        let first = try archive.importExport(.path(export))
        let counts = try archive.rowCounts()
        let again = try archive.importExport(.path(export))
        #expect(first.recordsRead > 30_000)
        #expect(first.recordsNew == first.recordsRead)
        #expect(first.exportWasKnown == false)
        #expect(again.recordsRead == first.recordsRead)
        #expect(again.recordsNew == 0)
        #expect(again.recordsPresent == first.recordsRead)
        #expect(again.workoutsNew == 0 && again.workoutsRead == first.workoutsRead && first.workoutsRead > 0)
        #expect(again.correlationsNew == 0 && first.correlationsNew > 0)
        #expect(again.summariesNew == 0 && again.summariesReplaced == 0 && first.summariesNew == 21)
        #expect(again.exportWasKnown)
        #expect(try archive.rowCounts() == counts, "not one row added, the exports table included")
        #expect(counts["records"] == first.recordsRead)
        #expect(counts["exports"] == 1)
    }

    /// Two overlapping exports of one person, the second printed in another offset, give the
    /// archive of one export holding both periods.
    ///
    /// The winter export (+0100) is cut to its records starting before day 14 (2025-10-27); the
    /// summer export of the same data (+0200: every printed text differs) to those from day 7
    /// (2025-10-20). Days 7 to 13 are in both, printed differently: the archive must hold them
    /// once. The winter export's last ActivitySummary day is altered as an incomplete day
    /// would be (half the Move value); the summer export is later, so its value replaces it,
    /// whichever is imported first.
    @Test func overlappingExportsInDifferentOffsetsEqualOneExportOfBothPeriods() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let winterFile = try writeExport(winter, to: dir, name: "winter.xml")
        let summerFile = try writeExport(summer, to: dir, name: "summer.xml")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: winterFile))
                != Data(contentsOf: URL(fileURLWithPath: summerFile)))
        let day7 = Int64(1_760_911_200)  // 2025-10-20 00:00 +0200 (Berlin, summer time)
        let day14 = Int64(1_761_519_600)  // 2025-10-27 00:00 +0100 (after the change on 10-26)
        let lastWinterDay = CivilDate(year: 2025, month: 10, day: 26)

        let whole = try Archive(path: dir.appendingPathComponent("whole.sqlite").path)
        _ = try whole.importExport(.path(winterFile))

        for order in [["winter", "summer"], ["summer", "winter"]] {
            let union = try Archive(path: dir.appendingPathComponent("union-\(order[0]).sqlite").path)
            var outcomes: [String: ImportOutcome] = [:]
            for part in order {
                outcomes[part] =
                    part == "winter"
                    ? try union.importBatches(
                        reading: filtered(winterFile, from: nil, before: day14, incomplete: lastWinterDay))
                    : try union.importBatches(reading: filtered(summerFile, from: day7, before: nil, incomplete: nil))
            }
            let w = try #require(outcomes["winter"])
            let s = try #require(outcomes["summer"])
            // The second import found the overlap already there.
            let second = order[1] == "winter" ? w : s
            #expect(second.recordsPresent > 10_000, "\(order): the 7 shared days are found, not added")
            #expect(w.recordsRead + s.recordsRead - second.recordsPresent == (try whole.rowCounts()["records"]))
            #expect(try dump(union) == dump(whole), "\(order)")
            #expect(try union.integrityCheck() == "ok")
            // And the analysis of the union is the analysis of the one export.
            let a = try ReportPipeline.run(
                reading: { try union.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
            let b = try ReportPipeline.run(
                reading: { try whole.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
            let writer = ReportWriter()
            for file in [ReportFile.daily, .standHours, .sources] {
                #expect(
                    writer.text(of: file, for: a.result, context: a.context)
                        == writer.text(of: file, for: b.result, context: b.context), "\(order) \(file.fileName)")
            }
        }
    }

    @Test func aFileThatIsNotOursIsRefusedAndLeftAlone() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Not SQLite at all.
        let text = dir.appendingPathComponent("notes.txt")
        try Data("my notes, not a database\n".utf8).write(to: text)
        #expect(throws: ArchiveError.notSQLite(path: text.path)) { try Archive(path: text.path) }
        #expect(try Data(contentsOf: text) == Data("my notes, not a database\n".utf8))
        // Another application's SQLite database.
        let other = dir.appendingPathComponent("other.sqlite")
        try makeDatabase(other.path, ["CREATE TABLE contacts (name TEXT)", "INSERT INTO contacts VALUES ('x')"])
        let before = try Data(contentsOf: other)
        #expect(throws: ArchiveError.notAnArchive(path: other.path, reason: "it has 1 tables or indexes of its own")) {
            try Archive(path: other.path)
        }
        #expect(try Data(contentsOf: other) == before)
        #expect(!FileManager.default.fileExists(atPath: other.path + "-wal"))
        // An archive of a newer schema.
        let newer = dir.appendingPathComponent("newer.sqlite")
        _ = try Archive(path: newer.path)
        try makeDatabase(newer.path, ["PRAGMA journal_mode = DELETE", "PRAGMA user_version = 4"])
        let newerBytes = try Data(contentsOf: newer)
        #expect(throws: ArchiveError.newerSchema(path: newer.path, version: 4, supported: 3)) {
            try Archive(path: newer.path)
        }
        #expect(try Data(contentsOf: newer) == newerBytes)
        // inspect --db on a missing file does not create it.
        let missing = dir.appendingPathComponent("missing.sqlite").path
        #expect(throws: ArchiveError.missing(path: missing)) { try Archive(path: missing, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
    /// Cron jobs may open one new archive at the same instant. The one that loses the race must
    /// see either the empty file or the whole schema, never "tables without our application_id"
    /// (a read of the header before the other's commit and of `sqlite_master` after it; CI saw
    /// that once through three `import` processes).
    @Test func archivesOpenedAtOnceOnANewFileAllSeeOneSchema() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<40 {
            let path = dir.appendingPathComponent("race-\(round).sqlite").path
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try Archive(path: path)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [], "round \(round)")
            #expect(try Archive(path: path, readOnly: true).rowCounts()["records"] == 0)
        }
    }

    @Test func aReadFailureRollsBackEverythingOfThatInput() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try writeExport(winter, to: dir, name: "export.xml")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: export))
        let truncated = dir.appendingPathComponent("truncated.xml")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        #expect(throws: ExportReadError.self) { try archive.importExport(.path(truncated.path)) }
        #expect(try archive.rowCounts().filter { $0.value > 0 }.isEmpty, "half an export is not imported")
        let outcome = try archive.importExport(.path(export))
        #expect(outcome.recordsNew == outcome.recordsRead && outcome.recordsRead > 0)
    }
}

// MARK: Helpers

func temporaryFolder() throws -> URL {
    try TestScratch.folder("ha-archive")
}

func writeExport(_ configuration: SyntheticExportConfiguration, to dir: URL, name: String) throws -> String {
    let url = dir.appendingPathComponent(name)
    try Data(SyntheticExport.makeExport(configuration).bytes).write(to: url)
    return url.path
}

/// `configuration`'s export with what real exports hold (docs/deduplication.md §2): after its first step
/// sample two exact copies of it (one next to it, one before the end, in another batch), a copy
/// with value -5 and one whose start and end are swapped; and the lines of the last two.
func flawedExport(_ configuration: SyntheticExportConfiguration) throws -> (
    xml: String, negativeLine: Int, endBeforeStartLine: Int
) {
    var lines = String(decoding: SyntheticExport.makeExport(configuration).bytes, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let i = try #require(lines.firstIndex { $0.contains("type=\"HKQuantityTypeIdentifierStepCount\"") })
    let steps = lines[i]
    func attribute(_ name: String) throws -> String {
        let from = try #require(steps.range(of: " \(name)=\""))
        let to = try #require(steps[from.upperBound...].firstIndex(of: "\""))
        return String(steps[from.upperBound..<to])
    }
    let value = try attribute("value")
    let start = try attribute("startDate")
    let end = try attribute("endDate")
    #expect(start != end)
    let negative = steps.replacingOccurrences(of: "value=\"\(value)\"", with: "value=\"-5\"")
    let swapped = steps.replacingOccurrences(of: "startDate=\"\(start)\"", with: "startDate=\"#\"")
        .replacingOccurrences(of: "endDate=\"\(end)\"", with: "endDate=\"\(start)\"")
        .replacingOccurrences(of: "startDate=\"#\"", with: "startDate=\"\(end)\"")
    #expect(negative != steps && swapped != steps)
    lines.insert(contentsOf: [steps, negative, swapped], at: i + 1)
    let last = try #require(lines.lastIndex { $0.hasPrefix(" <Record ") })
    lines.insert(steps, at: last)
    // Lines are 1-based: the first step sample is on line i + 1.
    return (lines.joined(separator: "\n"), i + 3, i + 4)
}

/// Reads `file` and keeps what starts in [from, before); with `incomplete`, that day's
/// ActivitySummary is handed on with half its Move value.
func filtered(_ file: String, from: Int64?, before: Int64?, incomplete: CivilDate?)
    -> ((ExportBatch) throws -> Void) throws -> ExportSummary
{
    { consume in
        try ExportReader().read(.path(file)) { batch in
            func keep(_ t: Timestamp) -> Bool {
                (from.map { t.secondsSince1970 >= $0 } ?? true) && (before.map { t.secondsSince1970 < $0 } ?? true)
            }
            var b = ExportBatch()
            b.records = batch.records.filter { keep($0.startDate) }
            b.correlations = batch.correlations.filter { keep($0.startDate) }
            b.workouts = batch.workouts.filter { keep($0.startDate) }
            b.activitySummaries = batch.activitySummaries.compactMap { s in
                let start = Int64(s.date.daysSince1970) * 86_400
                guard (from.map { start + 86_400 > $0 } ?? true) && (before.map { start < $0 } ?? true) else {
                    return nil
                }
                var s = s
                if s.date == incomplete { s.activeEnergyBurnedKcal = (s.activeEnergyBurnedKcal ?? 0) / 2 }
                return s
            }
            try consume(b)
        }
    }
}

/// Everything the archive holds about the person, as sorted text lines, without what only
/// says where it came from (export ids, printed offsets, row ids).
func dump(_ archive: Archive) throws -> [String] {
    var lines: [String] = []
    _ = try archive.read { batch in
        for r in batch.records {
            lines.append("R \(describe(r))")
        }
        for c in batch.correlations {
            lines.append(
                "C \(c.type) \(c.sourceName) \(c.startDate.secondsSince1970) \(c.endDate.secondsSince1970) "
                    + "\(c.metadata) [\(c.records.map(describe).joined(separator: "; "))]")
        }
        for w in batch.workouts {
            lines.append(
                "W \(w.activityType) \(w.sourceName) \(w.startDate.secondsSince1970) \(w.endDate.secondsSince1970) "
                    + "\(String(describing: w.durationMinutes)) \(w.metadata) events \(w.events.map { "\($0.type)@\($0.date.secondsSince1970)" }) "
                    + "stats \(w.statistics.map { "\($0.type) \(String(describing: $0.sum)) \(String(describing: $0.average))" }) "
                    + "activities \(w.activities.count) routes \(w.routes.map(\.filePaths))")
        }
        for s in batch.activitySummaries { lines.append("S \(s)") }
    }
    return lines.sorted()
}

func describe(_ r: Record) -> String {
    "\(r.type) \(r.sourceName) \(r.sourceVersion ?? "-") \(r.device?.description ?? "-") "
        + "\(r.startDate.secondsSince1970) \(r.endDate.secondsSince1970) "
        + "\(r.creationDate?.secondsSince1970 ?? -1) \(r.value) \(r.metadata) \(r.heartbeats.count) "
        + "\(r.isNestedInCorrelation)"
}

/// A plain SQLite database made with `statements`, as another application would.
func makeDatabase(_ path: String, _ statements: [String]) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
    defer { sqlite3_close(db) }
    for s in statements {
        guard sqlite3_exec(db, s, nil, nil, nil) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
    }
}

@Suite("Import inputs")
struct ImportInputsTests {
    @Test func aFolderOfExportsIsOneInputPerExport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        // exports/2025-06/apple_health_export/export.xml, exports/2025-07.zip, exports/notes.txt
        let exports = dir.appendingPathComponent("exports")
        let june = exports.appendingPathComponent("2025-06/apple_health_export")
        try fm.createDirectory(at: june, withIntermediateDirectories: true)
        try Data("<HealthData/>".utf8).write(to: june.appendingPathComponent("export.xml"))
        try Data("PK".utf8).write(to: exports.appendingPathComponent("2025-07.zip"))
        try Data("x".utf8).write(to: exports.appendingPathComponent("notes.txt"))
        try fm.createDirectory(at: exports.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
        #expect(
            ImportInputs.expand(exports.path) == [
                .path(exports.path + "/2025-06"), .path(exports.path + "/2025-07.zip"),
            ])
        // An unzipped export (its XML two levels down, or beside export_cda.xml) is one input.
        #expect(ImportInputs.expand(exports.path + "/2025-06") == [.path(exports.path + "/2025-06")])
        #expect(ImportInputs.expand(june.path) == [.path(june.path)])
        #expect(ImportInputs.expand("-") == [.standardInput])
        #expect(ImportInputs.expand("x.zip") == [.path("x.zip")])
    }
}

@Suite("Archive fidelity")
struct ArchiveFidelityTests {
    /// Every element kind the reader models, through the archive and back: the replay hands
    /// the analysis the same values the reader does (Record.line and the per-read symbols aside).
    @Test func everyElementKindRoundTrips() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HealthExportTests/Fixtures/all-elements.xml").path
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var direct: [String] = []
        let summary = try ExportReader().read(.path(fixture)) { direct += full($0) }
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        let outcome = try archive.importExport(.path(fixture))
        var replayed: [String] = []
        let replayedSummary = try archive.read { replayed += full($0) }
        #expect(outcome.workoutsNew == 1 && outcome.correlationsNew == 1 && outcome.summariesNew == 2)
        #expect(direct.count > 20)
        #expect(replayed.sorted() == direct.sorted())
        #expect(replayedSummary.me == summary.me && summary.me != nil)
        #expect(replayedSummary.exportDate == summary.exportDate)
        #expect(replayedSummary.exportDate?.printedOffsetSeconds == summary.exportDate?.printedOffsetSeconds)
        #expect(replayedSummary.timeZoneCounts == summary.timeZoneCounts)
        #expect(replayedSummary.exportVersion == summary.exportVersion)
        #expect(replayedSummary.locale == summary.locale)
        #expect(replayedSummary.diagnostics == summary.diagnostics)
    }
}

extension ArchiveFidelityTests {
    /// `read(parts:)` (`report --db --threads N`) cuts the records into runs of about equal
    /// length, each read on a connection and thread of its own: together the parts hand on
    /// exactly what the one-thread read does, each part's records in archive (id) order, and part
    /// 0 also the correlations, workouts and ActivitySummary days. 21 synthetic days (several
    /// thousand records) with at least 500 records a part: 3 parts.
    @Test func aReadInPartsHandsOnWhatTheOneThreadReadDoes() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (archive, imported) = try flawedArchive(in: dir)
        #expect(imported.recordsNew > 1_500)
        var serial: [String] = []
        let serialSummary = try archive.read { serial += full($0) }
        // Each part's log is written only from its part's thread and read after the read returns.
        final class PartLog: @unchecked Sendable { var batches: [ExportBatch] = [] }
        let parts = (0..<3).map { _ in PartLog() }
        let summary = try archive.read(parts: 3, batchSize: 100, minimumRecordsPerPart: 500) { i in
            { batch in parts[i].batches.append(batch) }
        }
        let batches = parts.map(\.batches)
        #expect(batches.allSatisfy { $0.contains { !$0.records.isEmpty } }, "every part has records")
        #expect(batches.flatMap { $0.flatMap(full) }.sorted() == serial.sorted())
        #expect(
            batches[0].contains { !$0.workouts.isEmpty } && !batches[1...].joined().contains { !$0.workouts.isEmpty })
        // Each part's run of records in archive order, and the runs in order: the records of
        // part 0, then 1, then 2 are the one-thread read's records.
        var oneThread: [Record] = []
        _ = try archive.read { b in oneThread += b.records.filter { !$0.isNestedInCorrelation } }
        let inParts = batches.flatMap { $0.flatMap { $0.records.filter { !$0.isNestedInCorrelation } } }
        #expect(inParts.map { $0.startDate } == oneThread.map { $0.startDate })
        #expect(inParts.map { $0.type } == oneThread.map { $0.type })
        #expect(summary.me == serialSummary.me && summary.exportDate == serialSummary.exportDate)
    }

    /// The report from a read in parts (3 analyzers, merged) is the report of the one-thread
    /// read, file for file, byte for byte.
    @Test func aReportFromAReadInPartsIsTheOneThreadReport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try flawedArchive(in: dir).archive
        let one = try ReportPipeline.run(
            reading: { try archive.read(consume: $0) }, options: AnalysisOptions(), environmentTimeZone: nil)
        let three = try ReportPipeline.run(
            parts: 3,
            reading: { make in
                try archive.read(parts: 3, batchSize: 100, minimumRecordsPerPart: 500, makeConsumer: make)
            },
            options: AnalysisOptions(), environmentTimeZone: nil)
        let writer = ReportWriter()
        #expect(one.result.days.count == 21)
        for file in ReportFile.allCases {
            #expect(
                writer.text(of: file, for: one.result, context: one.context)
                    == writer.text(of: file, for: three.result, context: three.context), "\(file.fileName) differs")
        }
    }

    /// An archive of the 21 winter days with their flaws (`flawedExport`), imported in `dir`.
    private func flawedArchive(in dir: URL) throws -> (archive: Archive, imported: ImportOutcome) {
        let export = dir.appendingPathComponent("export.xml").path
        try Data(try flawedExport(winter).xml.utf8).write(to: URL(fileURLWithPath: export))
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        return (archive, try archive.importExport(.path(export)))
    }

    /// A part's consumer that throws ends the read in parts with its error.
    @Test func aConsumersErrorEndsAReadInParts() throws {
        struct Stop: Error {}
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try flawedArchive(in: dir).archive
        #expect(throws: Stop.self) {
            _ = try archive.read(parts: 2, minimumRecordsPerPart: 500) { i in
                { _ in if i == 1 { throw Stop() } }
            }
        }
    }

    /// `Me` is the latest export's (by ExportDate), whichever is imported last.
    @Test func meIsTheLatestExports() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try writeExport(
            SyntheticExportConfiguration(firstDay: "2025-06-02", days: 1, exportDate: "2025-06-03 12:00"), to: dir,
            name: "a.xml")
        func export(me: Me, exportedAt seconds: Int64) -> ((ExportBatch) throws -> Void) throws -> ExportSummary {
            { consume in
                var summary = try ExportReader().read(.path(file), consume: consume)
                summary.me = me
                summary.exportDate = Timestamp(secondsSince1970: seconds, printedOffsetSeconds: 7200)
                return summary
            }
        }
        let older = Me(dateOfBirth: "1990-01-01", biologicalSex: "HKBiologicalSexFemale")
        let newer = Me(
            dateOfBirth: "1990-01-01", biologicalSex: "HKBiologicalSexFemale", bloodType: "HKBloodTypeAPositive")
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        _ = try archive.importBatches(reading: export(me: newer, exportedAt: 1_750_000_000))
        _ = try archive.importBatches(reading: export(me: older, exportedAt: 1_740_000_000))
        #expect(try archive.read { _ in }.me == newer, "an older export imported later does not replace Me")
        let newest = Me(dateOfBirth: "1990-01-01", bloodType: "HKBloodTypeAPositive")
        _ = try archive.importBatches(reading: export(me: newest, exportedAt: 1_760_000_000))
        #expect(try archive.read { _ in }.me == newest)
        #expect(try archive.rowCounts()["exports"] == 3)
    }
}

/// One line per element with every field the archive keeps (printed offsets included).
func full(_ batch: ExportBatch) -> [String] {
    func t(_ x: Timestamp?) -> String { x.map { "\($0)" } ?? "-" }
    func record(_ r: Record) -> String {
        "\(r.type)|\(r.value)|\(r.sourceName)|\(r.sourceVersion ?? "-")|\(r.device.map(device) ?? "-")|"
            + "\(t(r.creationDate))|\(t(r.startDate))|\(t(r.endDate))|\(r.metadata)|\(r.heartbeats)|"
            + "\(r.isNestedInCorrelation)"
    }
    func device(_ d: Device) -> String {
        "\(d.name ?? "-")/\(d.manufacturer ?? "-")/\(d.model ?? "-")/\(d.hardware ?? "-")/\(d.software ?? "-")/"
            + "\(d.creationDate ?? "-")/\(d.otherFields)"
    }
    func statistics(_ s: [WorkoutStatistics]) -> String {
        s.map {
            "\($0.type) \(t($0.startDate)) \(t($0.endDate)) \(String(describing: $0.sum)) "
                + "\(String(describing: $0.average)) \(String(describing: $0.minimum)) "
                + "\(String(describing: $0.maximum)) \(String(describing: $0.unit)) \($0.originalUnit ?? "-")"
        }.joined(separator: "; ")
    }
    func events(_ e: [WorkoutEvent]) -> String {
        e.map { "\($0.type) \(t($0.date)) \(String(describing: $0.durationMinutes)) \($0.metadata)" }
            .joined(separator: "; ")
    }
    var out = batch.records.map { "R " + record($0) }
    out += batch.correlations.map { c in
        "C \(c.type)|\(c.sourceName)|\(c.sourceVersion ?? "-")|\(c.device.map(device) ?? "-")|\(t(c.creationDate))|"
            + "\(t(c.startDate))|\(t(c.endDate))|\(c.metadata)|\(c.records.map(record))"
    }
    out += batch.workouts.map { w in
        let activities = w.activities.map { a in
            "\(a.uuid ?? "-") \(t(a.startDate)) \(t(a.endDate)) \(String(describing: a.durationMinutes)) "
                + "\(a.metadata) [\(events(a.events))] [\(statistics(a.statistics))]"
        }
        let routes = w.routes.map { r in
            "\(r.sourceName) \(r.sourceVersion ?? "-") \(r.device.map(device) ?? "-") \(t(r.creationDate)) "
                + "\(t(r.startDate)) \(t(r.endDate)) \(r.metadata) \(r.filePaths) "
                + "\(r.locations.map { "\(t($0.date)) \($0.latitude) \($0.longitude) \(String(describing: $0.altitude))" })"
        }
        return "W \(w.activityType)|\(String(describing: w.durationMinutes))|\(String(describing: w.totalDistanceKm))|"
            + "\(String(describing: w.totalEnergyBurnedKcal))|\(w.sourceName)|\(w.sourceVersion ?? "-")|"
            + "\(w.device.map(device) ?? "-")|\(t(w.creationDate))|\(t(w.startDate))|\(t(w.endDate))|\(w.metadata)|"
            + "[\(events(w.events))]|[\(statistics(w.statistics))]|\(activities)|\(routes)"
    }
    out += batch.activitySummaries.map { s in
        var s = s
        s.line = 0
        return "S \(s)"
    }
    return out
}

@Suite("Record ids")
struct RecordIDTests {
    /// The id is `type << 54 | (start + 2^31) << 21 | n`: 2025-01-01 00:00 UTC is 1,735,689,600 s,
    /// biased 3,883,173,248; type 3, n 5 → 3 × 2^54 + 3,883,173,248 × 2^21 + 5.
    @Test func anIdHoldsTypeStartAndCounter() throws {
        let id = try #require(Schema.recordID(type: 3, start: 1_735_689_600, n: 5))
        #expect(id == 3 * (1 << 54) + 3_883_173_248 * (1 << 21) + 5)
        #expect(Schema.start(ofRecord: id) == 1_735_689_600)
        #expect(id >> 54 == 3)
        #expect(Schema.recordID(type: 3, start: -(1 << 31) - 1, n: 0) == nil, "before 1901-12-13")
        #expect(Schema.recordID(type: 3, start: (1 << 33) - (1 << 31), n: 0) == nil, "after 2174-02-25")
        #expect(Schema.recordID(type: 512, start: 0, n: 0) == nil)
        // A range reaching past the ends is clamped to what ids can hold.
        let range = try #require(Schema.recordIDs(type: 3, from: -10_000_000_000, to: 1_735_689_600))
        #expect(range.lowerBound == 3 << 54)
        #expect(range.upperBound == id | ((1 << 21) - 1))
    }

    @Test func outOfRangeRecordsAreSkippedAndCountedAndDuplicatesInOneExportStoredOnceWithTheirCopies() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try Archive(path: dir.appendingPathComponent("a.sqlite").path)
        func steps(_ start: Int64, _ value: Double, line: Int) -> Record {
            Record(
                type: "HKQuantityTypeIdentifierStepCount",
                value: .quantity(Quantity(value: value, unit: .count, originalValue: value, originalUnit: "count")),
                sourceName: "Phone", startDate: Timestamp(secondsSince1970: start, printedOffsetSeconds: 3600),
                endDate: Timestamp(secondsSince1970: start + 60, printedOffsetSeconds: 3600), line: line)
        }
        let read: ((ExportBatch) throws -> Void) throws -> ExportSummary = { consume in
            var batch = ExportBatch()
            batch.records = [
                steps(1_735_689_600, 10, line: 3), steps(-3_786_825_600, 5, line: 4),  // 1850
                steps(1_735_689_600, 10, line: 5), steps(1_735_689_600, 11, line: 6),
            ]
            try consume(batch)
            return ExportSummary(
                replaying: "made.xml", exportDate: Timestamp(secondsSince1970: 1_735_700_000), exportVersion: nil,
                locale: nil, me: nil, bytesRead: 100, timeZoneCounts: [:], diagnostics: [])
        }
        let first = try archive.importBatches(reading: read)
        #expect(first.recordsRead == 4)
        #expect(first.recordsSkipped == 1 && first.firstSkippedLine == 4)
        #expect(
            first.recordsNew == 2, "the second 10 steps is a copy of the first (one row); 11 steps is another record")
        // 4 read = 2 new + 1 skipped + 1 already present (the copy of line 3 within the export).
        #expect(first.recordsPresent == 1)
        let again = try archive.importBatches(reading: read)
        #expect(again.recordsNew == 0 && again.recordsSkipped == 1)
        // Again: the 3 stored ones are present; the skipped one is not counted as present.
        #expect(again.recordsPresent == 3)
        var values: [Double] = []
        var lines: [Int] = []
        _ = try archive.read { batch in
            values += batch.records.compactMap(\.quantity?.value)
            lines += batch.records.map(\.line)
        }
        #expect(values == [10, 10, 11], "replayed as often as the export held it")
        #expect(lines == [3, 3, 6], "the copies' first line")
    }
}

/// Every row of every table of `archive` (but `except`), in each table's key order, as text:
/// `table: v1 | v2 | ...`, ids included.
func rows(_ archive: Archive, except: Set<String>) throws -> [String] {
    // The `records` view too: one row per record (the tables hold them in blocks).
    let names = try archive.db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' OR name = 'records' ORDER BY name")
    var tables: [String] = []
    while try names.step() { tables.append(names.text(0)) }
    var out: [String] = []
    for table in tables where !except.contains(table) && !table.hasPrefix("sqlite_") {
        let s = try archive.db.prepare("SELECT * FROM \(table)")
        while try s.step() {
            out.append("\(table): " + (0..<s.columnCount).map { "\(s.value($0))" }.joined(separator: " | "))
        }
    }
    return out
}

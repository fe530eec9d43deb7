import Foundation
import HealthArchive
import SyntheticExport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `import`, `report --db` and `inspect --db` as a cron job runs them: separate processes,
/// killed, racing each other.
@Suite("Archive commands")
struct ArchiveCLITests {
    static func export(_ dir: URL, _ name: String, firstDay: String, days: Int, seed: UInt64 = 3) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let config = SyntheticExportConfiguration(firstDay: firstDay, days: days, seed: seed)
        try Data(SyntheticExport.makeExport(config).bytes).write(to: url)
        return url
    }

    /// `report --db` opens a writable archive once, writable, to read it and store its result
    /// tables: an SQLite database without tables (a file someone made, not an archive) must
    /// still be refused as a read-only open refuses it, and left byte for byte as it was (a
    /// writable open may create the schema only for `import`).
    @Test func reportDbRefusesAnEmptyDatabaseAndLeavesItAsItWas() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("empty.sqlite")
        #expect(try runTool("sqlite3", [db.path, "PRAGMA user_version = 7"]).status == 0)
        let before = try Data(contentsOf: db)
        #expect(before.count > 0)
        let r = try run(["report", "--db", db.path, "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the database is empty") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try Data(contentsOf: db) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    @Test func aDamagedExportInABatchIsNamedAndTheOthersAreImported() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.export(dir, "a.xml", firstDay: "2025-06-02", days: 2)
        let b = try Self.export(dir, "b.xml", firstDay: "2025-07-07", days: 2)
        let good = try Data(contentsOf: a)
        let damaged = dir.appendingPathComponent("damaged.xml")
        try good.prefix(good.count * 2 / 3).write(to: damaged)
        let db = dir.appendingPathComponent("h.sqlite").path
        let r = try run(["import", a.path, damaged.path, b.path, "--db", db])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(a.path + ": ") == true)
        #expect(lines.last?.hasPrefix(b.path + ": ") == true)
        #expect(r.stderr.hasPrefix("error: \(damaged.path): line "))
        #expect(r.stderr.contains("(nothing of it was imported)"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        // Exactly the two good exports: importing them again finds everything present.
        let archive = try Archive(path: db)
        let counts = try archive.rowCounts()
        #expect(counts["exports"] == 2)
        let again = try run(["import", a.path, b.path, "--db", db])
        #expect(again.status == 0)
        #expect(again.stdout.contains(", 0 new, "))
        #expect(try archive.rowCounts() == counts)
        #expect(try archive.integrityCheck() == "ok")
        // --quiet: nothing on success; errors still.
        let quiet = try run(["import", a.path, "--db", db, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let quietFail = try run(["import", damaged.path, "--db", db, "--quiet"])
        #expect(quietFail.status == 1 && quietFail.stdout.isEmpty && quietFail.stderr.contains(damaged.path))
    }

    @Test func aKilledImportLeavesTheArchiveAsItWas() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = try Self.export(dir, "small.xml", firstDay: "2025-06-02", days: 2)
        let big = try Self.export(dir, "big.xml", firstDay: "2025-08-04", days: 21)
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", small.path, "--db", db]).status == 0)
        let before = try Archive(path: db).rowCounts()
        // The export comes through a pipe: half of it is written, and the import waits for
        // more inside its transaction. The test hook's file shows that its first batch of
        // records is in that transaction (it has begun writing); then it is killed.
        let bytes = try Data(contentsOf: big)
        let writing = dir.appendingPathComponent("import-writing").path
        let p = Process()
        p.executableURL = binary
        p.arguments = ["import", "-", "--db", db]
        p.environment = ProcessInfo.processInfo.environment.merging(
            ["HEALTH_ANALYZER_TEST_IMPORT_WRITING": writing]) { $1 }
        let input = Pipe()
        let out = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
        let deadline = Date().addingTimeInterval(30)
        while p.isRunning && !FileManager.default.fileExists(atPath: writing) && Date() < deadline { usleep(2_000) }
        #expect(FileManager.default.fileExists(atPath: writing), "the import never began writing")
        #expect(p.isRunning, "the import ended before it was killed")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL)
        #expect(out.fileHandleForReading.readDataToEndOfFile().isEmpty, "killed before it committed")
        let archive = try Archive(path: db)
        #expect(try archive.integrityCheck() == "ok")
        #expect(try archive.rowCounts() == before)
        // And the next run imports it completely.
        let r = try run(["import", big.path, "--db", db])
        #expect(r.status == 0)
        #expect(r.stdout.contains(", 0 already present"))
        #expect(try archive.rowCounts()["records"]! > before["records"]! + 40_000)
    }

    @Test func concurrentImportsWaitForEachOther() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.export(dir, "a.xml", firstDay: "2025-06-02", days: 4)
        let b = try Self.export(dir, "b.xml", firstDay: "2025-09-01", days: 4)
        let db = dir.appendingPathComponent("h.sqlite").path
        // Two processes on a new file: one creates the schema, both import; a appears twice.
        let processes = try [a, b, a].map { input -> (Process, Pipe, Pipe) in
            let p = Process()
            p.executableURL = binary
            p.arguments = ["import", input.path, "--db", db]
            let out = Pipe()
            let err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            return (p, out, err)
        }
        var outputs: [String] = []
        for (p, out, err) in processes {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(text)\(errors)")
            outputs.append(text)
        }
        let archive = try Archive(path: db)
        #expect(try archive.integrityCheck() == "ok")
        // The same as importing them one after the other.
        let serial = dir.appendingPathComponent("serial.sqlite").path
        #expect(try run(["import", a.path, b.path, "--db", serial]).status == 0)
        let counts = try archive.rowCounts()
        #expect(counts == (try Archive(path: serial).rowCounts()))
        // Whichever of the two imports of a came second added nothing.
        let ofA = [outputs[0], outputs[2]]
        #expect(ofA.filter { $0.contains(", 0 new, ") }.count == 1, "\(ofA)")
    }

    @Test func reportAndInspectFromTheArchive() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.export(dir, "a.xml", firstDay: "2025-06-02", days: 3)
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", a.path, "--db", db, "--quiet"]).status == 0)
        let direct = dir.appendingPathComponent("direct")
        let fromDB = dir.appendingPathComponent("db")
        #expect(try run(["report", a.path, "--out", direct.path]).status == 0)
        let r = try run(["report", "--db", db, "--out", fromDB.path])
        #expect(r.status == 0)
        #expect(
            r.stdout.hasPrefix(
                "Read archive \(db): 2025-06-02 to 2025-06-04, 3 days in the period, 3 with data, zone Europe/Berlin\n")
        )
        for name in files(in: direct) {
            #expect(
                try Data(contentsOf: direct.appendingPathComponent(name))
                    == Data(contentsOf: fromDB.appendingPathComponent(name)), "\(name)")
        }
        // The daily and weekly results went into the archive, one row per day / week.
        let counts = try Archive(path: db).rowCounts()
        #expect(counts["daily_results"] == 3)
        #expect(counts["weekly_results"] == 1)
        let quiet = try run(["report", "--db", db, "--out", fromDB.path, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let inspect = try run(["inspect", "--db", db])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("Exports imported\n"))
        #expect(inspect.stdout.contains(", schema version 3)\n"), "the version the file has (Schema.swift)")
        #expect(inspect.stdout.contains(a.path))
        #expect(inspect.stdout.contains("Records per type\n"))
        // Refusals: one line, exit 1, the file untouched.
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("hello\n".utf8).write(to: notes)
        let refused = try run(["import", a.path, "--db", notes.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: \(notes.path): not an SQLite database (left unchanged)"))
        #expect(try Data(contentsOf: notes) == Data("hello\n".utf8))
        #expect(try run(["report", a.path, "--db", db, "--out", fromDB.path]).status == 64)
        #expect(try run(["import", a.path]).status == 64)
        let missing = dir.appendingPathComponent("missing.sqlite").path
        let noArchive = try run(["report", "--db", missing, "--out", fromDB.path])
        #expect(noArchive.status == 1)
        #expect(noArchive.stderr.hasPrefix("error: \(missing): no such archive"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// The sample export holds 15 exact duplicates (the import says "15 already present"), some
    /// with `HKTimeZone` metadata: `report --db` counts their zones as `report` does (1,388).
    /// GPX route files are not archived (references only), so `workouts.csv`'s route
    /// columns and the route-file line of report.md and report.html are the known differences and are left out.
    @Test func theSampleFromTheArchiveEqualsTheSample() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("h.sqlite").path
        let imported = try run(["import", sample.path, "--db", db])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains(" 15 already present;"), "\(imported.stdout)")
        let direct = dir.appendingPathComponent("direct")
        let fromDB = dir.appendingPathComponent("db")
        #expect(try run(["report", sample.path, "--out", direct.path, "--quiet"]).status == 0)
        let fromArchive = try run(["report", "--db", db, "--out", fromDB.path])
        #expect(fromArchive.status == 0)
        #expect(fromArchive.stdout.hasSuffix("\nopen \(fromDB.path)/report.html in a web browser\n"))
        func text(_ folder: URL, _ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let names = files(in: direct)
        #expect(names == files(in: fromDB) && names.count > 10)
        // report.md's route-file lines and report.json's warnings (the route-file warning, which the
        // archive cannot give: it keeps no GPX files) are the known differences.
        func withoutRoutes(_ s: String) -> [Substring] {
            s.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.contains("name a route file") && !$0.contains("route files named by workouts")
                    && !$0.hasPrefix("  \"warnings\": [")
            }
        }
        for name in names where !["workouts.csv", "report.md", "report.html", "report.json"].contains(name) {
            #expect(try text(direct, name) == text(fromDB, name), "\(name)")
        }
        #expect(withoutRoutes(try text(direct, "report.json")) == withoutRoutes(try text(fromDB, "report.json")))
        let report = try text(direct, "report.md")
        #expect(report.contains("(on 1,388 samples)"))
        #expect(withoutRoutes(report) == withoutRoutes(try text(fromDB, "report.md")))
        #expect(withoutRoutes(try text(direct, "report.html")) == withoutRoutes(try text(fromDB, "report.html")))
    }

    @Test func aFolderOfExportsImportsEachOfThem() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exports = dir.appendingPathComponent("exports")
        for (name, day) in [("2025-06", "2025-06-02"), ("2025-07", "2025-07-07")] {
            let folder = exports.appendingPathComponent("\(name)/apple_health_export")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try Self.export(folder, "export.xml", firstDay: day, days: 1)
        }
        let db = dir.appendingPathComponent("h.sqlite").path
        let r = try run(["import", exports.path, "--db", db])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(exports.path + "/2025-06/apple_health_export/export.xml: ") == true)
        #expect(lines.last?.hasPrefix(exports.path + "/2025-07/apple_health_export/export.xml: ") == true)
        #expect(try Archive(path: db).rowCounts()["exports"] == 2)
    }

    /// Metadata values and beat times are text the phone wrote (a user's note can hold anything):
    /// in a block they are JSON strings (docs/archive.md §6.1), so a quote, a backslash, a tab, a
    /// line feed and letters beyond ASCII must come back from SQLite's own JSON reader byte for
    /// byte, and `report --db` (our reader) must write what `report` writes from the XML.
    @Test func metadataTextAndBeatTimesComeBackByteForByte() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The XML's character references: &quot; is ", &#9; a tab, &#10; a line feed; &lt;&amp;&gt; is <&>.
        let note = "He said \"hi\" \\ then\ttab\nand é 😀"
        let marks = "<&>/"
        let time = "6:14:48.94 \"PM\\"
        let xml =
            xmlHead + exportDateLine
            + "<Record type=\"HKQuantityTypeIdentifierHeartRateVariabilitySDNN\" sourceName=\"Watch\" unit=\"ms\""
            + " value=\"41.5\" startDate=\"2025-06-02 18:14:00 +0000\" endDate=\"2025-06-02 18:15:00 +0000\">\n"
            + " <MetadataEntry key=\"Note\" value=\"He said &quot;hi&quot; \\ then&#9;tab&#10;and é 😀\"/>\n"
            + " <MetadataEntry key=\"Marks\" value=\"&lt;&amp;&gt;/\"/>\n"
            + " <HeartRateVariabilityMetadataList>\n"
            + "  <InstantaneousBeatsPerMinute bpm=\"61\" time=\"6:14:48.94 &quot;PM\\\"/>\n"
            + "  <InstantaneousBeatsPerMinute bpm=\"62\" time=\"é\"/>\n"
            + " </HeartRateVariabilityMetadataList>\n"
            + "</Record>\n" + steps("5", "2025-06-02 10:00:00") + "</HealthData>\n"
        let export = dir.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: export)
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", export.path, "--db", db, "--quiet"]).status == 0)
        func hex(_ s: String) -> String { s.utf8.map { String(format: "%02X", $0) }.joined() }
        #expect(
            try sqlite3(db, "SELECT key || '=' || hex(value) FROM record_metadata ORDER BY record_id, position")
                == "Note=\(hex(note))\nMarks=\(hex(marks))")
        #expect(
            try sqlite3(db, "SELECT bpm || '=' || hex(time) FROM heartbeats ORDER BY record_id, position")
                == "61.0=\(hex(time))\n62.0=\(hex("é"))")
        let fromXML = dir.appendingPathComponent("xml")
        let fromDB = dir.appendingPathComponent("db")
        #expect(try run(["report", export.path, "--out", fromXML.path]).status == 0)
        #expect(try run(["report", "--db", db, "--out", fromDB.path]).status == 0)
        let names = files(in: fromXML)
        #expect(names.contains("daily.csv") && files(in: fromDB) == names)
        for name in names where name.hasSuffix(".csv") {
            #expect(
                try Data(contentsOf: fromDB.appendingPathComponent(name))
                    == Data(contentsOf: fromXML.appendingPathComponent(name)), "\(name)")
        }
    }
}

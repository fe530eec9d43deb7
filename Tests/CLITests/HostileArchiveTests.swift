import Foundation
import SyntheticExport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Damaged, empty, read-only, full and busy archives. Each runs the CLI as a child.

/// `sqlite3 <db> <sql>`'s standard output, trimmed (the test's independent reader).
func sqlite3(_ db: String, _ sql: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    p.arguments = [db, sql]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A folder with an archive `h.sqlite` holding one 3-day export (and the export, `a.xml`).
func folderWithAnArchive(days: Int = 3) throws -> (dir: URL, db: String) {
    let dir = try temporaryFolder()
    let a = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: days)
    let db = dir.appendingPathComponent("h.sqlite").path
    let r = try run(["import", a.path, "--db", db, "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    return (dir, db)
}

@Suite("Hostile archives")
struct HostileArchiveTests {
    /// 4 KiB of garbage over the `record_blocks` table's root page (found with sqlite3; page n starts
    /// at (n − 1) × page_size): on main `import` wrote into the archive and said "… new". Now
    /// `PRAGMA integrity_check` refuses it first, and the file is byte-identical.
    @Test func importIntoADamagedArchiveIsRefusedAndLeftByteIdentical() throws {
        let (dir, db) = try folderWithAnArchive()
        let root = try #require(Int(try sqlite3(db, "SELECT rootpage FROM sqlite_master WHERE name = 'record_blocks'")))
        let pageSize = try #require(Int(try sqlite3(db, "PRAGMA page_size")))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: db)))
        var generator = SplitMix(seed: 17)
        for i in 0..<4096 { bytes[(root - 1) * pageSize + i] = UInt8(truncatingIfNeeded: generator.next()) }
        try Data(bytes).write(to: URL(fileURLWithPath: db))
        let b = try ArchiveCLITests.export(dir, "b.xml", firstDay: "2025-07-07", days: 2)
        let r = try run(["import", b.path, "--db", db])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr.hasPrefix("error: \(db): the archive is damaged (PRAGMA integrity_check: "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: db))) == bytes)
    }

    /// Hand-edited rows that pass `PRAGMA quick_check` but that the importer never writes
    /// a printed offset of 10^11 minutes (× 60 does not fit the 32-bit
    /// offset: on main `report --db` stopped with SIGILL), and a workout whose `start_utc` is
    /// NULL once the NOT NULL is edited out of the schema (main's force unwrap). Each is now the
    /// one-line "archive is damaged" error naming what is wrong, exit 1, the archive unchanged.
    /// A record block that is not JSON the importer writes (cut short) is damaged too, naming
    /// the block and the byte: "[[1,2" ends at byte 5 where a ',' or ']' must follow. So is a
    /// heartbeat whose time (field 15's second item, docs/archive.md §6.1) is edited to a
    /// number: a string must start there.
    @Test(arguments: ["offset", "null", "block", "beat"])
    func aHandEditedArchiveIsDamagedNotACrash(edit: String) throws {
        let (dir, db) = try folderWithAnArchive()
        var problem: String
        if edit == "offset" {
            // Field 6 of a record in its block is printed_offset_min (docs/archive.md §6.1).
            _ = try sqlite3(
                db,
                "UPDATE record_blocks SET records = json_set(records, '$[0][6]', 100000000000)"
                    + " WHERE id = (SELECT min(id) FROM record_blocks)")
            #expect(try sqlite3(db, "SELECT max(printed_offset_min) FROM records") == "100000000000")
            let block = try sqlite3(db, "SELECT min(id) FROM record_blocks")
            problem =
                "table record_blocks, row \(block), column records (record 0, field printed_offset_min): "
                + "100000000000 is not an offset of any zone in minutes"
        } else if edit == "block" {
            let block = try sqlite3(db, "SELECT min(id) FROM record_blocks")
            _ = try sqlite3(db, "UPDATE record_blocks SET records = '[[1,2' WHERE id = \(block)")
            problem = "record block \(block) is damaged at byte 5: expected ',' or ']'"
        } else if edit == "beat" {
            // The first record with heartbeats: its block and its index in the block.
            let found = try sqlite3(
                db,
                "SELECT b.id || ' ' || r.key FROM record_blocks b, json_each(b.records) r"
                    + " WHERE json_array_length(r.value) = 16 ORDER BY b.id, r.key LIMIT 1"
            ).split(separator: " ")
            try #require(found.count == 2)
            _ = try sqlite3(
                db,
                "UPDATE record_blocks SET records = json_set(records, '$[\(found[1])][15][0][1]', 5)"
                    + " WHERE id = \(found[0])")
            #expect(try sqlite3(db, "SELECT count(*) FROM heartbeats WHERE typeof(time) = 'integer'") == "1")
            let text = try sqlite3(db, "SELECT records FROM record_blocks WHERE id = \(found[0])")
            // The edited time is the first `,5]` after the record's `[[`: the 16th field's start.
            let records = Array(text.utf8)
            var at = 0
            var depth = 0
            var index = -1
            // Find record number found[1] (a depth-2 `[`), then its first beat's `,5]`.
            for (k, byte) in records.enumerated() {
                if byte == UInt8(ascii: "[") {
                    depth += 1
                    if depth == 2 { index += 1 }
                } else if byte == UInt8(ascii: "]") {
                    depth -= 1
                } else if byte == UInt8(ascii: "5"), depth == 4, index == Int(found[1])!,
                    records[k - 1] == UInt8(ascii: ","), records[k + 1] == UInt8(ascii: "]")
                {
                    at = k
                    break
                }
            }
            try #require(at > 0)
            problem = "record block \(found[0]) is damaged at byte \(at): expected '\"'"
        } else {
            #expect(try sqlite3(db, "SELECT count(*) FROM workouts") != "0")
            _ = try sqlite3(
                db,
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, "
                    + "'start_utc INTEGER NOT NULL', 'start_utc INTEGER') WHERE name = 'workouts';")
            _ = try sqlite3(db, "UPDATE workouts SET start_utc = NULL WHERE id = (SELECT min(id) FROM workouts)")
            #expect(try sqlite3(db, "SELECT count(*) FROM workouts WHERE start_utc IS NULL") == "1")
            let row = try sqlite3(db, "SELECT min(id) FROM workouts")
            problem = "table workouts, row \(row), column start_utc: NULL where every row has a value"
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", "--db", db, "--out", out.path])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(
            r.stderr == "error: \(db): the archive is damaged (\(problem)); left unchanged, restore it from a "
                + "backup or import into a new archive\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    /// A 0-byte file given as `--db`: on main `report --db` took it for an empty archive and
    /// exited 0 with an empty report, and `import` wrote a new archive into it. Every command
    /// now refuses it, and it stays 0 bytes.
    @Test func aZeroByteDbIsNotAnArchive() throws {
        let dir = try temporaryFolder()
        let db = dir.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: db, contents: nil))
        let a = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: 1)
        for arguments in [
            ["report", "--db", db, "--out", dir.appendingPathComponent("out").path], ["inspect", "--db", db],
            ["import", a.path, "--db", db],
        ] {
            let r = try run(arguments)
            #expect(r.status == 1, "\(arguments[0])")
            #expect(
                r.stderr
                    == "error: \(db): an SQLite database that is not a health-analyzer archive (the file is empty (0 bytes));"
                    + " left unchanged\n", "\(arguments[0])")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// A first `import` whose only input fails: on main it left a new, empty archive behind.
    /// A second input that succeeds keeps the archive.
    @Test func aFailedFirstImportLeavesNoArchive() throws {
        let dir = try temporaryFolder()
        let db = dir.appendingPathComponent("new.sqlite").path
        let broken = try hostileFile("broken.xml", Array((xmlHead + "<Record type=").utf8))
        let r = try run(["import", broken.path, "--db", db])
        #expect(r.status == 1)
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(files(in: dir).filter { $0.hasPrefix("new.sqlite") || $0.hasPrefix(".new.sqlite") } == [])
        let a = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: 1)
        let mixed = try run(["import", broken.path, a.path, "--db", db])
        #expect(mixed.status == 1)
        #expect(try sqlite3(db, "SELECT count(*) FROM exports") == "1")
    }

    /// The archive's folder bind-mounted read-only (root only; skipped visibly otherwise): on
    /// main `inspect --db` and `report --db` failed with "unable to open database file". Now
    /// both read it (`immutable=1`: the folder cannot hold `-shm`), and `report --db` says the
    /// result tables were not stored.
    @Test func aReadOnlyArchiveIsReadable() throws {
        let (dir, db) = try folderWithAnArchive()
        let folder = dir.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: db, toPath: folder.appendingPathComponent("h.sqlite").path)
        let roDB = folder.appendingPathComponent("h.sqlite").path
        guard getuid() == 0, try system("/usr/bin/mount", ["--bind", folder.path, folder.path]) == 0 else {
            print("skipped: a read-only bind mount needs root")
            return
        }
        defer { _ = try? system("/usr/bin/umount", [folder.path]) }
        guard try system("/usr/bin/mount", ["-o", "remount,ro,bind", folder.path]) == 0 else {
            print("skipped: the read-only remount failed")
            return
        }
        let inspect = try run(["inspect", "--db", roDB])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("Exports imported\n"))
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", "--db", roDB, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the result tables (daily_results, weekly_results) were not stored"), "\(r.stderr)")
        #expect(try csvRows(out.appendingPathComponent("daily.csv")).count == 3)
        // import cannot write there, and says why (on main: "unable to open database file").
        let a = dir.appendingPathComponent("a.xml")
        let imported = try run(["import", a.path, "--db", roDB])
        #expect(imported.status == 1)
        #expect(imported.stderr.hasPrefix("error: \(roDB): the archive is read-only ("), "\(imported.stderr)")
    }

    /// A 0444 archive in a writable folder, `report --db` run as another user than root (root
    /// writes 0444 files; the test runs the CLI as `nobody` with setpriv when it is root): on
    /// main it replaced --out and then exited 1 ("attempt to write a readonly database"). Now
    /// the result is decided before --out changes: exit 0, --out written, a warning.
    @Test func aReadOnlyArchiveFileNeverFailsAfterReplacingOut() throws {
        let (dir, db) = try folderWithAnArchive()
        #expect(chmod(db, 0o444) == 0)
        #expect(chmod(dir.path, 0o777) == 0)
        let out = dir.appendingPathComponent("out")
        var arguments = [binary.path, "report", "--db", db, "--out", out.path]
        if getuid() == 0 { arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: getuid() == 0 ? "/usr/bin/setpriv" : binary.path)
        p.arguments = getuid() == 0 ? arguments : Array(arguments.dropFirst())
        p.environment = ["TMPDIR": "/tmp", "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("is read-only"), "\(stderr)")
        #expect(stderr.contains("the result tables (daily_results, weekly_results) were not stored"), "\(stderr)")
        #expect(try csvRows(out.appendingPathComponent("daily.csv")).count == 3)
        #expect(try sqlite3(db, "SELECT count(*) FROM sqlite_master WHERE name = 'daily_results'") == "0")
    }

    /// The archive on a full 2 MiB tmpfs (root only; skipped visibly otherwise): on main
    /// `report --db` wrote --out and then said only "disk I/O error". Now the result tables are
    /// stored first: the failure names the archive, says the disk is full, and --out is not
    /// created.
    @Test func aFullDiskDuringReportDbNamesTheFileAndLeavesOutAlone() throws {
        let (dir, db) = try folderWithAnArchive(days: 1)
        guard let disk = try FullDisk(at: dir.appendingPathComponent("small")) else { return }
        defer { disk.unmount() }
        let small = try disk.copy(db, as: "h.sqlite")
        // Fill what is left; then free 36 KiB for the reader's -shm (32 KiB), leaving 4 KiB: less
        // than one -wal frame of the result tables (4 KiB + 24).
        try disk.fill(leavingFree: 36_864)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", "--db", small, "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(small): the disk is full"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// `report --db` started while an import holds the write lock: on main it waited silently
    /// for the commit and then stored the results of its snapshot (1 export) in an archive of 2.
    /// Now the wait is announced after a second, and the results are not stored because the
    /// archive changed since the read; the report itself is written.
    @Test func reportDbDuringAnImportDoesNotStoreStaleResults() throws {
        let (dir, db) = try folderWithAnArchive(days: 2)
        // 120 days (about 100 MB of XML): an import of several seconds, holding the write lock
        // from its start (integrity_check, then BEGIN IMMEDIATE) to its commit.
        let big = try ArchiveCLITests.export(dir, "big.xml", firstDay: "2025-08-04", days: 120)
        let writing = dir.appendingPathComponent("import-is-writing").path
        let importer = Process()
        importer.executableURL = binary
        importer.arguments = ["import", big.path, "--db", db, "--quiet"]
        var environment = ProcessInfo.processInfo.environment
        // The import makes this file once its first batch is in its open transaction.
        environment["HEALTH_ANALYZER_TEST_IMPORT_WRITING"] = writing
        importer.environment = environment
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: writing) && importer.isRunning && Date() < deadline {
            usleep(5_000)
        }
        try #require(importer.isRunning, "the import ended before the report started: the test proves nothing")
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", "--db", db, "--out", out.path], limit: 600)
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("note: waiting for another process"), "\(r.stderr)")
        #expect(r.stderr.contains("an import committed while the report was made (exports 1, then 2)"), "\(r.stderr)")
        #expect(try sqlite3(db, "SELECT count(*) FROM sqlite_master WHERE name = 'daily_results'") == "0")
        // The report is the archive as read: the 2 days of the first export.
        #expect(try csvRows(out.appendingPathComponent("daily.csv")).count == 2)
    }
}

/// A small deterministic generator for test bytes (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation
import Testing

/// The files of a report folder by name, for a byte-for-byte comparison.
private func reportFiles(_ dir: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
        var isFolder: ObjCBool = false
        let url = dir.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            files[name] = try Data(contentsOf: url)
        }
    }
    return files
}

/// Version 1 archives (one `records` row per record) are upgraded in place (docs/archive.md §6.2).
@Suite("Archive upgrade")
struct ArchiveUpgradeTests {
    /// Version 1's `records` table, as Schema.swift created it before record blocks.
    static let version1Records = """
        CREATE TABLE records_v1 (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL REFERENCES sources(id),
          source_version_id INTEGER REFERENCES source_versions(id), device_id INTEGER REFERENCES devices(id),
          duration_s INTEGER NOT NULL, creation_delay_s INTEGER, printed_offset_min INTEGER NOT NULL,
          value REAL, unit_id INTEGER REFERENCES units(id), original_value REAL,
          value_text_id INTEGER REFERENCES value_texts(id), export_id INTEGER NOT NULL REFERENCES exports(id),
          line INTEGER, copies INTEGER NOT NULL DEFAULT 1,
          type_id INTEGER GENERATED ALWAYS AS (id >> 54) VIRTUAL,
          start_utc INTEGER GENERATED ALWAYS AS (((id >> 21) & 8589934591) - 2147483648) VIRTUAL,
          end_utc INTEGER GENERATED ALWAYS AS (start_utc + duration_s) VIRTUAL,
          creation_utc INTEGER GENERATED ALWAYS AS (start_utc + duration_s + creation_delay_s) VIRTUAL);
        """

    /// Rewrites the archive at `db` as version 1 wrote it, with sqlite3: the `records` view's
    /// rows into a `records` table, the blocks and every view gone, `user_version` 1.
    static func makeVersion1(_ db: String) throws {
        let columns =
            "id, source_id, source_version_id, device_id, duration_s, creation_delay_s, printed_offset_min, value,"
            + " unit_id, original_value, value_text_id, export_id, line, copies"
        let views = try sqlite3(
            db, "SELECT group_concat('DROP VIEW ' || name || ';', ' ') FROM sqlite_master WHERE type = 'view'")
        let script =
            version1Records + "INSERT INTO records_v1 (\(columns)) SELECT \(columns) FROM records ORDER BY id; "
            + views + " DROP TABLE record_blocks; DROP TABLE record_copies;"
            + " ALTER TABLE records_v1 RENAME TO records; PRAGMA user_version = 1;"
        _ = try sqlite3(db, script)
    }

    /// An archive of two overlapping exports (so records of both, and exact duplicates the
    /// generator writes), turned into version 1: `report --db` (which reads) upgrades it and
    /// writes byte for byte what it wrote before, and the upgraded archive holds the same rows:
    /// every column of the `records` view, in id order, equals version 1's table.
    @Test func aVersion1ArchiveIsUpgradedAndReportsTheSame() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: 6)
        let b = try ArchiveCLITests.export(dir, "b.xml", firstDay: "2025-06-05", days: 6)
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", a.path, b.path, "--db", db, "--quiet"]).status == 0)
        let before = dir.appendingPathComponent("before")
        let r1 = try run(["report", "--db", db, "--out", before.path, "--quiet"])
        #expect(r1.status == 0, "\(r1.stderr)")
        let all =
            "SELECT id, source_id, source_version_id, device_id, duration_s, creation_delay_s, printed_offset_min,"
            + " quote(value), unit_id, quote(original_value), value_text_id, export_id, line, copies, type_id,"
            + " start_utc, end_utc, creation_utc FROM records ORDER BY id"
        let rows = try sqlite3(db, all)
        try Self.makeVersion1(db)
        #expect(try sqlite3(db, "PRAGMA user_version") == "1")
        #expect(try sqlite3(db, all) == rows, "the version 1 table holds what the blocks held")
        let after = dir.appendingPathComponent("after")
        let r2 = try run(["report", "--db", db, "--out", after.path, "--quiet"])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try sqlite3(db, "PRAGMA user_version") == "2")
        #expect(try sqlite3(db, "SELECT count(*) FROM sqlite_master WHERE name = 'record_blocks'") == "1")
        #expect(try sqlite3(db, all) == rows)
        #expect(try sqlite3(db, "PRAGMA integrity_check") == "ok")
        let expected = try reportFiles(before)
        #expect(!expected.isEmpty)
        #expect(try reportFiles(after) == expected)
        // Importing again into the upgraded archive finds every record present.
        let again = try run(["import", a.path, "--db", db])
        #expect(again.stdout.contains(" 0 new, "), "\(again.stdout)")
    }
}

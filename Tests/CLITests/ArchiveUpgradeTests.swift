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

/// Archives of versions 1 (one `records` row per record) and 2 (a top-level record's metadata and
/// heartbeats in rows of their own) are upgraded in place (docs/archive.md §6.2).
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

    /// Rewrites the archive at `db` as version `version` (1 or 2) wrote it, with sqlite3.
    /// Both: the `heartbeats` view's rows into a `heartbeats` table, the `record_metadata` view's
    /// into `metadata` (owner kind 1), each block's records without their fields 14 and 15, and
    /// every view gone. Version 1 also: the `records` view's rows into a `records` table, and no
    /// blocks.
    static func makeOlder(_ db: String, version: Int) throws {
        let columns =
            "id, source_id, source_version_id, device_id, duration_s, creation_delay_s, printed_offset_min, value,"
            + " unit_id, original_value, value_text_id, export_id, line, copies"
        let views = try sqlite3(
            db, "SELECT group_concat('DROP VIEW ' || name || ';', ' ') FROM sqlite_master WHERE type = 'view'")
        var script = """
            CREATE TABLE heartbeats_v2 (record_id INTEGER NOT NULL, position INTEGER NOT NULL, bpm REAL NOT NULL,
              time TEXT NOT NULL, PRIMARY KEY (record_id, position)) WITHOUT ROWID;
            INSERT INTO heartbeats_v2 SELECT record_id, position, bpm, time FROM heartbeats;
            INSERT INTO metadata (owner_kind, owner_id, position, key_id, value)
              SELECT 1, record_id, position, key_id, value FROM record_metadata;
            """
        if version == 1 {
            script +=
                version1Records + "INSERT INTO records_v1 (\(columns)) SELECT \(columns) FROM records ORDER BY id; "
                + views + " DROP TABLE record_blocks; DROP TABLE record_copies;"
                + " ALTER TABLE records_v1 RENAME TO records;"
        } else {
            script +=
                "UPDATE record_blocks SET records = (SELECT json_group_array(json(json_remove(r.value, '$[15]',"
                + " '$[14]'))) FROM json_each(record_blocks.records) r); " + views
        }
        script += " ALTER TABLE heartbeats_v2 RENAME TO heartbeats; PRAGMA user_version = \(version);"
        _ = try sqlite3(db, script)
    }

    /// An archive of two overlapping exports (so records of both, and exact duplicates the
    /// generator writes), turned into version 1 or 2: `report --db` (which reads) upgrades it
    /// and writes byte for byte what it wrote before, and the upgraded archive holds the same
    /// rows: every column of the `records` view in id order, and of the `record_metadata` and
    /// `heartbeats` views, equal the older version's tables (and what the views showed first).
    @Test(arguments: [1, 2])
    func anOlderArchiveIsUpgradedAndReportsTheSame(version: Int) throws {
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
        let metadata = "SELECT record_id, position, key_id, value FROM record_metadata ORDER BY record_id, position"
        let oldMetadata =
            "SELECT owner_id, position, key_id, value FROM metadata WHERE owner_kind = 1 ORDER BY owner_id, position"
        let beats = "SELECT record_id, position, quote(bpm), time FROM heartbeats ORDER BY record_id, position"
        let rows = try sqlite3(db, all)
        let metadataRows = try sqlite3(db, metadata)
        let beatRows = try sqlite3(db, beats)
        // The generator's Watch writes HKMetadataKeyHeartRateMotionContext on heart rates, and
        // beats on HRV records: both lists are far from empty.
        #expect(metadataRows.split(separator: "\n").count > 100)
        #expect(beatRows.split(separator: "\n").count > 100)
        #expect(try sqlite3(db, "SELECT count(*) FROM metadata WHERE owner_kind = 1") == "0")
        try Self.makeOlder(db, version: version)
        #expect(try sqlite3(db, "PRAGMA user_version") == "\(version)")
        if version == 1 { #expect(try sqlite3(db, all) == rows, "the version 1 table holds what the blocks held") }
        #expect(try sqlite3(db, oldMetadata) == metadataRows, "version 2's metadata rows hold what the blocks held")
        #expect(try sqlite3(db, beats) == beatRows, "version 2's heartbeats table holds what the blocks held")
        let after = dir.appendingPathComponent("after")
        let r2 = try run(["report", "--db", db, "--out", after.path, "--quiet"])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try sqlite3(db, "PRAGMA user_version") == "3")
        #expect(try sqlite3(db, "SELECT type FROM sqlite_master WHERE name = 'heartbeats'") == "view")
        #expect(try sqlite3(db, "SELECT count(*) FROM metadata WHERE owner_kind = 1") == "0")
        #expect(try sqlite3(db, all) == rows)
        #expect(try sqlite3(db, metadata) == metadataRows)
        #expect(try sqlite3(db, beats) == beatRows)
        #expect(try sqlite3(db, "PRAGMA integrity_check") == "ok")
        let expected = try reportFiles(before)
        #expect(!expected.isEmpty)
        #expect(try reportFiles(after) == expected)
        // Importing again into the upgraded archive finds every record present.
        let again = try run(["import", a.path, "--db", db])
        #expect(again.stdout.contains(" 0 new, "), "\(again.stdout)")
    }
}

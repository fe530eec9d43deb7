// Upgrades an archive of an earlier schema version to `Schema.version`, in place, in one write
// transaction: an archive holds a person's history across exports, which a new release must
// keep (docs/archive.md "Versions").

extension Schema {
    /// Turns a version 1 archive into version 2 inside the caller's write transaction: the
    /// `records` table (one row per record) becomes `record_blocks` (RecordBlocks.swift) and
    /// `record_copies`, with the same ids, values and counts; every view is made again.
    /// Metadata and heartbeats keep their rows: they name records by the same ids.
    /// - Throws: `SQLiteError`, or `DamagedRow` for a row version 1 never wrote.
    static func upgradeFromVersion1(_ db: Connection) throws {
        let views = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'")
        var names: [String] = []
        while try views.step() { names.append(views.text(0)) }
        // Names from sqlite_master, quoted as identifiers: not values.
        for name in names {
            let quoted = name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
            try db.execute("DROP VIEW \"\(quoted)\"")
        }
        for statement in create
        where statement.hasPrefix("CREATE TABLE record_blocks") || statement.hasPrefix("CREATE TABLE record_copies") {
            try db.execute(statement)
        }
        let rows = try db.prepare(
            """
            SELECT id, source_id, duration_s, value, unit_id, printed_offset_min, export_id, line, source_version_id,
              device_id, creation_delay_s, original_value, value_text_id, copies FROM records ORDER BY id
            """)
        let block = try db.prepare("INSERT INTO record_blocks (id, count, records) VALUES (?, ?, ?)")
        let copies = try db.prepare("INSERT INTO record_copies (id, copies) VALUES (?, ?)")
        var pending: [StoredRecord] = []
        var text: [UInt8] = []
        func flush() throws {
            guard let first = pending.first else { return }
            try RecordBlock.write(pending, block: RecordBlock.blockID(ofRecord: first.id), with: block, text: &text)
            pending.removeAll(keepingCapacity: true)
        }
        while try rows.step() {
            let id = rows.int64(0)
            if let first = pending.first, RecordBlock.blockID(ofRecord: first.id) != RecordBlock.blockID(ofRecord: id) {
                try flush()
            }
            guard !rows.isNull(2) else { throw DamagedRow(problem: "a record has no duration_s, which every row has") }
            pending.append(
                StoredRecord(
                    id: id, source: rows.int64(1), duration: rows.int64(2), value: rows.doubleOrNil(3),
                    unit: rows.int64OrNil(4), offsetMinutes: rows.int64(5), export: rows.int64(6),
                    line: rows.int64OrNil(7), version: rows.int64OrNil(8), device: rows.int64OrNil(9),
                    creationDelay: rows.int64OrNil(10), original: rows.doubleOrNil(11), text: rows.int64OrNil(12)))
            let n = rows.int64(13)
            if n > 1 {
                copies.bind(1, id)
                copies.bind(2, n)
                try copies.run()
            }
        }
        try flush()
        try db.execute("DROP TABLE records")
        for statement in Schema.views { try db.execute(statement) }
        try db.execute("PRAGMA user_version = 2")
    }
}

import HealthExport

// Upgrades an archive of an earlier schema version to `Schema.version`, in place, in one write
// transaction: an archive holds a person's history across exports, which a new release must
// keep (docs/archive.md "Versions").
extension Schema {
    /// Turns a version 1 or 2 archive into version 3 inside the caller's write transaction, one
    /// step per version, with the same ids, values, lines, copies, metadata and heartbeats; every
    /// view is made again.
    /// - Throws: `SQLiteError`, or `DamagedRow` for a row those versions never wrote.
    static func upgrade(_ db: Connection, from version: Int64) throws {
        let views = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'")
        var names: [String] = []
        while try views.step() { names.append(views.text(0)) }
        // Names from sqlite_master, quoted as identifiers: not values.
        for name in names {
            let quoted = name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
            try db.execute("DROP VIEW \"\(quoted)\"")
        }
        if version <= 1 { try blocksFromVersion1(db) }
        if version <= 2 { try metadataIntoBlocks(db) }
        for statement in Schema.views { try db.execute(statement) }
        try db.execute("PRAGMA user_version = \(Schema.version)")
    }

    /// Version 1 to 2: the `records` table (one row per record) becomes `record_blocks`
    /// (RecordBlocks.swift) and `record_copies`, with the same ids, values and counts.
    /// Metadata and heartbeats keep their rows: they name records by the same ids.
    private static func blocksFromVersion1(_ db: Connection) throws {
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
    }

    /// Version 2 to 3: the `metadata` rows of top-level records (owner kind 1) and the
    /// `heartbeats` table move into the records' blocks, in the same order.
    /// - Throws: `DamagedRow` for a row that names a record no block holds.
    private static func metadataIntoBlocks(_ db: Connection) throws {
        let metadata = try db.prepare(
            "SELECT owner_id, key_id, value FROM metadata WHERE owner_kind = 1 ORDER BY owner_id, position")
        let beats = try db.prepare("SELECT record_id, bpm, time FROM heartbeats ORDER BY record_id, position")
        var metadataOwner = try metadata.step() ? metadata.int64(0) : Int64.max
        var beatOwner = try beats.step() ? beats.int64(0) : Int64.max
        // The blocks that own rows, found from the rows' ids: a block is read and written once
        // (never while a statement reads the table).
        let read = try db.prepare("SELECT records FROM record_blocks WHERE id = ?")
        let write = try db.prepare("INSERT OR REPLACE INTO record_blocks (id, count, records) VALUES (?, ?, ?)")
        var records: [StoredRecord] = []
        var text: [UInt8] = []
        /// The next row's record is in no block (or not in the one that holds its id).
        func orphan() -> DamagedRow {
            DamagedRow(problem: "record \(min(metadataOwner, beatOwner)) has metadata or heartbeats but no block")
        }
        while min(metadataOwner, beatOwner) < Int64.max {
            let block = RecordBlock.blockID(ofRecord: min(metadataOwner, beatOwner))
            read.bind(1, block)
            guard try read.step() else { throw orphan() }
            try read.withTextBytes(0) { try RecordBlock.decode($0, block: block, into: &records) }
            read.reset()
            for k in records.indices {
                let id = records[k].id
                while metadataOwner == id {
                    records[k].metadata.append(StoredMetadataEntry(key: metadata.int64(1), value: metadata.text(2)))
                    metadataOwner = try metadata.step() ? metadata.int64(0) : Int64.max
                }
                while beatOwner == id {
                    records[k].heartbeats.append(InstantaneousBeatsPerMinute(bpm: beats.double(1), time: beats.text(2)))
                    beatOwner = try beats.step() ? beats.int64(0) : Int64.max
                }
            }
            if RecordBlock.blockID(ofRecord: min(metadataOwner, beatOwner)) == block { throw orphan() }
            try RecordBlock.write(records, block: block, with: write, text: &text)
        }
        try db.execute("DELETE FROM metadata WHERE owner_kind = 1")
        try db.execute("DROP TABLE heartbeats")
    }
}

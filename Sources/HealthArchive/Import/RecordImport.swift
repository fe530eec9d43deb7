import HealthExport

/// The identity of a top-level record within one type: source, instants, value and unit.
struct RecordIdentity: Hashable {
    var source: Int64
    var start: Int64
    var end: Int64
    var value: UInt64
    var unit: Int64
    var text: Int64

    static func valueKey(_ v: Double?) -> UInt64 {
        guard let v else { return UInt64.max }
        return v == 0 ? 0 : v.bitPattern  // -0 is stored as 0
    }

    /// One word mixed from the six fields (multiply and rotate), so the dictionary's SipHash
    /// runs over 8 bytes instead of 48: the import hashes every record twice. Equality still
    /// compares every field.
    func hash(into hasher: inout Hasher) {
        @inline(__always) func mix(_ h: UInt64, _ field: UInt64) -> UInt64 {
            let x = (h ^ field) &* 0xBF58_476D_1CE4_E5B9
            return (x << 31) | (x >> 33)
        }
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        h = mix(h, UInt64(bitPattern: source))
        h = mix(h, UInt64(bitPattern: start))
        h = mix(h, UInt64(bitPattern: end))
        h = mix(h, value)
        h = mix(h, UInt64(bitPattern: unit))
        h = mix(h, UInt64(bitPattern: text))
        hasher.combine(h)
    }
}

/// The part of an import that writes top-level records (with their metadata and heartbeats)
/// and correlations (with their records), each once: a record the archive holds already is
/// counted as a copy, not stored again (its copy's metadata is not compared). Top-level records,
/// their metadata and heartbeats included, go into blocks (RecordBlocks.swift):
/// each batch reads the blocks its records fall in, adds to them, and writes the blocks it
/// changed once, at the batch's end.
final class RecordImport {
    let db: Connection
    let exportID: Int64
    let lookups: ImportLookups
    let readBlocks, writeBlock, readRecordCopies, writeRecordCopies: Statement
    let readSeen, writeSeen: Statement
    let insertCorrelation, insertCorrelationRecord: Statement

    /// The blocks this batch read or made, by block id, and which of them it changed.
    var blocks: [Int64: [StoredRecord]] = [:]
    var changed: Set<Int64> = []
    /// Blocks holding records this import stored (their export id moves when the export turns
    /// out to be one the archive has: `moveRecords(to:)`).
    var blocksWithNewRecords: Set<Int64> = []
    /// Blocks holding a record that an earlier import stored and this batch counted a copy of
    /// (their `temp.import_seen` row is written at the batch's end).
    var seenChanged: Set<Int64> = []
    private var text: [UInt8] = []

    /// Days apart beyond which two starts of one type are looked up separately.
    static let windowGap: Int64 = 2 * 86_400

    init(db: Connection, exportID: Int64, lookups: ImportLookups) throws {
        self.db = db
        self.exportID = exportID
        self.lookups = lookups
        let recordColumns =
            "type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc, printed_offset_min,"
            + " value, unit_id, original_value, value_text_id"
        readBlocks = try db.prepare("SELECT id, records FROM record_blocks WHERE id BETWEEN ? AND ?")
        writeBlock = try db.prepare("INSERT OR REPLACE INTO record_blocks (id, count, records) VALUES (?, ?, ?)")
        readRecordCopies = try db.prepare("SELECT id, copies FROM record_copies WHERE id BETWEEN ? AND ?")
        writeRecordCopies = try db.prepare("INSERT OR REPLACE INTO record_copies (id, copies) VALUES (?, ?)")
        // This import's copies of records that earlier imports stored (see `consume`), one row
        // per block: `seen` is (record id, copies) pairs of Int64s. A temporary table, so that
        // memory stays O(batch) however large the export; one row per block, not per record,
        // so that re-importing an export writes a row per block and batch, not per record.
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS import_seen (block INTEGER PRIMARY KEY, seen BLOB NOT NULL)")
        try db.execute("DELETE FROM temp.import_seen")
        readSeen = try db.prepare("SELECT seen FROM temp.import_seen WHERE block BETWEEN ? AND ?")
        writeSeen = try db.prepare("INSERT OR REPLACE INTO temp.import_seen (block, seen) VALUES (?, ?)")
        insertCorrelation = try db.prepare(
            """
            INSERT INTO correlations (type_id, source_id, source_version_id, device_id, start_utc, end_utc,
              creation_utc, printed_offset_min, export_id) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
            """)
        insertCorrelationRecord = try db.prepare(
            "INSERT INTO correlation_records (correlation_id, position, \(recordColumns))"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
    }

    /// Looks up, per type and per stretch of starts, the identities the archive already holds,
    /// then stores the records that are new, with their line in this export (the smallest of
    /// their copies'). A block keeps its records in id order (type, start, then `n`).
    ///
    /// Exact duplicates (docs/deduplication.md §2) are one record whose `copies` (in
    /// `record_copies` when above 1) is the most copies any one imported export held: the
    /// archive is the union of its exports, so two exports each holding a pair keep a pair, and
    /// re-importing an export changes nothing. This import's count of a record stored by an
    /// earlier import lives in `temp.import_seen` (a duplicate can be in another batch); of a
    /// record this import stored, in `record_copies` itself.
    func consume(_ records: [Record], outcome: inout ImportOutcome) throws {
        var keys: [(type: Int64, start: Int64, index: Int)] = []
        keys.reserveCapacity(records.count)
        var types = [Int64](repeating: 0, count: records.count)
        // Through a pointer: an array's element in a loop's `where` is copied (retains and
        // releases of every field), a pointer's is not.
        try records.withUnsafeBufferPointer { records in
            for i in records.indices where !records[i].isNestedInCorrelation {
                let t = try lookups.recordTypeID(records[i])
                types[i] = t
                keys.append((t, records[i].startDate.secondsSince1970, i))
            }
        }
        if keys.isEmpty { return }
        keys.sort { ($0.type, $0.start) < ($1.type, $1.start) }
        var windowOf = [Int](repeating: -1, count: records.count)
        var known: [Window] = []
        var first = 0
        while first < keys.count {
            var last = first
            while last + 1 < keys.count, keys[last + 1].type == keys[first].type,
                keys[last + 1].start - keys[last].start <= Self.windowGap
            {
                last += 1
            }
            known.append(
                try Window(
                    self, type: keys[first].type, from: keys[first].start, to: keys[last].start,
                    adding: last - first + 1))
            for k in first...last { windowOf[keys[k].index] = known.count - 1 }
            first = last + 1
        }
        var lastBlock: Int64 = -1
        try records.withUnsafeBufferPointer { records in
            for i in records.indices where !records[i].isNestedInCorrelation {
                try store(records[i], type: types[i], in: &known[windowOf[i]], lastBlock: &lastBlock, &outcome)
            }
        }
        try writeSeen(known)
        try writeChangedBlocks()
    }

    /// Writes the `temp.import_seen` row of every block in `seenChanged`: each record of it that
    /// an earlier import stored and this import has read, with how many copies it has read. A
    /// window holds every record of its blocks, so the row is whole.
    func writeSeen(_ windows: [Window]) throws {
        if seenChanged.isEmpty { return }
        var rows: [Int64: [Int64]] = [:]
        for window in windows {
            for stored in window.identities.values where !stored.byThisImport && stored.seen > 0 {
                let block = RecordBlock.blockID(ofRecord: stored.id)
                if seenChanged.contains(block) {
                    rows[block, default: []].append(contentsOf: [stored.id, stored.seen])
                }
            }
        }
        for (block, pairs) in rows {
            writeSeen.bind(1, block)
            writeSeen.bindBlob(2, pairs)
            try writeSeen.run()
        }
        seenChanged.removeAll(keepingCapacity: true)
    }

    /// Stores `r` (of type id `type`) unless `window` holds it already, then counts a copy.
    @inline(__always)
    private func store(
        _ r: borrowing Record, type: Int64, in window: inout Window, lastBlock: inout Int64,
        _ outcome: inout ImportOutcome
    ) throws {
        outcome.recordsRead += 1
        let source = try lookups.recordSourceID(r)
        let (value, unit, original, text) = try lookups.valueColumns(r)
        let identity = RecordIdentity(
            source: source, start: r.startDate.secondsSince1970, end: r.endDate.secondsSince1970,
            value: RecordIdentity.valueKey(value), unit: unit ?? 0, text: text ?? 0)
        if let stored = window.identities[identity] {
            return try countCopy(of: identity, stored, line: r.line, in: &window)
        }
        let n = window.nextN[identity.start, default: 0]
        guard let id = Schema.recordID(type: type, start: identity.start, n: n) else {
            outcome.recordsSkipped += 1
            if outcome.firstSkippedLine == 0 { outcome.firstSkippedLine = r.line }
            return
        }
        window.nextN[identity.start] = n + 1
        let block = RecordBlock.blockID(ofRecord: id)
        blocks[block, default: []].append(
            StoredRecord(
                id: id, source: source, duration: identity.end - identity.start, value: value, unit: unit,
                offsetMinutes: Int64(r.startDate.printedOffsetSeconds / 60), export: exportID,
                line: Int64(r.line), version: try lookups.versionID(r.sourceVersion),
                device: try lookups.deviceID(r.device),
                creationDelay: r.creationDate.map { $0.secondsSince1970 - identity.end }, original: original,
                text: text, metadata: r.metadata.isEmpty ? [] : try lookups.storedMetadata(r.metadata),
                heartbeats: r.heartbeats))
        if block != lastBlock {
            changed.insert(block)
            blocksWithNewRecords.insert(block)
            lastBlock = block
        }
        window.identities[identity] = Window.Stored(id: id, copies: 1, seen: 1, byThisImport: true, line: r.line)
        outcome.recordsNew += 1
    }

    /// Writes the blocks this batch changed (records in id order) and forgets the batch's blocks.
    func writeChangedBlocks() throws {
        for block in changed {
            blocks[block]!.sort { $0.id < $1.id }
            try RecordBlock.write(blocks[block]!, block: block, with: writeBlock, text: &text)
        }
        changed.removeAll(keepingCapacity: true)
        blocks.removeAll(keepingCapacity: true)
    }

    /// Reads the blocks with ids in `range` into `blocks`, but for those this batch has.
    func loadBlocks(_ range: ClosedRange<Int64>) throws {
        let s = readBlocks
        defer { s.reset() }
        s.bind(1, range.lowerBound)
        s.bind(2, range.upperBound)
        var decoded: [StoredRecord] = []
        while try s.step() {
            let block = s.int64(0)
            if blocks[block] != nil { continue }
            try s.withTextBytes(1) { try RecordBlock.decode($0, block: block, into: &decoded) }
            blocks[block] = decoded
        }
    }

    /// The export id of the records this import stored becomes `export` (the same export
    /// imported before: its first row stays).
    func moveRecords(to export: Int64) throws {
        for block in blocksWithNewRecords.sorted() {
            try loadBlocks(block...block)
            guard var records = blocks[block] else { continue }
            for k in records.indices where records[k].export == exportID { records[k].export = export }
            blocks[block] = records
            changed.insert(block)
        }
        try writeChangedBlocks()
    }

    /// One more copy of a stored record in this export: raises its `copies` when this export
    /// holds more of it than any before. A record this import stored keeps the smallest line of
    /// its copies (with parser threads, a later copy can arrive first), as the analyzer notes lines.
    func countCopy(of identity: RecordIdentity, _ stored: Window.Stored, line: Int, in window: inout Window) throws {
        var stored = stored
        stored.seen += 1
        if stored.byThisImport && line < stored.line {
            stored.line = line
            let block = RecordBlock.blockID(ofRecord: stored.id)
            if let k = blocks[block]?.firstIndex(where: { $0.id == stored.id }) {
                blocks[block]![k].line = Int64(line)
                changed.insert(block)
            }
        }
        if !stored.byThisImport { seenChanged.insert(RecordBlock.blockID(ofRecord: stored.id)) }
        if stored.seen > stored.copies {
            stored.copies = stored.seen
            writeRecordCopies.bind(1, stored.id)
            writeRecordCopies.bind(2, stored.copies)
            try writeRecordCopies.run()
        }
        window.identities[identity] = stored
    }

    /// The identities of the records of one type the archive holds with starts in one stretch,
    /// and the next free `n` of each start second (see `Schema.recordID`).
    struct Window {
        /// A stored record: its id, `copies`, how many of it this import has read so far, and
        /// whether this import stored it.
        struct Stored {
            var id: Int64
            var copies: Int64
            var seen: Int64
            var byThisImport: Bool
            var line: Int
        }
        var identities: [RecordIdentity: Stored] = [:]
        var nextN: [Int64: Int64] = [:]

        /// - Parameter adding: how many records of the batch fall in the window (room is made
        ///   for them at once: growing the tables as they arrive rehashes them several times).
        init(_ session: RecordImport, type: Int64, from: Int64, to: Int64, adding: Int) throws {
            guard let range = Schema.recordIDs(type: type, from: from, to: to) else { return }
            let blockRange =
                RecordBlock.blockID(
                    ofRecord: range.lowerBound)...RecordBlock.blockID(
                    ofRecord: range.upperBound)
            try session.loadBlocks(blockRange)
            let ids =
                RecordBlock.firstRecordID(
                    ofBlock: blockRange.lowerBound)...RecordBlock.lastRecordID(
                    ofBlock: blockRange.upperBound)
            /// Steps `s` over its rows with keys in `range` (its two parameters), each to `row`.
            func forEachRow(_ s: Statement, _ range: ClosedRange<Int64>, _ row: (Statement) -> Void) throws {
                defer { s.reset() }
                s.bind(1, range.lowerBound)
                s.bind(2, range.upperBound)
                while try s.step() { row(s) }
            }
            var copies: [Int64: Int64] = [:]
            try forEachRow(session.readRecordCopies, ids) { copies[$0.int64(0)] = $0.int64(1) }
            var seen: [Int64: Int64] = [:]
            try forEachRow(session.readSeen, blockRange) { s in
                let pairs = s.blobInt64s(0)
                for k in stride(from: 0, to: pairs.count - 1, by: 2) { seen[pairs[k]] = pairs[k + 1] }
            }
            var stored = 0
            for block in blockRange { stored += session.blocks[block]?.count ?? 0 }
            identities.reserveCapacity(stored + adding)
            nextN.reserveCapacity(stored + adding)
            for block in blockRange {
                guard let records = session.blocks[block] else { continue }
                for r in records {
                    let start = Schema.start(ofRecord: r.id)
                    let byThisImport = r.export == session.exportID
                    let n = copies[r.id] ?? 1
                    identities[
                        RecordIdentity(
                            source: r.source, start: start, end: start + r.duration,
                            value: RecordIdentity.valueKey(r.value), unit: r.unit ?? 0, text: r.text ?? 0)] = Stored(
                            id: r.id, copies: n, seen: byThisImport ? n : seen[r.id] ?? 0,
                            byThisImport: byThisImport, line: Int(r.line ?? 0))
                    nextN[start] = max(nextN[start] ?? 0, (r.id & ((1 << 21) - 1)) + 1)
                }
            }
        }
    }

    /// Stores a correlation and its records, unless the archive holds it (same type, source,
    /// start and end).
    func consume(_ c: Correlation, outcome: inout ImportOutcome) throws {
        outcome.correlationsRead += 1
        let s = insertCorrelation
        s.bind(1, try lookups.typeID(c.type))
        try lookups.bindSampleAttributes(s, from: 2, c.attributes)
        s.bind(9, exportID)
        try s.run()
        guard db.changes == 1 else { return }
        let id = db.lastInsertRowID
        outcome.correlationsNew += 1
        try lookups.insertMetadata(c.metadata, kind: .correlation, owner: id)
        for (n, r) in c.records.enumerated() {
            let cr = insertCorrelationRecord
            let (value, unit, original, text) = try lookups.valueColumns(r)
            cr.bind(1, id)
            cr.bind(2, n)
            cr.bind(3, try lookups.typeID(r.type))
            try lookups.bindSampleAttributes(cr, from: 4, r.attributes)
            cr.bind(11, value)
            cr.bind(12, unit)
            cr.bind(13, original)
            cr.bind(14, text)
            try cr.run()
            try lookups.insertMetadata(r.metadata, kind: .correlationRecord, owner: db.lastInsertRowID)
        }
    }
}

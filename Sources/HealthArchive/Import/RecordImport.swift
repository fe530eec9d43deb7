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
/// counted as a copy, not stored again.
final class RecordImport {
    let db: Connection
    let exportID: Int64
    let lookups: ImportLookups
    let insertRecord: Statement
    let insertHeartbeat: Statement
    let window, windowCopies, writeCopies, updateCopies, updateLine: Statement
    let insertCorrelation, insertCorrelationRecord: Statement

    /// Days apart beyond which two starts of one type are looked up separately.
    static let windowGap: Int64 = 2 * 86_400

    init(db: Connection, exportID: Int64, lookups: ImportLookups) throws {
        self.db = db
        self.exportID = exportID
        self.lookups = lookups
        let recordColumns =
            "type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc, printed_offset_min,"
            + " value, unit_id, original_value, value_text_id"
        insertRecord = try db.prepare(
            """
            INSERT INTO records (id, source_id, source_version_id, device_id, duration_s, creation_delay_s,
              printed_offset_min, value, unit_id, original_value, value_text_id, export_id, line)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        insertHeartbeat = try db.prepare("INSERT INTO heartbeats (record_id, position, bpm, time) VALUES (?,?,?,?)")
        window = try db.prepare(
            """
            SELECT id, source_id, duration_s, value, unit_id, value_text_id, export_id, copies, line FROM records
            WHERE id BETWEEN ? AND ?
            """)
        // This import's copies of records that earlier imports stored (see `consumeRecords`);
        // a temporary table, so that memory stays O(batch) however large the export.
        try db.execute(
            "CREATE TEMP TABLE IF NOT EXISTS import_copies (id INTEGER PRIMARY KEY, copies INTEGER NOT NULL)")
        try db.execute("DELETE FROM temp.import_copies")
        windowCopies = try db.prepare("SELECT id, copies FROM temp.import_copies WHERE id BETWEEN ? AND ?")
        writeCopies = try db.prepare("INSERT OR REPLACE INTO temp.import_copies (id, copies) VALUES (?, ?)")
        updateCopies = try db.prepare("UPDATE records SET copies = ? WHERE id = ?")
        updateLine = try db.prepare("UPDATE records SET line = ? WHERE id = ?")
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
    /// then inserts the records that are new, in document order (so the archive's row order is
    /// the first export's order), with their line in this export (the smallest of their copies').
    ///
    /// Exact duplicates (docs/deduplication.md §2) are one row whose `copies` is the most
    /// copies any one imported export held: the archive is the union of its exports, so two
    /// exports each holding a pair keep a pair, and re-importing an export changes nothing.
    /// This import's count of a row stored by an earlier import lives in `temp.import_copies`
    /// (a duplicate can be in another batch); of a row this import stored, in `copies` itself.
    func consume(_ records: [Record], outcome: inout ImportOutcome) throws {
        var keys: [(type: Int64, start: Int64, index: Int)] = []
        keys.reserveCapacity(records.count)
        var types = [Int64](repeating: 0, count: records.count)
        for i in records.indices where !records[i].isNestedInCorrelation {
            let t = try lookups.recordTypeID(records[i])
            types[i] = t
            keys.append((t, records[i].startDate.secondsSince1970, i))
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
            known.append(try Window(self, type: keys[first].type, from: keys[first].start, to: keys[last].start))
            for k in first...last { windowOf[keys[k].index] = known.count - 1 }
            first = last + 1
        }
        for i in records.indices where !records[i].isNestedInCorrelation {
            let r = records[i]
            outcome.recordsRead += 1
            let source = try lookups.recordSourceID(r)
            let (value, unit, original, text) = try lookups.valueColumns(r)
            let identity = RecordIdentity(
                source: source, start: r.startDate.secondsSince1970, end: r.endDate.secondsSince1970,
                value: RecordIdentity.valueKey(value), unit: unit ?? 0, text: text ?? 0)
            if let stored = known[windowOf[i]].identities[identity] {
                try countCopy(of: identity, stored, line: r.line, in: &known[windowOf[i]])
                continue
            }
            let n = known[windowOf[i]].nextN[identity.start, default: 0]
            guard let id = Schema.recordID(type: types[i], start: identity.start, n: n) else {
                outcome.recordsSkipped += 1
                if outcome.firstSkippedLine == 0 { outcome.firstSkippedLine = r.line }
                continue
            }
            known[windowOf[i]].nextN[identity.start] = n + 1
            known[windowOf[i]].identities[identity] = Window.Stored(
                id: id, copies: 1, seen: 1, byThisImport: true, line: r.line)
            let s = insertRecord
            s.bind(1, id)
            s.bind(2, source)
            try lookups.bindProvenance(s, from: 3, version: r.sourceVersion, device: r.device)
            s.bind(5, identity.end - identity.start)
            s.bind(6, r.creationDate.map { $0.secondsSince1970 - identity.end })
            s.bind(7, Int64(r.startDate.printedOffsetSeconds / 60))
            s.bind(8, value)
            s.bind(9, unit)
            s.bind(10, original)
            s.bind(11, text)
            s.bind(12, exportID)
            s.bind(13, r.line)
            try s.run()
            outcome.recordsNew += 1
            try lookups.insertMetadata(r.metadata, kind: .record, owner: id)
            for (n, beat) in r.heartbeats.enumerated() {
                insertHeartbeat.bind(1, id)
                insertHeartbeat.bind(2, n)
                insertHeartbeat.bind(3, beat.bpm)
                insertHeartbeat.bind(4, beat.time)
                try insertHeartbeat.run()
            }
        }
    }

    /// One more copy of a stored record in this export: raises its `copies` when this export
    /// holds more of it than any before. A row this import stored keeps the smallest line of its
    /// copies (with parser threads, a later copy can arrive first), as the analyzer notes lines.
    func countCopy(of identity: RecordIdentity, _ stored: Window.Stored, line: Int, in window: inout Window) throws {
        var stored = stored
        stored.seen += 1
        if stored.byThisImport && line < stored.line {
            stored.line = line
            updateLine.bind(1, line)
            updateLine.bind(2, stored.id)
            try updateLine.run()
        }
        if !stored.byThisImport {
            writeCopies.bind(1, stored.id)
            writeCopies.bind(2, stored.seen)
            try writeCopies.run()
        }
        if stored.seen > stored.copies {
            stored.copies = stored.seen
            updateCopies.bind(1, stored.copies)
            updateCopies.bind(2, stored.id)
            try updateCopies.run()
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

        init(_ session: RecordImport, type: Int64, from: Int64, to: Int64) throws {
            guard let range = Schema.recordIDs(type: type, from: from, to: to) else { return }
            let s = session.window
            defer { s.reset() }
            s.bind(1, range.lowerBound)
            s.bind(2, range.upperBound)
            var seen: [Int64: Int64] = [:]
            let c = session.windowCopies
            defer { c.reset() }
            c.bind(1, range.lowerBound)
            c.bind(2, range.upperBound)
            while try c.step() { seen[c.int64(0)] = c.int64(1) }
            while try s.step() {
                let id = s.int64(0)
                let start = Schema.start(ofRecord: id)
                let byThisImport = s.int64(6) == session.exportID
                let copies = s.int64(7)
                identities[
                    RecordIdentity(
                        source: s.int64(1), start: start, end: start + s.int64(2),
                        value: RecordIdentity.valueKey(s.doubleOrNil(3)), unit: s.int64OrNil(4) ?? 0,
                        text: s.int64OrNil(5) ?? 0)] = Stored(
                        id: id, copies: copies, seen: byThisImport ? copies : seen[id] ?? 0, byThisImport: byThisImport,
                        line: Int(s.int64OrNil(8) ?? 0))
                nextN[start] = max(nextN[start] ?? 0, (id & ((1 << 21) - 1)) + 1)
            }
        }
    }

    /// Stores a correlation and its records, unless the archive holds it (same type, source,
    /// start and end).
    func consume(_ c: Correlation, outcome: inout ImportOutcome) throws {
        outcome.correlationsRead += 1
        let s = insertCorrelation
        s.bind(1, try lookups.typeID(c.type))
        s.bind(2, try lookups.sourceID(c.sourceName))
        try lookups.bindProvenance(s, from: 3, version: c.sourceVersion, device: c.device)
        s.bind(5, c.startDate.secondsSince1970)
        s.bind(6, c.endDate.secondsSince1970)
        s.bind(7, c.creationDate?.secondsSince1970)
        s.bind(8, Int64(c.startDate.printedOffsetSeconds / 60))
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
            cr.bind(4, try lookups.sourceID(r.sourceName))
            try lookups.bindProvenance(cr, from: 5, version: r.sourceVersion, device: r.device)
            cr.bind(7, r.startDate.secondsSince1970)
            cr.bind(8, r.endDate.secondsSince1970)
            cr.bind(9, r.creationDate?.secondsSince1970)
            cr.bind(10, Int64(r.startDate.printedOffsetSeconds / 60))
            cr.bind(11, value)
            cr.bind(12, unit)
            cr.bind(13, original)
            cr.bind(14, text)
            try cr.run()
            try lookups.insertMetadata(r.metadata, kind: .correlationRecord, owner: db.lastInsertRowID)
        }
    }
}

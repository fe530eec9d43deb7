import CSQLite
import HealthExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one import added to the archive.
public struct ImportOutcome: Sendable, Equatable {
    /// The input as the reader names it (`export.zip:apple_health_export/export.xml`).
    public var inputName: String
    public var exportDate: Timestamp?
    /// Bytes of XML read.
    public var bytesRead: Int64 = 0
    /// Top-level records read (records inside correlations are counted with their correlation).
    public var recordsRead = 0
    public var recordsNew = 0
    public var workoutsRead = 0
    public var workoutsNew = 0
    public var correlationsRead = 0
    public var correlationsNew = 0
    public var summariesRead = 0
    public var summariesNew = 0
    /// Days whose ActivitySummary this (later) export changed.
    public var summariesReplaced = 0
    /// Records not stored because their start is outside 1901-12-13 to 2174-02-25 (or of a 512th type).
    public var recordsSkipped = 0
    /// The line of the first of them.
    public var firstSkippedLine = 0
    /// True when the archive already held this export (same `ExportDate` and size).
    public var exportWasKnown = false

    /// Records the archive already held (neither new nor skipped).
    public var recordsPresent: Int { recordsRead - recordsNew - recordsSkipped }
}

extension Archive {
    /// Imports one export in one transaction: afterwards the archive holds all of it or, when
    /// reading or writing failed (or the process was killed), none of it.
    ///
    /// A record already in the archive (same type, source, start and end instants, value and
    /// unit; never the printed text) is not added again; records the archive holds and the
    /// export does not are kept (the archive is the union). Workouts (with statistics, events,
    /// activities and routes) and correlations (with their records) are matched by type, source,
    /// start and end. A day's ActivitySummary from a later export replaces the stored one when
    /// they differ; `Me` is the latest export's.
    ///
    /// - Throws: `ExportReadError` when the input cannot be read, `ArchiveError` when the
    ///   archive cannot be written. Either way the archive is as it was before.
    ///
    /// - Parameter threads: parser threads (`ExportReader.read(_:threads:makeConsumer:)`); the
    ///   archive is the same for any number (only the order of rows within one second of one
    ///   type can differ).
    ///
    /// - Parameter batchStored: called on the importing thread after each batch's rows are in
    ///   the open transaction (not yet committed), with the records stored so far; the CLI's
    ///   crash tests use it to know that an import has begun writing.
    public func importExport(
        _ input: ExportInput, readerOptions: ReaderOptions = ReaderOptions(), threads: Int = 1,
        batchStored: ((_ records: Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        try importWorkers(batchStored: batchStored) { put in
            try ExportReader(options: readerOptions).read(input, threads: threads) { worker in
                { batch in try put(worker, batch) }
            }
        }
    }

    /// `importExport` over batches from anywhere: `read` hands every batch of one export to the
    /// consumer and returns the export's summary (as `ExportReader.read` does).
    public func importBatches(reading read: ((ExportBatch) throws -> Void) throws -> ExportSummary) throws
        -> ImportOutcome
    {
        try withoutActuallyEscaping(read) { read in
            try importWorkers { put in try read { batch in try put(0, batch) } }
        }
    }

    /// The import of batches from one or more reader workers (`put(worker, batch)`).
    func importWorkers(
        batchStored: ((Int) -> Void)? = nil,
        reading read: (_ put: @escaping (Int, ExportBatch) throws -> Void) throws -> ExportSummary
    ) throws -> ImportOutcome {
        do {
            return try writeTransaction {
                let session = try ImportSession(archive: self)
                var stored = 0
                // Parsing on a thread of its own, inserting here: the two overlap.
                let summary = try BatchPipe.run(reading: read) { worker, batch in
                    try session.consume(batch, worker: worker)
                    if let batchStored {
                        stored += batch.records.count
                        batchStored(stored)
                    }
                }
                return try session.finish(summary)
            }
        } catch let e as SQLiteError {
            throw classify(e)
        }
    }
}

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
}

/// The state of one import: prepared statements, per-read symbol caches, counts.
final class ImportSession {
    let archive: Archive
    let db: Connection
    let exportID: Int64
    var outcome = ImportOutcome(inputName: "")
    /// ActivitySummary values, applied at the end, when the export's date is known.
    var summaries: [ActivitySummary] = []

    // Per-read caches: the reader's symbols are only valid within one read, and with parser
    // threads within one worker: these are the current worker's, the others' wait in
    // `otherWorkers` (swapped, not copied).
    var typeBySymbol: [Int64] = []
    var sourceBySymbol: [Int64] = []
    var currentWorker = 0
    var otherWorkers: [Int: (types: [Int64], sources: [Int64])] = [:]
    var deviceByObject: [ObjectIdentifier: Int64] = [:]
    var retainedDevices: [Device] = []

    let insertRecord: Statement
    let insertMetadata: Statement
    let insertHeartbeat: Statement
    let window, windowCopies, writeCopies, updateCopies, updateLine: Statement
    let insertDevice: Statement
    let insertType, insertSource, insertVersion, insertUnit, insertValueText, insertKey: Statement
    let insertCorrelation, insertCorrelationRecord: Statement
    let insertWorkout, insertActivity, insertEvent, insertStatistic, insertRoute, insertRouteFile,
        insertLocation: Statement

    /// Days apart beyond which two starts of one type are looked up separately.
    static let windowGap: Int64 = 2 * 86_400

    init(archive: Archive) throws {
        self.archive = archive
        db = archive.db
        let now = Int64(time(nil))
        let e = try db.prepare(
            """
            INSERT INTO exports (input_name, bytes_read, first_imported_utc, last_imported_utc, records_read,
              records_new) VALUES ('', 0, ?, ?, 0, 0)
            """)
        e.bind(1, now)
        e.bind(2, now)
        try e.run()
        exportID = db.lastInsertRowID
        let recordColumns =
            "type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc, printed_offset_min,"
            + " value, unit_id, original_value, value_text_id"
        insertRecord = try db.prepare(
            """
            INSERT INTO records (id, source_id, source_version_id, device_id, duration_s, creation_delay_s,
              printed_offset_min, value, unit_id, original_value, value_text_id, export_id, line)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        insertMetadata = try db.prepare(
            "INSERT INTO metadata (owner_kind, owner_id, position, key_id, value) VALUES (?,?,?,?,?)")
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
        insertDevice = try db.prepare(
            """
            INSERT INTO devices (name, manufacturer, model, hardware, software, creation_date, other_fields)
            VALUES (?,?,?,?,?,?,?)
            """)
        insertType = try db.prepare("INSERT INTO types (identifier) VALUES (?)")
        insertSource = try db.prepare("INSERT INTO sources (name) VALUES (?)")
        insertVersion = try db.prepare("INSERT INTO source_versions (version) VALUES (?)")
        insertUnit = try db.prepare("INSERT INTO units (unit, canonical_unit) VALUES (?, ?)")
        insertValueText = try db.prepare("INSERT INTO value_texts (text) VALUES (?)")
        insertKey = try db.prepare("INSERT INTO metadata_keys (key) VALUES (?)")
        insertCorrelation = try db.prepare(
            """
            INSERT INTO correlations (type_id, source_id, source_version_id, device_id, start_utc, end_utc,
              creation_utc, printed_offset_min, export_id) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
            """)
        insertCorrelationRecord = try db.prepare(
            "INSERT INTO correlation_records (correlation_id, position, \(recordColumns))"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        insertWorkout = try db.prepare(
            """
            INSERT INTO workouts (activity_type_id, source_id, source_version_id, device_id, start_utc, end_utc,
              creation_utc, printed_offset_min, duration_min, total_distance_km, total_energy_kcal, export_id)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
            """)
        insertActivity = try db.prepare(
            """
            INSERT INTO workout_activities (workout_id, position, uuid, start_utc, end_utc, printed_offset_min,
              duration_min) VALUES (?,?,?,?,?,?,?)
            """)
        insertEvent = try db.prepare(
            """
            INSERT INTO workout_events (workout_id, activity_id, position, type_id, date_utc, printed_offset_min,
              duration_min) VALUES (?,?,?,?,?,?,?)
            """)
        insertStatistic = try db.prepare(
            """
            INSERT INTO workout_statistics (workout_id, activity_id, position, type_id, start_utc, end_utc,
              printed_offset_min, sum, average, minimum, maximum, unit_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        insertRoute = try db.prepare(
            """
            INSERT INTO workout_routes (workout_id, position, source_id, source_version_id, device_id, start_utc,
              end_utc, creation_utc, printed_offset_min) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        insertRouteFile = try db.prepare("INSERT INTO workout_route_files (route_id, position, path) VALUES (?,?,?)")
        insertLocation = try db.prepare(
            """
            INSERT INTO route_locations (route_id, position, date_utc, printed_offset_min, latitude, longitude,
              altitude, horizontal_accuracy, vertical_accuracy, course, speed) VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """)
    }

    // MARK: Lookups

    func typeID(_ identifier: String) throws -> Int64 {
        try archive.lookups.types.id(identifier, db, insert: insertType)
    }

    func sourceID(_ name: String) throws -> Int64 {
        try archive.lookups.sources.id(name, db, insert: insertSource)
    }

    func versionID(_ version: String?) throws -> Int64? {
        guard let version else { return nil }
        return try archive.lookups.versions.id(version, db, insert: insertVersion)
    }

    func unitID(_ unit: String?) throws -> Int64? {
        guard let unit else { return nil }
        if let id = archive.lookups.units.ids[unit] { return id }
        insertUnit.bind(1, unit)
        insertUnit.bind(2, UnitConversion.forUnit(unit)?.unit.rawValue)
        try insertUnit.run()
        let id = db.lastInsertRowID
        archive.lookups.units.ids[unit] = id
        return id
    }

    func valueTextID(_ text: String?) throws -> Int64? {
        guard let text else { return nil }
        return try archive.lookups.valueTexts.id(text, db, insert: insertValueText)
    }

    func deviceID(_ device: Device?) throws -> Int64? {
        guard let device else { return nil }
        let object = ObjectIdentifier(device)
        if let id = deviceByObject[object] { return id }
        let id: Int64
        if let known = archive.lookups.devices[device] {
            id = known
        } else {
            let s = insertDevice
            s.bind(1, device.name)
            s.bind(2, device.manufacturer)
            s.bind(3, device.model)
            s.bind(4, device.hardware)
            s.bind(5, device.software)
            s.bind(6, device.creationDate)
            s.bind(7, Lookups.encodeFields(device.otherFields))
            try s.run()
            id = db.lastInsertRowID
            archive.lookups.devices[device] = id
        }
        deviceByObject[object] = id
        retainedDevices.append(device)  // keeps the object identifier unique for this read
        return id
    }

    func recordTypeID(_ r: Record) throws -> Int64 {
        let symbol = Int(r.typeSymbol)
        if symbol >= 0 && symbol < typeBySymbol.count && typeBySymbol[symbol] > 0 { return typeBySymbol[symbol] }
        let id = try typeID(r.type)
        if symbol >= 0 {
            if symbol >= typeBySymbol.count {
                typeBySymbol.append(contentsOf: repeatElement(0, count: symbol + 1 - typeBySymbol.count))
            }
            typeBySymbol[symbol] = id
        }
        return id
    }

    func recordSourceID(_ r: Record) throws -> Int64 {
        let symbol = Int(r.sourceSymbol)
        if symbol >= 0 && symbol < sourceBySymbol.count && sourceBySymbol[symbol] > 0 {
            return sourceBySymbol[symbol]
        }
        let id = try sourceID(r.sourceName)
        if symbol >= 0 {
            if symbol >= sourceBySymbol.count {
                sourceBySymbol.append(contentsOf: repeatElement(0, count: symbol + 1 - sourceBySymbol.count))
            }
            sourceBySymbol[symbol] = id
        }
        return id
    }

    // MARK: Records

    /// The stored columns of a record's value: value, unit id, original value, value text id.
    func valueColumns(_ r: Record) throws -> (Double?, Int64?, Double?, Int64?) {
        switch r.value {
        case .quantity(let q):
            let original: Double? =
                q.originalValue == q.value || (q.originalValue.isNaN && q.value.isNaN) ? nil : q.originalValue
            return (q.value, try unitID(q.originalUnit), original, nil)
        case .category(let c):
            return (nil, nil, nil, try valueTextID(c.exportText))
        case .none(let text):
            return (nil, nil, nil, try valueTextID(text))
        }
    }

    func consume(_ batch: ExportBatch, worker: Int) throws {
        if worker != currentWorker {
            otherWorkers[currentWorker] = (typeBySymbol, sourceBySymbol)
            (typeBySymbol, sourceBySymbol) = otherWorkers.removeValue(forKey: worker) ?? ([], [])
            currentWorker = worker
        }
        try consumeRecords(batch.records)
        for c in batch.correlations { try consumeCorrelation(c) }
        for w in batch.workouts { try consumeWorkout(w) }
        summaries.append(contentsOf: batch.activitySummaries)
        outcome.summariesRead += batch.activitySummaries.count
    }

    /// Looks up, per type and per stretch of starts, the identities the archive already holds,
    /// then inserts the records that are new, in document order (so the archive's row order is
    /// the first export's order), with their line in this export (the smallest of their copies').
    ///
    /// Exact duplicates (reference §5.4, preprocessing 2) are one row whose `copies` is the most
    /// copies any one imported export held: the archive is the union of its exports, so two
    /// exports each holding a pair keep a pair, and re-importing an export changes nothing.
    /// This import's count of a row stored by an earlier import lives in `temp.import_copies`
    /// (a duplicate can be in another batch); of a row this import stored, in `copies` itself.
    func consumeRecords(_ records: [Record]) throws {
        var keys: [(type: Int64, start: Int64, index: Int)] = []
        keys.reserveCapacity(records.count)
        var types = [Int64](repeating: 0, count: records.count)
        for i in records.indices where !records[i].isNestedInCorrelation {
            let t = try recordTypeID(records[i])
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
            let source = try recordSourceID(r)
            let (value, unit, original, text) = try valueColumns(r)
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
            try bindProvenance(s, from: 3, version: r.sourceVersion, device: r.device)
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
            try insertMetadata(r.metadata, kind: .record, owner: id)
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

        init(_ session: ImportSession, type: Int64, from: Int64, to: Int64) throws {
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

    func bindProvenance(_ s: Statement, from p: Int32, version: String?, device: Device?) throws {
        s.bind(p, try versionID(version))
        s.bind(p + 1, try deviceID(device))
    }

    func insertMetadata(_ entries: [MetadataEntry], kind: Schema.OwnerKind, owner: Int64) throws {
        for (n, entry) in entries.enumerated() {
            let s = insertMetadata
            s.bind(1, kind.rawValue)
            s.bind(2, owner)
            s.bind(3, n)
            s.bind(4, try archive.lookups.metadataKeys.id(entry.key, db, insert: insertKey))
            s.bind(5, entry.value)
            try s.run()
        }
    }

    // MARK: Correlations and workouts

    func consumeCorrelation(_ c: Correlation) throws {
        outcome.correlationsRead += 1
        let s = insertCorrelation
        s.bind(1, try typeID(c.type))
        s.bind(2, try sourceID(c.sourceName))
        try bindProvenance(s, from: 3, version: c.sourceVersion, device: c.device)
        s.bind(5, c.startDate.secondsSince1970)
        s.bind(6, c.endDate.secondsSince1970)
        s.bind(7, c.creationDate?.secondsSince1970)
        s.bind(8, Int64(c.startDate.printedOffsetSeconds / 60))
        s.bind(9, exportID)
        try s.run()
        guard db.changes == 1 else { return }
        let id = db.lastInsertRowID
        outcome.correlationsNew += 1
        try insertMetadata(c.metadata, kind: .correlation, owner: id)
        for (n, r) in c.records.enumerated() {
            let cr = insertCorrelationRecord
            let (value, unit, original, text) = try valueColumns(r)
            cr.bind(1, id)
            cr.bind(2, n)
            cr.bind(3, try typeID(r.type))
            cr.bind(4, try sourceID(r.sourceName))
            try bindProvenance(cr, from: 5, version: r.sourceVersion, device: r.device)
            cr.bind(7, r.startDate.secondsSince1970)
            cr.bind(8, r.endDate.secondsSince1970)
            cr.bind(9, r.creationDate?.secondsSince1970)
            cr.bind(10, Int64(r.startDate.printedOffsetSeconds / 60))
            cr.bind(11, value)
            cr.bind(12, unit)
            cr.bind(13, original)
            cr.bind(14, text)
            try cr.run()
            try insertMetadata(r.metadata, kind: .correlationRecord, owner: db.lastInsertRowID)
        }
    }

    func consumeWorkout(_ w: Workout) throws {
        outcome.workoutsRead += 1
        let s = insertWorkout
        s.bind(1, try typeID(w.activityType))
        s.bind(2, try sourceID(w.sourceName))
        try bindProvenance(s, from: 3, version: w.sourceVersion, device: w.device)
        s.bind(5, w.startDate.secondsSince1970)
        s.bind(6, w.endDate.secondsSince1970)
        s.bind(7, w.creationDate?.secondsSince1970)
        s.bind(8, Int64(w.startDate.printedOffsetSeconds / 60))
        s.bind(9, w.durationMinutes)
        s.bind(10, w.totalDistanceKm)
        s.bind(11, w.totalEnergyBurnedKcal)
        s.bind(12, exportID)
        try s.run()
        guard db.changes == 1 else { return }
        let id = db.lastInsertRowID
        outcome.workoutsNew += 1
        try insertMetadata(w.metadata, kind: .workout, owner: id)
        var position = 0
        try insertEvents(w.events, workout: id, activity: nil, position: &position)
        try insertStatistics(w.statistics, workout: id, activity: nil, position: &position)
        for (n, a) in w.activities.enumerated() {
            let s = insertActivity
            s.bind(1, id)
            s.bind(2, n)
            s.bind(3, a.uuid)
            s.bind(4, a.startDate.secondsSince1970)
            s.bind(5, a.endDate?.secondsSince1970)
            s.bind(6, Int64(a.startDate.printedOffsetSeconds / 60))
            s.bind(7, a.durationMinutes)
            try s.run()
            let activity = db.lastInsertRowID
            try insertMetadata(a.metadata, kind: .workoutActivity, owner: activity)
            try insertEvents(a.events, workout: id, activity: activity, position: &position)
            try insertStatistics(a.statistics, workout: id, activity: activity, position: &position)
        }
        for (n, route) in w.routes.enumerated() {
            let s = insertRoute
            s.bind(1, id)
            s.bind(2, n)
            s.bind(3, try sourceID(route.sourceName))
            try bindProvenance(s, from: 4, version: route.sourceVersion, device: route.device)
            s.bind(6, route.startDate.secondsSince1970)
            s.bind(7, route.endDate.secondsSince1970)
            s.bind(8, route.creationDate?.secondsSince1970)
            s.bind(9, Int64(route.startDate.printedOffsetSeconds / 60))
            try s.run()
            let routeID = db.lastInsertRowID
            try insertMetadata(route.metadata, kind: .workoutRoute, owner: routeID)
            for (k, path) in route.filePaths.enumerated() {
                insertRouteFile.bind(1, routeID)
                insertRouteFile.bind(2, k)
                insertRouteFile.bind(3, path)
                try insertRouteFile.run()
            }
            for (k, l) in route.locations.enumerated() {
                let s = insertLocation
                s.bind(1, routeID)
                s.bind(2, k)
                s.bind(3, l.date.secondsSince1970)
                s.bind(4, Int64(l.date.printedOffsetSeconds / 60))
                s.bind(5, l.latitude)
                s.bind(6, l.longitude)
                s.bind(7, l.altitude)
                s.bind(8, l.horizontalAccuracy)
                s.bind(9, l.verticalAccuracy)
                s.bind(10, l.course)
                s.bind(11, l.speed)
                try s.run()
            }
        }
    }

    func insertEvents(_ events: [WorkoutEvent], workout: Int64, activity: Int64?, position: inout Int) throws {
        for e in events {
            let s = insertEvent
            s.bind(1, workout)
            s.bind(2, activity)
            s.bind(3, position)
            s.bind(4, try typeID(e.type))
            s.bind(5, e.date.secondsSince1970)
            s.bind(6, Int64(e.date.printedOffsetSeconds / 60))
            s.bind(7, e.durationMinutes)
            try s.run()
            position += 1
            try insertMetadata(e.metadata, kind: .workoutEvent, owner: db.lastInsertRowID)
        }
    }

    func insertStatistics(_ statistics: [WorkoutStatistics], workout: Int64, activity: Int64?, position: inout Int)
        throws
    {
        for st in statistics {
            let s = insertStatistic
            s.bind(1, workout)
            s.bind(2, activity)
            s.bind(3, position)
            s.bind(4, try typeID(st.type))
            s.bind(5, st.startDate.secondsSince1970)
            s.bind(6, st.endDate.secondsSince1970)
            s.bind(7, Int64(st.startDate.printedOffsetSeconds / 60))
            s.bind(8, st.sum)
            s.bind(9, st.average)
            s.bind(10, st.minimum)
            s.bind(11, st.maximum)
            s.bind(12, try unitID(st.originalUnit ?? st.unit?.rawValue))
            try s.run()
            position += 1
        }
    }

    // MARK: The end of the export

    /// Records the export, applies its ActivitySummary days and `Me`, and returns the counts.
    func finish(_ summary: ExportSummary) throws -> ImportOutcome {
        outcome.inputName = summary.inputName
        outcome.exportDate = summary.exportDate
        outcome.bytesRead = summary.bytesRead
        let exportUTC = summary.exportDate?.secondsSince1970
        var effectiveExport = exportID
        let find = try db.prepare("SELECT id FROM exports WHERE export_utc IS ? AND bytes_read = ? AND id <> ?")
        find.bind(1, exportUTC)
        find.bind(2, summary.bytesRead)
        find.bind(3, exportID)
        if try find.step() {
            // The same export again: its first row stays, this import's row goes.
            effectiveExport = find.int64(0)
            outcome.exportWasKnown = true
            for table in ["records", "correlations", "workouts"] {
                let move = try db.prepare("UPDATE \(table) SET export_id = ? WHERE export_id = ?")
                move.bind(1, effectiveExport)
                move.bind(2, exportID)
                try move.run()
            }
            let drop = try db.prepare("DELETE FROM exports WHERE id = ?")
            drop.bind(1, exportID)
            try drop.run()
            let touch = try db.prepare("UPDATE exports SET last_imported_utc = ? WHERE id = ?")
            touch.bind(1, Int64(time(nil)))
            touch.bind(2, effectiveExport)
            try touch.run()
        } else {
            let update = try db.prepare(
                """
                UPDATE exports SET input_name = ?, export_utc = ?, printed_offset_min = ?, export_version = ?,
                  locale = ?, bytes_read = ?, records_read = ?, records_new = ? WHERE id = ?
                """)
            update.bind(1, summary.inputName)
            update.bind(2, exportUTC)
            update.bind(3, summary.exportDate.map { Int64($0.printedOffsetSeconds / 60) })
            update.bind(4, summary.exportVersion)
            update.bind(5, summary.locale)
            update.bind(6, summary.bytesRead)
            update.bind(7, outcome.recordsRead)
            update.bind(8, outcome.recordsNew)
            update.bind(9, exportID)
            try update.run()
            let diagnostic = try db.prepare(
                """
                INSERT INTO export_diagnostics (export_id, position, kind, detail, count, first_line)
                VALUES (?,?,?,?,?,?)
                """)
            for (n, d) in summary.diagnostics.enumerated() {
                diagnostic.bindAll([
                    .integer(exportID), .integer(Int64(n)), .text(d.kind.rawValue), .text(d.detail),
                    .integer(Int64(d.count)), .integer(Int64(d.firstLine)),
                ])
                try diagnostic.run()
            }
        }
        try applySummaries(exportUTC: exportUTC, export: effectiveExport)
        if let me = summary.me { try applyMe(me, exportUTC: exportUTC, export: effectiveExport) }
        return outcome
    }

    /// The summary columns in table order (after `date`), for comparing and writing.
    static func columns(_ s: ActivitySummary) -> [SQLValue] {
        func real(_ v: Double?) -> SQLValue { v.map { .real($0) } ?? .null }
        return [
            real(s.activeEnergyBurnedKcal), real(s.activeEnergyBurnedGoalKcal),
            s.activeEnergyBurnedUnit.map { .text($0) } ?? .null, real(s.appleMoveTimeMinutes),
            real(s.appleMoveTimeGoalMinutes), real(s.appleExerciseTimeMinutes), real(s.appleExerciseTimeGoalMinutes),
            real(s.appleStandHours), real(s.appleStandHoursGoal),
        ]
    }

    /// Within one export, two summaries of one day (seen after restores) resolve as the
    /// analyzer does: the larger values win. Across exports, the later export's wins.
    func applySummaries(exportUTC: Int64?, export: Int64) throws {
        var byDay: [CivilDate: ActivitySummary] = [:]
        for s in summaries {
            if let other = byDay[s.date], !Self.larger(s, than: other) { continue }
            byDay[s.date] = s
        }
        let find = try db.prepare(
            """
            SELECT a.active_energy_kcal, a.active_energy_goal_kcal, a.active_energy_unit, a.move_time_min,
              a.move_time_goal_min, a.exercise_time_min, a.exercise_time_goal_min, a.stand_hours, a.stand_hours_goal,
              e.export_utc, a.export_id
            FROM activity_summaries a LEFT JOIN exports e ON e.id = a.export_id WHERE a.date = ?
            """)
        let write = try db.prepare("INSERT OR REPLACE INTO activity_summaries VALUES (?,?,?,?,?,?,?,?,?,?,?)")
        for day in byDay.keys.sorted() {
            let s = byDay[day]!
            let values = Self.columns(s)
            find.bind(1, day.description)
            if try find.step() {
                let stored = (0..<9).map { find.value(Int32($0)) }
                let storedExportUTC = find.int64OrNil(9)
                let storedExport = find.int64(10)
                find.reset()
                if Self.same(stored, values) { continue }
                let later: Bool
                if storedExport == export {
                    later = false  // one export holds the day once (resolved above)
                } else if let exportUTC, let storedExportUTC {
                    later = exportUTC > storedExportUTC
                } else {
                    later = exportUTC != nil
                }
                guard later else { continue }
                outcome.summariesReplaced += 1
            } else {
                find.reset()
                outcome.summariesNew += 1
            }
            write.bindAll([.text(day.description)] + values + [.integer(export)])
            try write.run()
        }
    }

    static func same(_ a: [SQLValue], _ b: [SQLValue]) -> Bool {
        zip(a, b).allSatisfy { x, y in
            switch (x, y) {
            case (.integer(let i), .real(let d)), (.real(let d), .integer(let i)): return Double(i) == d
            default: return x == y
            }
        }
    }

    /// The analyzer's rule for two summaries of one day (`Analyzer.consumeSummary`): larger wins.
    static func larger(_ a: ActivitySummary, than b: ActivitySummary) -> Bool {
        func key(_ s: ActivitySummary) -> [Double] {
            [
                s.activeEnergyBurnedKcal, s.appleExerciseTimeMinutes, s.appleStandHours,
                s.appleMoveTimeMinutes, s.activeEnergyBurnedGoalKcal, s.appleExerciseTimeGoalMinutes,
                s.appleStandHoursGoal, s.appleMoveTimeGoalMinutes,
            ].map { $0 ?? -1 }
        }
        return key(a).lexicographicallyPrecedes(key(b)) == false && key(a) != key(b)
    }

    func applyMe(_ me: Me, exportUTC: Int64?, export: Int64) throws {
        let find = try db.prepare("SELECT e.export_utc FROM me JOIN exports e ON e.id = me.export_id")
        if try find.step() {
            let stored = find.int64OrNil(0)
            if let stored, (exportUTC ?? Int64.min) < stored { return }
        }
        let write = try db.prepare(
            """
            INSERT OR REPLACE INTO me (id, date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type,
              cardio_fitness_medications_use, export_id) VALUES (1,?,?,?,?,?,?)
            """)
        write.bind(1, me.dateOfBirth)
        write.bind(2, me.biologicalSex)
        write.bind(3, me.bloodType)
        write.bind(4, me.fitzpatrickSkinType)
        write.bind(5, me.cardioFitnessMedicationsUse)
        write.bind(6, export)
        try write.run()
    }
}

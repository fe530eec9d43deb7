import HealthExport

extension Archive {
    /// Replays the archive as the reader would deliver one export holding all of it: records in
    /// archive order (the first export's document order, then what later exports added), in
    /// batches of `batchSize`, then the records inside correlations (marked
    /// `isNestedInCorrelation`, as the reader marks them) with their correlations, the workouts
    /// and the ActivitySummary days.
    ///
    /// The returned summary is the latest export's (by `ExportDate`): its name, date, version,
    /// locale and diagnostics, the archive's `Me`, and `timeZoneCounts` over every stored
    /// `HKTimeZone` metadata entry (a record's counted once per copy).
    ///
    /// A top-level record comes with `Record.line`, its line in the export it was first imported
    /// from (the smallest of its copies' lines there; 0 for records inside correlations), and is
    /// handed on `records.copies` times: as often as the export holding the most exact duplicates
    /// of it (docs/deduplication.md §2) held it.
    ///
    /// - Throws: `ArchiveError`, or what `consume` throws.
    public func read(batchSize: Int = 4096, consume: (ExportBatch) throws -> Void) throws -> ExportSummary {
        try withoutActuallyEscaping(consume) { consume in try read(parts: 1, batchSize: batchSize) { _ in consume } }
    }

    /// `read(batchSize:consume:)` on up to `parts` threads (`report --db --threads N`): the
    /// top-level records are cut by id into `parts` runs of about equal length, each replayed on a
    /// connection and a thread of its own (all in one snapshot: each connection checks that it
    /// sees the archive the first one sees, else the read is one-thread) into the consumer
    /// `makeConsumer(i)` made for it, which is called only from that thread, with its run's
    /// records in archive order. Then part 0's consumer gets the correlations, workouts and
    /// ActivitySummary days. The parts together hold exactly what the one-thread read hands on.
    /// An archive of fewer than `minimumRecordsPerPart` records a part is read in fewer parts
    /// (a part's connection and lookup tables cost more than a few thousand records).
    ///
    /// - Throws: `ArchiveError`, or what a consumer throws (the first part's, in part order).
    public func read(
        parts: Int, batchSize: Int = 4096, minimumRecordsPerPart: Int = 50_000,
        makeConsumer: (Int) -> (ExportBatch) throws -> Void
    ) throws -> ExportSummary {
        do {
            try db.execute("BEGIN")  // one snapshot for the whole replay
            defer { try? db.execute("COMMIT") }
            readStamp = try currentStamp()  // the first read: it starts the snapshot
            let replay = try Replay(db)
            let cuts = try recordCuts(parts: parts, minimumRecordsPerPart: max(1, minimumRecordsPerPart))
            let others = try snapshotConnections(cuts.count - 1)
            let runs: [(Int64, Int64)] = others == nil ? [(.min, .max)] : cuts
            let connections = [db] + (others ?? [])
            defer { for c in connections.dropFirst() { try? c.execute("COMMIT") } }
            let consumers = (0..<runs.count).map(makeConsumer)
            let replays = try [replay] + connections.dropFirst().map { try Replay($0) }
            _ = try ParallelWork.map(count: runs.count, order: Array(0..<runs.count), threads: runs.count) { i in
                try replays[i].records(from: runs[i].0, through: runs[i].1, batchSize: max(1, batchSize), consumers[i])
            }
            var batch = ExportBatch()
            let correlations = try replay.correlations()
            for c in correlations { batch.records.append(contentsOf: c.records) }
            batch.correlations = correlations
            batch.workouts = try replay.workouts()
            batch.activitySummaries = try replay.summaries()
            if batch.count > 0 { try consumers[0](batch) }
            var zones: [String: Int] = [:]
            for r in replays { zones.merge(r.recordTimeZones, uniquingKeysWith: +) }
            return try replay.summary(archivePath: path, recordTimeZones: zones)
        } catch let e as SQLiteError {
            throw classify(e)
        } catch let e as DamagedRow {
            throw ArchiveError.damaged(path: path, problem: e.problem)
        }
    }

    /// The id runs `first ... last` of up to `parts` parts of about equal record counts, covering
    /// every id, cut between blocks (one pass over the blocks' `count`, which SQLite keeps
    /// before the blocks' text: the text is not read).
    private func recordCuts(parts: Int, minimumRecordsPerPart: Int) throws -> [(Int64, Int64)] {
        let blocks = try db.prepare("SELECT id, count FROM record_blocks ORDER BY id")
        var counts: [(block: Int64, count: Int64)] = []
        var total: Int64 = 0
        while try blocks.step() {
            let count = try blocks.required(1, row: blocks.int64(0), in: ArchiveRange.count, "a count of records")
            counts.append((blocks.int64(0), count))
            total += count
        }
        let n = Int(max(1, min(Int64(parts), total / Int64(minimumRecordsPerPart))))
        guard n > 1 else { return [(Int64.min, Int64.max)] }
        var bounds: [Int64] = [Int64.min]
        var sum: Int64 = 0
        for (block, count) in counts {
            // A new part starts at the first block past the next quantile.
            if sum >= total * Int64(bounds.count) / Int64(n), bounds.count < n {
                bounds.append(RecordBlock.firstRecordID(ofBlock: block))
            }
            sum += max(0, count)
        }
        bounds.append(.max)  // (the last run ends at .max itself)
        return (0..<(bounds.count - 1)).map { (bounds[$0], $0 + 2 < bounds.count ? bounds[$0 + 1] - 1 : .max) }
    }

    /// `count` more read-only connections, each in a read transaction that sees what this one
    /// sees (the same `readStamp`), or nil when one does not (an import committed between them):
    /// then the read is one-thread.
    private func snapshotConnections(_ count: Int) throws -> [Connection]? {
        guard count > 0 else { return [] }
        var out: [Connection] = []
        for _ in 0..<count {
            let c = try Connection(
                path: path, readOnly: true, create: false, immutable: immutable, queryOnly: queryOnly)
            c.setBusyHandler(busyWait)
            try c.execute("BEGIN")
            let s = try c.prepare("SELECT count(*), coalesce(max(id), 0) FROM exports")
            guard try s.step(), ArchiveStamp(exports: s.int64(0), lastExportID: s.int64(1)) == readStamp else {
                for d in out + [c] { try? d.execute("COMMIT") }
                return nil
            }
            out.append(c)
        }
        return out
    }
}

/// The lookup tables by id and the queries of one replay.
final class Replay {
    let db: Connection
    var types: [Int64: String] = [:]
    var sources: [Int64: String] = [:]
    var versions: [Int64: String] = [:]
    var units: [Int64: (unit: String, canonical: CanonicalUnit?)] = [:]
    var valueTexts: [Int64: String] = [:]
    var keys: [Int64: String] = [:]
    /// The id of the `HKTimeZone` metadata key (nil: no entry has it).
    var timeZoneKey: Int64?
    /// The `HKTimeZone` values of the top-level records `records` handed on, each counted once
    /// per copy.
    var recordTimeZones: [String: Int] = [:]
    var devices: [Int64: Device] = [:]
    /// Categories by value-text id (one `CategoryValue` per distinct string).
    var categories: [Int64: CategoryValue] = [:]
    /// The tables above that every top-level record looks up, by id as an array index (ids are
    /// SQLite's small dense row ids): a record costs no hashing. nil: no such id.
    var typeByID = DenseTable<String>([:])
    var sourceByID = DenseTable<String>([:])
    var versionByID = DenseTable<String>([:])
    var deviceByID = DenseTable<Device>([:])
    var unitByID = DenseTable<(unit: String, canonical: CanonicalUnit?)>([:])
    var keyByID = DenseTable<String>([:])

    init(_ db: Connection) throws {
        self.db = db
        func load(_ sql: String, _ into: (Statement) -> Void) throws {
            let s = try db.prepare(sql)
            while try s.step() { into(s) }
        }
        try load("SELECT id, identifier FROM types") { types[$0.int64(0)] = $0.text(1) }
        try load("SELECT id, name FROM sources") { sources[$0.int64(0)] = $0.text(1) }
        try load("SELECT id, version FROM source_versions") { versions[$0.int64(0)] = $0.text(1) }
        try load("SELECT id, unit, canonical_unit FROM units") {
            units[$0.int64(0)] = ($0.text(1), $0.textOrNil(2).flatMap(CanonicalUnit.init(rawValue:)))
        }
        try load("SELECT id, text FROM value_texts") { valueTexts[$0.int64(0)] = $0.text(1) }
        try load("SELECT id, key FROM metadata_keys") { keys[$0.int64(0)] = $0.text(1) }
        timeZoneKey = keys.first { $0.value == MetadataKey.timeZone }?.key
        try load(
            "SELECT id, name, manufacturer, model, hardware, software, creation_date, other_fields FROM devices"
        ) { devices[$0.int64(0)] = Lookups.device($0, from: 1) }
        typeByID = DenseTable(types)
        sourceByID = DenseTable(sources)
        versionByID = DenseTable(versions)
        deviceByID = DenseTable(devices)
        unitByID = DenseTable(units)
        keyByID = DenseTable(keys)
    }

    /// The instant in column `c` (UTC seconds, NULL: none) with the printed offset in column
    /// `o` (minutes), of the row `row`.
    /// - Throws: `DamagedRow` naming the table, the row and the column for an instant outside
    ///   years 0 to 9999 or an offset of more than a day either way, which the importer never
    ///   writes (a hand-edited or damaged archive; docs/archive.md §11).
    func timestamp(_ s: Statement, _ c: Int32, offset o: Int32, row: Int64) throws -> Timestamp? {
        try Self.timestamp(s, c, offset: o, row: row)
    }

    /// `timestamp(_:_:offset:row:)` for any reader of an archive (inspect's too).
    static func timestamp(_ s: Statement, _ c: Int32, offset o: Int32, row: Int64) throws -> Timestamp? {
        guard let seconds = try s.checked(c, row: row, in: ArchiveRange.instant, "an instant of years 0 to 9999")
        else { return nil }
        return Timestamp(secondsSince1970: seconds, printedOffsetSeconds: try Self.offsetSeconds(s, o, row: row))
    }

    /// `timestamp(_:_:offset:row:)` of a column the schema declares NOT NULL.
    /// - Throws: `DamagedRow` when it is NULL all the same, or for the instant or the offset.
    func required(_ s: Statement, _ c: Int32, offset o: Int32, row: Int64) throws -> Timestamp {
        let seconds = try s.required(c, row: row, in: ArchiveRange.instant, "an instant of years 0 to 9999")
        return Timestamp(secondsSince1970: seconds, printedOffsetSeconds: try Self.offsetSeconds(s, o, row: row))
    }

    /// The printed offset in column `o` of `row`, in seconds (NULL: 0, as an export without an
    /// offset on its date).
    /// - Throws: `DamagedRow` for more than a day either way.
    static func offsetSeconds(_ s: Statement, _ o: Int32, row: Int64) throws -> Int32 {
        Int32(try s.checked(o, row: row, in: ArchiveRange.offsetMinutes, "an offset of any zone in minutes") ?? 0) * 60
    }

    /// A printed offset of `minutes` in seconds; at most a day either way (UTC−12 to UTC+14 in use).
    /// - Throws: `DamagedRow` for anything larger.
    static func offsetSeconds(_ minutes: Int64) throws -> Int32 {
        guard minutes.magnitude <= 24 * 60 else {
            throw DamagedRow(problem: "a printed offset of \(minutes) minutes is not an offset of any zone")
        }
        return Int32(minutes * 60)
    }

    /// A record from the 12 record columns starting at `c` (type_id … value_text_id) of `row`.
    /// - Throws: `DamagedRow` for a NULL instant, an impossible instant or offset, or a value
    ///   that is not a finite number.
    func record(_ s: Statement, from c: Int32, nested: Bool, row: Int64) throws -> Record {
        let typeID = s.int64(c)
        let type = types[typeID] ?? ""
        let value: RecordValue
        if let v = try s.checkedDouble(c + 8, row: row), let unitID = s.int64OrNil(c + 9), let unit = units[unitID],
            let canonical = unit.canonical
        {
            value = .quantity(
                Quantity(
                    value: v, unit: canonical, originalValue: try s.checkedDouble(c + 10, row: row) ?? v,
                    originalUnit: unit.unit))
        } else if let textID = s.int64OrNil(c + 11) {
            value = categoryOrText(type: type, textID: textID)
        } else {
            value = .none(nil)
        }
        let sourceID = s.int64(c + 1)
        return Record(
            type: type, typeSymbol: Int32(truncatingIfNeeded: typeID), value: value,
            sourceName: sources[sourceID] ?? "", sourceSymbol: Int32(truncatingIfNeeded: sourceID),
            sourceVersion: s.int64OrNil(c + 2).flatMap { versions[$0] },
            device: s.int64OrNil(c + 3).flatMap { devices[$0] },
            creationDate: try timestamp(s, c + 6, offset: c + 7, row: row),
            startDate: try required(s, c + 4, offset: c + 7, row: row),
            endDate: try required(s, c + 5, offset: c + 7, row: row),
            isNestedInCorrelation: nested)
    }

    /// Appends the top-level record a block holds as `r` to `records`: the instants and the
    /// type come from the id and the stored durations (the same arithmetic as the `records`
    /// view, Schema.swift).
    /// - Throws: `DamagedRow` for an impossible offset.
    func appendTopLevelRecord(_ r: StoredRecord, to records: inout [Record]) throws {
        let typeID = r.id >> 54
        let type = typeByID[typeID] ?? ""
        let offsetSeconds = try Self.offsetSeconds(r.offsetMinutes)
        let start = Schema.start(ofRecord: r.id)
        let end = start + r.duration
        let value: RecordValue
        if let v = r.value, let unitID = r.unit, let unit = unitByID[unitID], let canonical = unit.canonical {
            value = .quantity(
                Quantity(value: v, unit: canonical, originalValue: r.original ?? v, originalUnit: unit.unit))
        } else if let textID = r.text {
            value = categoryOrText(type: type, textID: textID)
        } else {
            value = .none(nil)
        }
        records.appendRecord(
            line: Int(r.line ?? 0), type: type, typeSymbol: Int32(truncatingIfNeeded: typeID), value: value,
            sourceName: sourceByID[r.source] ?? "", sourceSymbol: Int32(truncatingIfNeeded: r.source),
            sourceVersion: r.version.flatMap { versionByID[$0] }, device: r.device.flatMap { deviceByID[$0] },
            creationDate: r.creationDelay.map {
                Timestamp(secondsSince1970: end + $0, printedOffsetSeconds: offsetSeconds)
            },
            startDate: Timestamp(secondsSince1970: start, printedOffsetSeconds: offsetSeconds),
            endDate: Timestamp(secondsSince1970: end, printedOffsetSeconds: offsetSeconds))
    }

    /// A record's value stored as text: a category for an `HKCategoryTypeIdentifier…` type (one
    /// `CategoryValue` per distinct text), else the text itself.
    func categoryOrText(type: String, textID: Int64) -> RecordValue {
        guard type.hasPrefix("HKCategoryTypeIdentifier") else { return .none(valueTexts[textID]) }
        if let known = categories[textID] { return .category(known) }
        let category = CategoryValue(exportText: valueTexts[textID] ?? "")
        categories[textID] = category
        return .category(category)
    }

    static let recordColumns =
        "type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc, printed_offset_min,"
        + " value, unit_id, original_value, value_text_id"

    /// Top-level records in id order, block by block (their metadata and heartbeats with them),
    /// with copies merged in from `record_copies` (ordered by record id: one forward scan).
    func records(
        from first: Int64 = .min, through last: Int64 = .max, batchSize: Int, _ consume: (ExportBatch) throws -> Void
    ) throws {
        let blocks = try db.prepare("SELECT id, records FROM record_blocks WHERE id BETWEEN ?1 AND ?2 ORDER BY id")
        blocks.bind(1, RecordBlock.blockID(ofRecord: first))
        blocks.bind(2, RecordBlock.blockID(ofRecord: last))
        let copies = try db.prepare("SELECT id, copies FROM record_copies WHERE id BETWEEN ?1 AND ?2 ORDER BY id")
        copies.bind(1, first)
        copies.bind(2, last)
        var copiesOwner = try copies.step() ? copies.int64(0) : Int64.max
        var batch = ExportBatch()
        batch.records.reserveCapacity(batchSize)
        var previous = Int64.min
        while try blocks.step() {
            let block = blocks.int64(0)
            try blocks.withTextBytes(1) { text in
                try RecordBlock.decode(text, block: block) { s in
                    guard s.id >= first && s.id <= last else { return }
                    let id = s.id
                    guard id > previous else { throw DamagedRow(problem: "record block \(block) is out of id order") }
                    previous = id
                    try appendTopLevelRecord(s, to: &batch.records)
                    let k = batch.records.count - 1
                    var zones: [String] = []
                    if !s.metadata.isEmpty {
                        batch.records[k].metadata = s.metadata.map { e in
                            if e.key == timeZoneKey { zones.append(e.value) }
                            return MetadataEntry(key: keyByID[e.key] ?? "", value: e.value)
                        }
                    }
                    if !s.heartbeats.isEmpty { batch.records[k].heartbeats = s.heartbeats }
                    while copiesOwner < id { copiesOwner = try copies.step() ? copies.int64(0) : Int64.max }
                    // Exact duplicates come back as copies.
                    var n: Int64 = 1
                    if copiesOwner == id {
                        n = copies.int64(1)
                        guard n <= 1 << 21 else { throw DamagedRow(problem: "record \(id) has \(n) copies") }
                        if n > 1 { for _ in 1..<n { batch.records.append(batch.records[k]) } }
                    }
                    for zone in zones { recordTimeZones[zone, default: 0] += Int(max(1, n)) }
                    if batch.records.count >= batchSize {
                        try consume(batch)
                        batch.records.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !batch.records.isEmpty { try consume(batch) }
    }

    /// The metadata of one owner, in order.
    func metadata(_ kind: Schema.OwnerKind, _ owner: Int64, _ s: Statement) throws -> [MetadataEntry] {
        defer { s.reset() }
        s.bind(1, kind.rawValue)
        s.bind(2, owner)
        var entries: [MetadataEntry] = []
        while try s.step() { entries.append(MetadataEntry(key: keys[s.int64(0)] ?? "", value: s.text(1))) }
        return entries
    }

    func metadataStatement() throws -> Statement {
        try db.prepare("SELECT key_id, value FROM metadata WHERE owner_kind = ? AND owner_id = ? ORDER BY position")
    }

    func correlations() throws -> [Correlation] {
        let md = try metadataStatement()
        let rows = try db.prepare(
            """
            SELECT id, type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc,
              printed_offset_min FROM correlations ORDER BY id
            """)
        let children = try db.prepare(
            "SELECT id, \(Self.recordColumns) FROM correlation_records WHERE correlation_id = ? ORDER BY position")
        var out: [Correlation] = []
        while try rows.step() {
            let id = rows.int64(0)
            var c = Correlation(
                type: types[rows.int64(1)] ?? "", attributes: try sampleAttributes(rows, from: 2, row: id),
                metadata: try metadata(.correlation, id, md))
            children.bind(1, id)
            while try children.step() {
                var r = try record(children, from: 1, nested: true, row: children.int64(0))
                r.metadata = try metadata(.correlationRecord, children.int64(0), md)
                c.records.append(r)
            }
            children.reset()
            out.append(c)
        }
        return out
    }

    /// The archive's workouts, each with its activities, events, statistics and routes, in the
    /// order they were imported (the workout, then what belongs to it, each by position).
    func workouts() throws -> [Workout] {
        let q = try WorkoutStatements(db)
        let md = try metadataStatement()
        var out: [Workout] = []
        while try q.workouts.step() {
            var w = try workout(q.workouts, md)
            let id = q.workouts.int64(0)
            // Activities first: their events and statistics are attached to them by id.
            let activityIndex = try attachActivities(to: &w, id, q.activities, md)
            try attachEvents(to: &w, id, activityIndex, q.events, md)
            try attachStatistics(to: &w, id, activityIndex, q.statistics)
            try attachRoutes(to: &w, id, q, md)
            out.append(w)
        }
        return out
    }

    /// The workout of the current row of `WorkoutStatements.workouts`, without what belongs to it.
    private func workout(_ rows: Statement, _ md: Statement) throws -> Workout {
        let id = rows.int64(0)
        return Workout(
            activityType: types[rows.int64(1)] ?? "", durationMinutes: try rows.checkedDouble(9, row: id),
            totalDistanceKm: try rows.checkedDouble(10, row: id),
            totalEnergyBurnedKcal: try rows.checkedDouble(11, row: id),
            attributes: try sampleAttributes(rows, from: 2, row: id), metadata: try metadata(.workout, id, md))
    }

    /// The `SampleAttributes` in the columns from `k` on of a correlation, workout or route row:
    /// source id, version id, device id, start, end, creation, printed offset.
    private func sampleAttributes(_ rows: Statement, from k: Int32, row id: Int64) throws -> SampleAttributes {
        SampleAttributes(
            sourceName: sources[rows.int64(k)] ?? "", sourceVersion: rows.int64OrNil(k + 1).flatMap { versions[$0] },
            device: rows.int64OrNil(k + 2).flatMap { devices[$0] },
            creationDate: try timestamp(rows, k + 5, offset: k + 6, row: id),
            startDate: try required(rows, k + 3, offset: k + 6, row: id),
            endDate: try required(rows, k + 4, offset: k + 6, row: id))
    }

    /// Appends workout `id`'s activities to `w`; returns each activity's index in
    /// `w.activities` by its row id.
    private func attachActivities(to w: inout Workout, _ id: Int64, _ activities: Statement, _ md: Statement)
        throws -> [Int64: Int]
    {
        var activityIndex: [Int64: Int] = [:]
        activities.bind(1, id)
        defer { activities.reset() }
        while try activities.step() {
            let a = activities.int64(0)
            activityIndex[a] = w.activities.count
            w.activities.append(
                WorkoutActivity(
                    uuid: activities.textOrNil(1), startDate: try required(activities, 2, offset: 4, row: a),
                    endDate: try timestamp(activities, 3, offset: 4, row: a),
                    durationMinutes: try activities.checkedDouble(5, row: a),
                    metadata: try metadata(.workoutActivity, activities.int64(0), md)))
        }
        return activityIndex
    }

    /// Appends workout `id`'s events to `w`, or to the activity an event belongs to.
    private func attachEvents(
        to w: inout Workout, _ id: Int64, _ activityIndex: [Int64: Int], _ events: Statement, _ md: Statement
    ) throws {
        events.bind(1, id)
        defer { events.reset() }
        while try events.step() {
            let e = WorkoutEvent(
                type: types[events.int64(2)] ?? "",
                date: try required(events, 3, offset: 4, row: events.int64(0)),
                durationMinutes: try events.checkedDouble(5, row: events.int64(0)),
                metadata: try metadata(.workoutEvent, events.int64(0), md))
            if let a = events.int64OrNil(1).flatMap({ activityIndex[$0] }) {
                w.activities[a].events.append(e)
            } else {
                w.events.append(e)
            }
        }
    }

    /// Appends workout `id`'s statistics to `w`, or to the activity a statistic belongs to.
    private func attachStatistics(
        to w: inout Workout, _ id: Int64, _ activityIndex: [Int64: Int], _ statistics: Statement
    ) throws {
        statistics.bind(1, id)
        defer { statistics.reset() }
        while try statistics.step() {
            let row = statistics.int64(10)
            let unit = statistics.int64OrNil(9).flatMap { units[$0] }
            let st = WorkoutStatistics(
                type: types[statistics.int64(1)] ?? "", startDate: try required(statistics, 2, offset: 4, row: row),
                endDate: try required(statistics, 3, offset: 4, row: row),
                sum: try statistics.checkedDouble(5, row: row), average: try statistics.checkedDouble(6, row: row),
                minimum: try statistics.checkedDouble(7, row: row),
                maximum: try statistics.checkedDouble(8, row: row),
                unit: unit?.canonical, originalUnit: unit?.unit)
            if let a = statistics.int64OrNil(0).flatMap({ activityIndex[$0] }) {
                w.activities[a].statistics.append(st)
            } else {
                w.statistics.append(st)
            }
        }
    }

    /// Appends workout `id`'s routes to `w`, each with its route files and locations.
    private func attachRoutes(to w: inout Workout, _ id: Int64, _ q: WorkoutStatements, _ md: Statement) throws {
        q.routes.bind(1, id)
        defer { q.routes.reset() }
        while try q.routes.step() {
            let routes = q.routes
            let routeID = routes.int64(0)
            var route = WorkoutRoute(
                attributes: try sampleAttributes(routes, from: 1, row: routeID),
                metadata: try metadata(.workoutRoute, routeID, md))
            q.files.bind(1, routeID)
            while try q.files.step() { route.filePaths.append(q.files.text(0)) }
            q.files.reset()
            route.locations = try locations(ofRoute: routeID, q.locations)
            w.routes.append(route)
        }
    }

    /// The locations of route `routeID`, in order.
    private func locations(ofRoute routeID: Int64, _ locations: Statement) throws -> [RouteLocation] {
        var out: [RouteLocation] = []
        locations.bind(1, routeID)
        defer { locations.reset() }
        while try locations.step() {
            // A row of this WITHOUT ROWID table is named by its position in the route.
            let at = locations.int64(9)
            func number(_ c: Int32) throws -> Double? { try locations.checkedDouble(c, row: at) }
            out.append(
                RouteLocation(
                    date: try required(locations, 0, offset: 1, row: at),
                    latitude: try number(2) ?? 0, longitude: try number(3) ?? 0,
                    altitude: try number(4), horizontalAccuracy: try number(5),
                    verticalAccuracy: try number(6), course: try number(7), speed: try number(8)))
        }
        return out
    }

    func summaries() throws -> [ActivitySummary] {
        let rows = try db.prepare(
            """
            SELECT date, active_energy_kcal, active_energy_goal_kcal, active_energy_unit, move_time_min,
              move_time_goal_min, exercise_time_min, exercise_time_goal_min, stand_hours, stand_hours_goal
            FROM activity_summaries ORDER BY date
            """)
        var out: [ActivitySummary] = []
        while try rows.step() {
            guard let date = CivilDate(rows.text(0)) else { continue }
            out.append(
                ActivitySummary(
                    date: date, activeEnergyBurnedKcal: rows.doubleOrNil(1),
                    activeEnergyBurnedGoalKcal: rows.doubleOrNil(2),
                    activeEnergyBurnedUnit: rows.textOrNil(3), appleMoveTimeMinutes: rows.doubleOrNil(4),
                    appleMoveTimeGoalMinutes: rows.doubleOrNil(5), appleExerciseTimeMinutes: rows.doubleOrNil(6),
                    appleExerciseTimeGoalMinutes: rows.doubleOrNil(7), appleStandHours: rows.doubleOrNil(8),
                    appleStandHoursGoal: rows.doubleOrNil(9)))
        }
        return out
    }

    /// The latest export's header and diagnostics, the archive's `Me`, and HKTimeZone counts.
    /// - Parameter recordTimeZones: the `HKTimeZone` values of the top-level records, each
    ///   counted once per copy (the replay's `recordTimeZones`); the other owners' are read here.
    func summary(archivePath: String, recordTimeZones: [String: Int]) throws -> ExportSummary {
        let latest = try db.prepare(
            """
            SELECT id, input_name, export_utc, printed_offset_min, export_version, locale, bytes_read FROM exports
            ORDER BY export_utc IS NULL, export_utc DESC, id DESC LIMIT 1
            """)
        var name = archivePath
        var exportDate: Timestamp?
        var version: Int?
        var locale: String?
        var bytes: Int64 = 0
        var diagnostics: [Diagnostic] = []
        if try latest.step() {
            let id = latest.int64(0)
            name = latest.text(1)
            exportDate = try timestamp(latest, 2, offset: 3, row: id)
            version = try latest.checked(4, row: id, in: 0...Int64(Int32.max), "a version number").map { Int($0) }
            locale = latest.textOrNil(5)
            bytes = try latest.required(6, row: id, in: ArchiveRange.count, "a size in bytes")
            let d = try db.prepare(
                """
                SELECT kind, detail, count, first_line, position FROM export_diagnostics WHERE export_id = ?
                ORDER BY position
                """)
            d.bind(1, id)
            while try d.step() {
                guard let kind = Diagnostic.Kind(rawValue: d.text(0)) else { continue }
                let at = d.int64(4)
                diagnostics.append(
                    Diagnostic(
                        kind: kind, detail: d.text(1),
                        count: Int(try d.required(2, row: at, in: ArchiveRange.count, "a count")),
                        firstLine: Int(try d.required(3, row: at, in: ArchiveRange.count, "a line number"))))
            }
        }
        var me: Me?
        let m = try db.prepare(
            """
            SELECT date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type, cardio_fitness_medications_use
            FROM me
            """)
        if try m.step() {
            me = Me(
                dateOfBirth: m.textOrNil(0), biologicalSex: m.textOrNil(1), bloodType: m.textOrNil(2),
                fitzpatrickSkinType: m.textOrNil(3), cardioFitnessMedicationsUse: m.textOrNil(4))
        }
        var zones = recordTimeZones
        // Owner kinds above 1 (not records) are one range of the key: no scan of the records'.
        let z = try db.prepare(
            """
            SELECT value, count(*) FROM metadata
            WHERE owner_kind > 1 AND key_id = (SELECT id FROM metadata_keys WHERE key = ?) GROUP BY value
            """)
        z.bind(1, MetadataKey.timeZone)
        while try z.step() { zones[z.text(0), default: 0] += Int(z.int64(1)) }
        // Every other export's date, oldest first: its offset names zones for its own days.
        var earlier: [Timestamp] = []
        let all = try db.prepare(
            """
            SELECT export_utc, printed_offset_min, id FROM exports WHERE export_utc IS NOT NULL
            ORDER BY export_utc, id
            """)
        while try all.step() {
            if let t = try timestamp(all, 0, offset: 1, row: all.int64(2)), t != exportDate {
                earlier.append(t)
            }
        }
        var summary = ExportSummary(
            replaying: name, exportDate: exportDate, exportVersion: version, locale: locale, me: me, bytesRead: bytes,
            timeZoneCounts: zones, droppedDoctype: false, diagnostics: diagnostics)
        summary.earlierExportDates = earlier
        return summary
    }
}

/// Values by SQLite row id, in an array indexed by the id: the archive's lookup tables have small
/// dense ids (1, 2, 3, ...). Ids beyond the array's reach (a hand-edited table) are looked up in
/// a dictionary instead.
struct DenseTable<Value> {
    private var slots: [Value?] = []
    private var sparse: [Int64: Value] = [:]
    static var maxDenseID: Int64 { 1 << 20 }

    init(_ values: [Int64: Value]) {
        let top = values.keys.filter { $0 >= 0 && $0 < Self.maxDenseID }.max() ?? -1
        slots = Array(repeating: nil, count: Int(top + 1))
        for (id, v) in values {
            if id >= 0 && id <= top { slots[Int(id)] = v } else { sparse[id] = v }
        }
    }

    @inline(__always) subscript(id: Int64) -> Value? {
        id >= 0 && id < Int64(slots.count) ? slots[Int(id)] : sparse[id]
    }
}

/// The statements `Replay.workouts()` reads a workout and what belongs to it with, prepared once
/// for all workouts.
struct WorkoutStatements {
    let workouts: Statement
    let activities: Statement
    let events: Statement
    let statistics: Statement
    let routes: Statement
    let files: Statement
    let locations: Statement

    init(_ db: Connection) throws {
        workouts = try db.prepare(
            """
            SELECT id, activity_type_id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc,
              printed_offset_min, duration_min, total_distance_km, total_energy_kcal FROM workouts ORDER BY id
            """)
        activities = try db.prepare(
            """
            SELECT id, uuid, start_utc, end_utc, printed_offset_min, duration_min FROM workout_activities
            WHERE workout_id = ? ORDER BY position
            """)
        events = try db.prepare(
            """
            SELECT id, activity_id, type_id, date_utc, printed_offset_min, duration_min FROM workout_events
            WHERE workout_id = ? ORDER BY position
            """)
        statistics = try db.prepare(
            """
            SELECT activity_id, type_id, start_utc, end_utc, printed_offset_min, sum, average, minimum, maximum, unit_id,
              id FROM workout_statistics WHERE workout_id = ? ORDER BY position
            """)
        routes = try db.prepare(
            """
            SELECT id, source_id, source_version_id, device_id, start_utc, end_utc, creation_utc, printed_offset_min
            FROM workout_routes WHERE workout_id = ? ORDER BY position
            """)
        files = try db.prepare("SELECT path FROM workout_route_files WHERE route_id = ? ORDER BY position")
        locations = try db.prepare(
            """
            SELECT date_utc, printed_offset_min, latitude, longitude, altitude, horizontal_accuracy, vertical_accuracy,
              course, speed, position FROM route_locations WHERE route_id = ? ORDER BY position
            """)
    }
}

import HealthExport

/// What `inspect --db` shows: the exports imported, the span of the data and counts.
public struct ArchiveInspection: Sendable {
    public struct ExportRow: Sendable {
        public var inputName: String
        public var exportDate: Timestamp?
        public var recordsRead: Int
        public var recordsNew: Int
        /// When it was first imported (seconds since 1970 UTC).
        public var firstImported: Int64
    }
    public struct Count: Sendable {
        public var name: String
        public var count: Int
        /// Units as written (for types), the most frequent device (for sources).
        public var detail: String
    }

    public var exports: [ExportRow] = []
    public var firstStart: Int64?
    public var lastEnd: Int64?
    public var types: [Count] = []
    public var sources: [Count] = []
    public var workouts: [Count] = []
    public var correlations: [Count] = []
    public var summaryDays = 0
    public var records = 0
    /// Records inside correlations (not counted among `records`).
    public var nestedRecords = 0
    public var fileBytes: Int64 = 0
}

extension Archive {
    /// Counts for `inspect --db`, in one read snapshot. `progress` is called every 65,536
    /// records with the records counted so far and the total.
    public func inspect(progress: ((_ done: Int64, _ total: Int64) -> Void)? = nil) throws(ArchiveError)
        -> ArchiveInspection
    {
        try wrap {
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            var out = ArchiveInspection()
            let e = try db.prepare(
                """
                SELECT input_name, export_utc, printed_offset_min, records_read, records_new, first_imported_utc, id
                FROM exports ORDER BY export_utc, id
                """)
            while try e.step() {
                let id = e.int64(6)
                func count(_ c: Int32) throws -> Int {
                    Int(try e.required(c, row: id, in: ArchiveRange.count, "a count"))
                }
                out.exports.append(
                    .init(
                        inputName: e.text(0), exportDate: try Replay.timestamp(e, 1, offset: 2, row: id),
                        recordsRead: try count(3), recordsNew: try count(4),
                        firstImported: try e.required(
                            5, row: id, in: ArchiveRange.instant, "an instant of years 0 to 9999")))
            }
            // One pass over the record blocks (in id order: type, then start), counted here rather
            // than with GROUP BYs over the `records` view.
            out.nestedRecords = Int(try db.integer("SELECT count(*) FROM correlation_records") ?? 0)
            out.summaryDays = Int(try db.integer("SELECT count(*) FROM activity_summaries") ?? 0)
            // (total(), a double, cannot overflow as sum() does; a wrong count is named below.)
            let total = try db.integer("SELECT CAST(min(total(count), 1 << 40) AS INTEGER) FROM record_blocks") ?? 0
            var names: [String: [Int64: String]] = [:]
            for (table, column) in [("types", "identifier"), ("sources", "name"), ("units", "unit")] {
                let s = try db.prepare("SELECT id, \(column) FROM \(table)")
                while try s.step() { names[table, default: [:]][s.int64(0)] = s.text(1) }
            }
            var deviceNames: [Int64: String] = [:]
            let d = try db.prepare("SELECT id, coalesce(name || ' ' || hardware, name, model, '-') FROM devices")
            while try d.step() { deviceNames[d.int64(0)] = d.text(1) }
            var perType: [Int64: (count: Int, units: [Int64: Int])] = [:]
            var perSource: [Int64: (count: Int, devices: [Int64: Int])] = [:]
            let blocks = try db.prepare("SELECT id, records, count FROM record_blocks ORDER BY id")
            var done: Int64 = 0
            var stored: [StoredRecord] = []
            while try blocks.step() {
                let block = blocks.int64(0)
                _ = try blocks.required(2, row: block, in: ArchiveRange.count, "a count of records")
                try blocks.withTextBytes(1) { try RecordBlock.decode($0, block: block, into: &stored) }
                for r in stored {
                    let type = r.id >> 54
                    let start = Schema.start(ofRecord: r.id)
                    let end = start + r.duration
                    out.firstStart = min(out.firstStart ?? start, start)
                    out.lastEnd = max(out.lastEnd ?? end, end)
                    perType[type, default: (0, [:])].count += 1
                    perType[type]!.units[r.unit ?? 0, default: 0] += 1
                    perSource[r.source, default: (0, [:])].count += 1
                    perSource[r.source]!.devices[r.device ?? 0, default: 0] += 1
                    done += 1
                    if done % 65_536 == 0 { progress?(done, total) }
                }
            }
            out.records = Int(done)
            out.types = perType.map { type, v in
                let units = v.units.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                    $0.key == 0 ? "(category)" : names["units"]?[$0.key] ?? "?"
                }
                return .init(name: names["types"]?[type] ?? "?", count: v.count, detail: units.joined(separator: ", "))
            }.sorted { ($1.count, $0.name) < ($0.count, $1.name) }
            out.sources = perSource.map { source, v in
                let top = v.devices.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
                return .init(
                    name: names["sources"]?[source] ?? "?", count: v.count, detail: deviceNames[top] ?? "-")
            }.sorted { ($1.count, $0.name) < ($0.count, $1.name) }
            let workouts = try db.prepare(
                """
                SELECT t.identifier, count(*) FROM workouts w JOIN types t ON t.id = w.activity_type_id
                GROUP BY w.activity_type_id ORDER BY count(*) DESC, t.identifier
                """)
            while try workouts.step() {
                out.workouts.append(.init(name: workouts.text(0), count: Int(workouts.int64(1)), detail: ""))
            }
            let correlations = try db.prepare(
                """
                SELECT t.identifier, count(*) FROM correlations c JOIN types t ON t.id = c.type_id
                GROUP BY c.type_id ORDER BY t.identifier
                """)
            while try correlations.step() {
                out.correlations.append(
                    .init(name: correlations.text(0), count: Int(correlations.int64(1)), detail: ""))
            }
            let pages = try db.integer("PRAGMA page_count") ?? 0
            let size = try db.integer("PRAGMA page_size") ?? 0
            out.fileBytes = pages * size
            return out
        }
    }
}

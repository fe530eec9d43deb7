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
    /// Counts for `inspect --db`, in one read snapshot.
    public func inspect() throws(ArchiveError) -> ArchiveInspection {
        try wrap {
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            var out = ArchiveInspection()
            let e = try db.prepare(
                """
                SELECT input_name, export_utc, printed_offset_min, records_read, records_new, first_imported_utc
                FROM exports ORDER BY export_utc, id
                """)
            while try e.step() {
                out.exports.append(
                    .init(
                        inputName: e.text(0),
                        exportDate: e.int64OrNil(1).map {
                            Timestamp(secondsSince1970: $0, printedOffsetSeconds: Int32((e.int64OrNil(2) ?? 0) * 60))
                        }, recordsRead: Int(e.int64(3)), recordsNew: Int(e.int64(4)), firstImported: e.int64(5)))
            }
            let span = try db.prepare("SELECT min(start_utc), max(end_utc), count(*) FROM records")
            if try span.step() {
                out.firstStart = span.int64OrNil(0)
                out.lastEnd = span.int64OrNil(1)
                out.records = Int(span.int64(2))
            }
            out.nestedRecords = Int(try db.integer("SELECT count(*) FROM correlation_records") ?? 0)
            out.summaryDays = Int(try db.integer("SELECT count(*) FROM activity_summaries") ?? 0)
            let types = try db.prepare(
                """
                SELECT t.identifier, count(*), group_concat(DISTINCT coalesce(u.unit, '(category)'))
                FROM records r JOIN types t ON t.id = r.type_id LEFT JOIN units u ON u.id = r.unit_id
                GROUP BY r.type_id ORDER BY count(*) DESC, t.identifier
                """)
            while try types.step() {
                out.types.append(.init(name: types.text(0), count: Int(types.int64(1)), detail: types.text(2)))
            }
            let sources = try db.prepare(
                """
                SELECT s.name, count(*),
                  (SELECT coalesce(d.name || ' ' || d.hardware, d.name, '-') FROM records r2
                   LEFT JOIN devices d ON d.id = r2.device_id WHERE r2.source_id = r.source_id
                   GROUP BY r2.device_id ORDER BY count(*) DESC LIMIT 1)
                FROM records r JOIN sources s ON s.id = r.source_id GROUP BY r.source_id ORDER BY count(*) DESC, s.name
                """)
            while try sources.step() {
                out.sources.append(
                    .init(name: sources.text(0), count: Int(sources.int64(1)), detail: sources.textOrNil(2) ?? "-"))
            }
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

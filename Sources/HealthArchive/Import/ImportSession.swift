import HealthExport

/// The state of one import: the export's row, and the parts that write its elements (records
/// and correlations, workouts, ActivitySummary days and `Me`) with the lookups they share.
final class ImportSession {
    let db: Connection
    let exportID: Int64
    var outcome = ImportOutcome(inputName: "")
    let lookups: ImportLookups
    let records: RecordImport
    let workouts: WorkoutImport
    var summaries = SummaryImport()

    init(archive: Archive) throws {
        db = archive.db
        let now = ArchivePlatform.now
        let e = try db.prepare(
            """
            INSERT INTO exports (input_name, bytes_read, first_imported_utc, last_imported_utc, records_read,
              records_new) VALUES ('', 0, ?, ?, 0, 0)
            """)
        e.bind(1, now)
        e.bind(2, now)
        try e.run()
        exportID = db.lastInsertRowID
        lookups = try ImportLookups(archive: archive)
        records = try RecordImport(db: db, exportID: exportID, lookups: lookups)
        workouts = try WorkoutImport(db: db, exportID: exportID, lookups: lookups)
    }

    func consume(_ batch: ExportBatch, worker: Int) throws {
        lookups.select(worker: worker)
        try records.consume(batch.records, outcome: &outcome)
        for c in batch.correlations { try records.consume(c, outcome: &outcome) }
        for w in batch.workouts { try workouts.consume(w, outcome: &outcome) }
        summaries.add(batch.activitySummaries, outcome: &outcome)
    }

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
            try records.moveRecords(to: effectiveExport)
            for table in ["correlations", "workouts"] {
                let move = try db.prepare("UPDATE \(table) SET export_id = ? WHERE export_id = ?")
                move.bind(1, effectiveExport)
                move.bind(2, exportID)
                try move.run()
            }
            let drop = try db.prepare("DELETE FROM exports WHERE id = ?")
            drop.bind(1, exportID)
            try drop.run()
            let touch = try db.prepare("UPDATE exports SET last_imported_utc = ? WHERE id = ?")
            touch.bind(1, ArchivePlatform.now)
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
        try summaries.apply(db, exportUTC: exportUTC, export: effectiveExport, outcome: &outcome)
        if let me = summary.me { try SummaryImport.applyMe(me, db, exportUTC: exportUTC, export: effectiveExport) }
        return outcome
    }
}

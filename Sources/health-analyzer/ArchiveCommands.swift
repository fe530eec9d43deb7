import Foundation
import HealthAnalysis
import HealthArchive
import HealthExport
import HealthReports
import HealthTables

/// `report --db` and `inspect --db`: the archive's side of the two commands.
enum ArchiveCommands {
    /// Tells on standard error that a wait for another process's lock has lasted a second.
    static let announceWait: @Sendable (String) -> Void = { printError("note: " + $0) }

    /// `report --db`'s archive, opened once for both of its uses: the replay reads one snapshot
    /// through it, and the result tables made from that snapshot are stored through the same
    /// connection (`Archive.storeResults(_:describing:)` stores nothing when an import committed
    /// after the snapshot was read).
    struct ReportArchive {
        var archive: Archive
        /// Why the archive cannot be written (a 0444 file, a read-only mount): it was opened
        /// read-only, which reading needs no more than, and the result tables are not stored.
        var notWritable: String?
    }

    /// Opens the archive for `report --db`: writable when the file and its folder can be
    /// written (an archive of an earlier schema is upgraded in place on opening, as any writer
    /// does), else read-only.
    /// - Throws: `ArchiveError` (a missing or damaged archive: the one-line message `mcp` shares).
    static func openForReport(db: String) throws(ArchiveError) -> ReportArchive {
        if let reason = Archive.whyNotWritable(db) {
            return ReportArchive(
                archive: try Archive(path: db, readOnly: true, onLongWait: announceWait), notWritable: reason)
        }
        do throws(ArchiveError) {
            return ReportArchive(archive: try Archive(path: db, create: false, onLongWait: announceWait))
        } catch .readOnly(_, let reason) {
            // Writable by its permissions, refused by SQLite (a file system that takes no locks).
            return ReportArchive(
                archive: try Archive(path: db, readOnly: true, onLongWait: announceWait), notWritable: reason)
        }
    }

    /// Replays the archive through the same pipeline as `report` (with a progress line), in one
    /// snapshot of the archive opened by `openForReport`. Returns the run and the archive, for
    /// `storeResults`.
    /// With `threads` of 2 or more, the archive's records are read and analysed in that many
    /// parts at once (`Archive.read(parts:…)`); the progress line follows part 0.
    static func report(db: String, options: AnalysisOptions, threads: Int) throws -> (
        run: ReportRun, archive: ReportArchive
    ) {
        let opened = try openForReport(db: db)
        let archive = opened.archive
        let progress = ProgressLine(label: "Reading \((db as NSString).lastPathComponent)", unit: .records)
        defer { progress.finish() }
        let total = progress.isEnabled ? try archive.rowCounts()["records"].map { Int64($0) } : nil
        let parts = max(1, threads)
        var done: Int64 = 0
        let run = try ReportPipeline.run(
            parts: parts,
            reading: { makeConsumer in
                try archive.read(parts: parts) { i in
                    let consume = makeConsumer(i)
                    guard i == 0 else { return consume }
                    return { batch in
                        done += Int64(batch.records.count)
                        if progress.isEnabled { progress.update(done * Int64(parts), total) }
                        try consume(batch)
                    }
                }
            }, options: options,
            environmentTimeZone: ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 })
        return (run, opened)
    }

    /// Stores the run's result tables in the archive it was read from, when they still describe
    /// it. Called before `--out` is replaced, so that the command's success is decided before
    /// anything becomes visible (a 0444 archive made `report --db` exit 1 after replacing `--out`).
    /// Returns a warning, and stores nothing, when the archive cannot be written (a read-only
    /// file or mount) or an import committed since the read; throws any other failure (a full
    /// disk), and then `--out` is left as it was.
    static func storeResults(_ run: ReportRun, in opened: ReportArchive, db: String) throws -> String? {
        let notStored =
            "the result tables (" + Archive.resultTables.map(\.table).joined(separator: ", ")
            + ") were not stored"
        if let reason = opened.notWritable {
            return "\(db) is read-only (\(reason)): \(notStored); the report is complete"
        }
        let failure: ArchiveError
        do {
            if let stamp = opened.archive.readStamp {
                try opened.archive.storeResults(run, describing: stamp)
            } else {
                try opened.archive.storeResults(run)
            }
            return nil
        } catch {
            failure = error
        }
        switch failure {
        case .changedMeanwhile(let path, let before, let now):
            return "\(path): an import committed while the report was made (exports \(before.exports), then"
                + " \(now.exports)): \(notStored); the report describes the archive as it was read; run report --db"
                + " again to store them"
        case .readOnly(_, let reason):
            return "\(db) is read-only (\(reason)): \(notStored); the report is complete"
        default:
            throw failure
        }
    }

    /// `inspect --db <file>`: exports imported, date range, counts per type and source.
    static func inspect(db: String) throws -> String {
        let progress = ProgressLine(
            label: "Reading \((db as NSString).lastPathComponent)", unit: .records, interrupted: .plain)
        let i: ArchiveInspection
        do {
            defer { progress.finish() }
            i = try Archive(path: db, readOnly: true, onLongWait: announceWait).inspect(
                progress: progress.isEnabled ? { done, total in progress.update(done, total) } : nil)
        }
        var out = ""
        func line(_ label: String, _ value: String) { out += label.padding(13) + value + "\n" }
        line("Archive", "\(db) (\(formatBytes(i.fileBytes)), schema version \(Archive.schemaVersion))")
        let printedOffset = i.exports.last?.exportDate?.printedOffsetSeconds ?? 0
        func printed(_ t: Int64) -> String {
            Timestamp(secondsSince1970: t, printedOffsetSeconds: printedOffset).description
        }
        if let first = i.firstStart, let last = i.lastEnd {
            line("Data from", "\(printed(first)) to \(printed(last))")
        } else {
            line("Data from", "no records")
        }
        line(
            "Records",
            "\(grouped(i.records)) in \(counted(i.types.count, "type")) from \(counted(i.sources.count, "source"))"
                + (i.nestedRecords > 0 ? " (+\(grouped(i.nestedRecords)) inside correlations, not counted)" : ""))
        line("Workouts", grouped(i.workouts.reduce(0) { $0 + $1.count }))
        line("Activity", counted(i.summaryDays, "ActivitySummary day"))
        if !i.correlations.isEmpty {
            line(
                "Correlations", i.correlations.map { "\(short($0.name)) \(grouped($0.count))" }.joined(separator: ", "))
        }
        out += "\nExports imported\n"
        let exportRows = i.exports.map { e in
            [
                e.exportDate?.description ?? "-", printable(e.inputName), grouped(e.recordsRead), grouped(e.recordsNew),
            ]
        }
        out += table(["exported", "input", "records", "new"], exportRows, rightAligned: [2, 3])
        out += "\nRecords per type\n"
        out += table(
            ["type", "records", "unit"], i.types.map { [short($0.name), grouped($0.count), $0.detail] },
            rightAligned: [1])
        out += "\nRecords per source\n"
        out += table(
            ["source", "records", "device"], i.sources.map { [printable($0.name), grouped($0.count), $0.detail] },
            rightAligned: [1])
        if !i.workouts.isEmpty {
            out += "\nWorkouts per activity type\n"
            out += table(
                ["activity", "workouts"], i.workouts.map { [short($0.name), grouped($0.count)] }, rightAligned: [1])
        }
        return out
    }
}

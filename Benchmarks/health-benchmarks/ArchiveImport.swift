// (d) and (e): `health-analyzer import` into a new SQLite archive, then the same export again.
// The archive lives in /tmp for the whole benchmark run (named after the parent process, so that
// the re-import finds the archive of the first import) and is removed at the end.

import Glibc
import HealthArchive
import HealthExport

/// The archive of this benchmark run: the parent's pid names it, so every child agrees.
func benchmarkArchivePath(parent: Int32 = getppid()) -> String {
    "/tmp/health-benchmarks-archive-\(parent).sqlite"
}

/// Removes the archive of this run (the parent calls it after the last run).
func removeBenchmarkArchive() {
    let path = benchmarkArchivePath(parent: getpid())
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

/// Imports `file`, into a new archive (`first`) or into the one the last first import made.
///
/// - Returns: the bytes read, the records read, the rows the import added (new records,
///   workouts, correlations, ActivitySummary days and the export's own row), and the archive's
///   size on disk after a checkpoint (indexes and every table included; no WAL left).
func runArchiveImport(file: String, first: Bool, threads: Int) throws -> PhaseOutcome {
    let path = benchmarkArchivePath()
    if first {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    } else if access(path, F_OK) != 0 {
        throw PhaseError(description: "\(path): no archive from a first import to import into again")
    }
    let archive = try Archive(path: path)
    let outcome = try archive.importExport(.path(file), threads: threads)
    try archive.checkpoint()
    var st = stat()
    let size = stat(path, &st) == 0 ? Int64(st.st_size) : 0
    let added =
        outcome.recordsNew + outcome.workoutsNew + outcome.correlationsNew + outcome.summariesNew
        + (outcome.exportWasKnown ? 0 : 1)
    return PhaseOutcome(
        bytes: outcome.bytesRead, items: Int64(outcome.recordsRead), elements: nil, archiveBytes: size,
        rowsAdded: Int64(added), archiveRecords: Int64(try archive.rowCounts()["records"] ?? 0))
}

extension Report {
    /// The archive's targets (issue 7), judged on the best runs' wall times.
    var archiveTargets: [Target] {
        guard let first = summary(.importFirst), first.measured, let again = summary(.reimport), again.measured
        else { return [] }
        var out: [Target] = []
        // Against `report` with N parser threads (as the import) and with one.
        for reportPhase in [Phase.reportThreads, .report] {
            guard let r = summary(reportPhase), r.measured else { continue }
            let over = first.bestSeconds / r.bestSeconds
            out.append(
                Target(
                    name: "Archive import <= \(fixed(Report.importOverReportTarget, 1)) x \(reportPhase.title) wall",
                    verdict: over <= Report.importOverReportTarget ? .pass : .fail, value: over,
                    limit: Report.importOverReportTarget,
                    shown: "\(fixed(over, 2)) x (\(fixed(first.bestSeconds, 2)) s / \(fixed(r.bestSeconds, 2)) s)"))
        }
        let overFirst = again.bestSeconds / first.bestSeconds
        let added = again.runs.compactMap(\.rowsAdded).max() ?? -1
        out.append(
            Target(
                name: "Archive re-import <= \(fixed(Report.reimportOverImportTarget, 1)) x first import, 0 rows added",
                verdict: overFirst <= Report.reimportOverImportTarget && added == 0 ? .pass : .fail, value: overFirst,
                limit: Report.reimportOverImportTarget,
                shown: "\(fixed(overFirst, 2)) x (\(fixed(again.bestSeconds, 2)) s), \(added) rows added"))
        if let bytes = first.runs.compactMap(\.archiveBytes).max(),
            let records = first.runs.compactMap(\.archiveRecords).max(), records > 0
        {
            let perRecord = Double(bytes) / Double(records)
            out.append(
                Target(
                    name: "Archive size <= \(fixed(Report.archiveBytesPerRecordTarget, 0)) bytes per record",
                    verdict: perRecord <= Report.archiveBytesPerRecordTarget ? .pass : .fail, value: perRecord,
                    limit: Report.archiveBytesPerRecordTarget,
                    shown: "\(fixed(perRecord, 1)) bytes (\(grouped(bytes)) bytes, \(grouped(records)) records)"))
        }
        let rss = Double(max(first.peakRSSBytes, again.peakRSSBytes))
        out.append(
            Target(
                name: "Archive import peak RSS <= \(fixed(Report.importRSSTargetBytes / 1e6, 0)) MB",
                verdict: rss <= Report.importRSSTargetBytes ? .pass : .fail, value: rss / 1e6,
                limit: Report.importRSSTargetBytes / 1e6, shown: "\(fixed(rss / 1e6, 1)) MB"))
        return out
    }
}

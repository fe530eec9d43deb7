// (d) and (e): `health-analyzer import` into a new SQLite archive, then the same export again.
// The archive lives in /tmp for the whole benchmark run (named after the parent process, so that
// the re-import finds the archive of the first import) and is removed at the end.

import Glibc
import HealthAnalysis
import HealthArchive
import HealthExport
import HealthReports
import HealthTables

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

/// `report --db` over the archive the last first import made: its records replayed through the
/// report pipeline (as `health-analyzer report --db` does), every file written into a temporary
/// folder, and the daily and weekly results stored back into the archive.
///
/// - Returns: the records replayed (as items; bytes are 0: no XML is read).
func runArchiveReport(threads: Int) throws -> PhaseOutcome {
    let path = benchmarkArchivePath()
    guard access(path, F_OK) == 0 else {
        throw PhaseError(description: "\(path): no archive from a first import to report from")
    }
    let archive = try Archive(path: path, create: false)
    let run = try ReportPipeline.run(
        parts: threads, reading: { makeConsumer in try archive.read(parts: threads, makeConsumer: makeConsumer) },
        options: AnalysisOptions(), environmentTimeZone: nil)
    try writeIntoTemporaryFolder(run, threads: threads)
    try archive.storeResults(run)
    return PhaseOutcome(bytes: 0, items: Int64(run.summary.elementCounts["Record"] ?? 0), elements: nil)
}

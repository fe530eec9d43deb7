// (c) Report end-to-end: what `health-analyzer report` runs — read → HealthAnalysis →
// HealthReports — with the five reports rendered and written to a temporary folder that is
// removed afterwards.

import Glibc
import HealthAnalysis
import HealthExport
import HealthReports
import HealthTables

/// Reads `file`, analyzes it, and writes every report into a temporary folder (removed after).
///
/// - Returns: the bytes read and the records delivered to the analyzer.
func runReportEndToEnd(file: String, threads: Int) throws -> PhaseOutcome? {
    let run = try ReportPipeline.run(
        .path(file), options: AnalysisOptions(), environmentTimeZone: nil, threads: threads)
    try writeIntoTemporaryFolder(run, threads: threads)
    // Every <Record> start tag: the records the reader delivered plus any it skipped (the
    // benchmark inputs have none), the same count as the reader phase's.
    let records = run.summary.elementCounts["Record"] ?? 0
    return PhaseOutcome(bytes: run.summary.bytesRead, items: Int64(records), elements: nil)
}

/// Writes every report file of `run` into a temporary folder in /tmp, removed afterwards.
func writeIntoTemporaryFolder(_ run: ReportRun, threads: Int) throws {
    var template = Array("/tmp/health-benchmarks-report-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else {
        throw PhaseError(description: "cannot create a temporary folder in /tmp")
    }
    let out = String(cString: dir)
    defer {
        removeFlatFolder(out)
        unlink(OutputFolder.lockFile(of: out))  // one benchmark process at a time: no writer waits
    }
    var writer = ReportWriter()
    writer.threads = threads  // as `health-analyzer report --threads N` renders
    try writer.write(run.result, context: run.context, to: out)
}

/// Removes `path` and every file in it (the report folder has no subfolders: the CSVs,
/// report.md, report.json, schema.sql and the chart_*.svg files, whichever were written).
private func removeFlatFolder(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    rmdir(path)
}

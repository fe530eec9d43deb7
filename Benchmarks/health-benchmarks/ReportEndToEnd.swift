// (c) Report end-to-end: PLACEHOLDER until the analysis and report pipeline lands.
//
// To fill in: run what `health-analyzer report` runs (read → HealthAnalysis → HealthReports),
// with the reports written to a sink that discards them (or to a temporary folder, removed
// afterwards), and return the bytes read and the records delivered. Everything else (child
// process, timing, peak RSS, table, targets) is already wired: returning an outcome instead of
// nil is all it takes for the phase to be measured and judged against its target.

import HealthAnalysis
import HealthExport
import HealthReports

/// Reads `file`, analyzes it and renders every report, discarding the output.
///
/// - Returns: the bytes read and records delivered, or nil while the pipeline is not
///   implemented (the phase is then reported as skipped).
func runReportEndToEnd(file: String) throws -> PhaseOutcome? {
    nil
}

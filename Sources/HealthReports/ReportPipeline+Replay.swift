import HealthAnalysis
import HealthExport

extension ReportPipeline {
    /// The `report` pipeline over batches from anywhere: `read` hands every batch to the
    /// consumer it is given (as `ExportReader.read` does) and returns the summary of what it
    /// read. The SQLite archive replays its records this way, so that `report --db` and
    /// `report` on an export share the analysis and the report context exactly.
    ///
    /// - Throws: what `read` throws (nothing is analysed then), `AnalysisError` for invalid options,
    ///   `ScratchFileError` when the temporary file cannot be made or written.
    public static func run(
        reading read: ((ExportBatch) throws -> Void) throws -> ExportSummary, options: AnalysisOptions,
        environmentTimeZone: String?
    ) throws -> ReportRun {
        // The same memory bound as `run(_:…)`: cumulative samples spill to a nameless temporary file.
        let analyzer = Analyzer(options: options, scratch: try TemporaryScratchFile())
        let summary = try read { batch in analyzer.consume(batch) }
        return try finish(analyzer, summary: summary, environmentTimeZone: environmentTimeZone, routes: nil)
    }
}

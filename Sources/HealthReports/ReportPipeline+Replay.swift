import HealthAnalysis
import HealthExport

extension ReportPipeline {
    /// The `report` pipeline over batches from anywhere: `read` hands every batch to the
    /// consumer it is given (as `ExportReader.read` does) and returns the summary of what it
    /// read. The SQLite archive replays its records this way, so that `report --db` and
    /// `report` on an export share the analysis and the report context exactly.
    ///
    /// - Throws: what `read` throws (nothing is analysed then), `AnalysisError` for invalid options.
    public static func run(
        reading read: ((ExportBatch) throws -> Void) throws -> ExportSummary, options: AnalysisOptions,
        environmentTimeZone: String?
    ) throws -> ReportRun {
        let analyzer = Analyzer(options: options)
        let summary = try read { batch in analyzer.consume(batch) }
        return try finish(analyzer, summary: summary, environmentTimeZone: environmentTimeZone)
    }
}

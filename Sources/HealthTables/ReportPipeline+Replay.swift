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
        try run(
            parts: 1, reading: { makeConsumer in try read(makeConsumer(0)) }, options: options,
            environmentTimeZone: environmentTimeZone)
    }

    /// The same over batches read in `parts` parts at once (`Archive.read(parts:…)`): `read`
    /// hands part `i`'s batches to the consumer made for `i` (`makeConsumer(i)`, for `i` in
    /// `0 ..< parts`, called from one thread per part), each feeding an analyzer of its own,
    /// merged into one before `finish` as the parser threads' are. The result is the same for
    /// any number of parts.
    ///
    /// - Throws: as `run(reading:options:environmentTimeZone:)`.
    public static func run(
        parts: Int, reading read: ((Int) -> (ExportBatch) throws -> Void) throws -> ExportSummary,
        options: AnalysisOptions, environmentTimeZone: String?
    ) throws -> ReportRun {
        // The same memory bound as `run(_:…)`: cumulative samples spill to a nameless temporary file.
        let analyzers = Analyzer.parts(parts, options: options, scratch: try TemporaryScratchFile())
        let summary = try read { i in
            let analyzer = analyzers[i]
            return { batch in analyzer.consume(batch) }
        }
        let analyzer = analyzers[0]
        for other in analyzers.dropFirst() { analyzer.merge(other) }
        return try finish(analyzer, summary: summary, environmentTimeZone: environmentTimeZone, routes: nil)
    }
}

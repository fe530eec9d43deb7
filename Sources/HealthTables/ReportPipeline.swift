import HealthAnalysis
import HealthExport

/// What one pass over an export produced: the reader's summary, the analysis, and the context
/// the report files are rendered with.
public struct ReportRun: Sendable {
    public var summary: ExportSummary
    public var result: AnalysisResult
    public var context: ReportContext
}

/// The `report` pipeline without the file writing: read the export once, streaming, into the
/// analyzer, then finish the analysis.
public enum ReportPipeline {
    /// - Parameters:
    ///   - input: the export (zip, XML, folder or standard input).
    ///   - options: the analysis options (zone, source order, weeks, period).
    ///   - environmentTimeZone: the machine's `TZ`, the third choice for the zone (docs/days-and-time-zones.md §6).
    ///   - readerOptions: chunk size, batch size, progress callback.
    ///   - threads: parser threads (`ExportReader.read(_:threads:makeConsumer:)`); each feeds an
    ///     analyzer of its own, merged into one before `finish`. The result is the same for any
    ///     number.
    ///   - scratch: where the analyzers spill sorted runs of cumulative samples (shared by all
    ///     threads); nil: a `TemporaryScratchFile` in `$TMPDIR` (nameless: nothing is left behind,
    ///     whatever happens).
    ///   - sampleBufferLimit: cumulative samples (16 bytes each) the analyzers keep in memory
    ///     together before a spill (each an equal share: `Analyzer.parts`).
    ///
    /// Sets the process's allocator once (`ProcessMemory.returnLargeBlocksToTheSystem()`), so
    /// that peak memory does not grow with the export's length through freed heap blocks.
    /// - Throws: `ExportReadError` for input that cannot be read (nothing is analysed then),
    ///   `AnalysisError` for invalid options, `ScratchFileError` when the temporary file cannot
    ///   be made or written, `ReportPipelineError.emptyWindow` when the export has data but none
    ///   in the window the options ask for.
    public static func run(
        _ input: ExportInput, options: AnalysisOptions, environmentTimeZone: String?,
        readerOptions: ReaderOptions = ReaderOptions(), threads: Int = 1, scratch: (any ScratchSpace)? = nil,
        sampleBufferLimit: Int = Analyzer.defaultSampleBufferLimit
    ) throws -> ReportRun {
        ProcessMemory.returnLargeBlocksToTheSystem()
        let scratch = try scratch ?? TemporaryScratchFile()
        let analyzers = Analyzer.parts(
            threads, options: options, scratch: scratch, sampleBufferLimit: sampleBufferLimit)
        let summary = try ExportReader(options: readerOptions).read(input, threads: analyzers.count) { worker in
            let analyzer = analyzers[worker]
            return { batch in analyzer.consume(batch) }
        }
        let analyzer = analyzers[0]
        for other in analyzers.dropFirst() { analyzer.merge(other) }
        return try finish(analyzer, summary: summary, environmentTimeZone: environmentTimeZone, routes: input)
    }

    /// The end of every pipeline (an export's or an archive's replay): finish the analysis and
    /// make the report context from the summary. `routes`: the export whose GPX route files the
    /// report may read (nil for a replay, which has the references only).
    static func finish(
        _ analyzer: Analyzer, summary: ExportSummary, environmentTimeZone: String?, routes: ExportInput?
    ) throws -> ReportRun {
        let result = try analyzer.finish(
            exportDate: summary.exportDate, timeZoneCounts: summary.timeZoneCounts,
            environmentTimeZone: environmentTimeZone, locale: summary.locale,
            rejectedRecordStarts: summary.rejectedRecordStarts, earlierExportDates: summary.earlierExportDates)
        // A cron job's report of a window without data must not replace the last good report with
        // empty files: refuse it before anything is written.
        if let empty = result.emptyWindow { throw ReportPipelineError.emptyWindow(empty) }
        var context = ReportContext(
            inputFileName: displayName(summary.inputName), exportDate: summary.exportDate,
            exportVersion: summary.exportVersion.map { String($0) },
            diagnostics: summary.diagnostics.map(\.description))
        // Route files are read only when a reported workout names one (a second, short pass over
        // the zip's `workout-routes/` entries or the folder beside the XML).
        if let routes, result.workouts.contains(where: { !$0.routeFiles.isEmpty }) {
            context.routes = RouteFileIndex.read(routes)
        }
        return ReportRun(summary: summary, result: result, context: context)
    }

    /// The input as reports name it: the file name (with the zip entry), not the full path, so
    /// that reports do not depend on where the export was stored.
    static func displayName(_ inputName: String) -> String {
        // "dir/export.zip:apple_health_export/export.xml" → "export.zip:apple_health_export/export.xml";
        // "dir/export.xml" → "export.xml". The entry part of a zip keeps its folders.
        let fileEnd = inputName.range(of: ".zip:")?.upperBound ?? inputName.endIndex
        guard let slash = inputName[..<fileEnd].lastIndex(of: "/") else { return inputName }
        return String(inputName[inputName.index(after: slash)...])
    }
}

/// Why the pipeline reports nothing for an export it could read.
public enum ReportPipelineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The export has data, but none in the window of `--from`/`--to` or `--week last`.
    case emptyWindow(EmptyWindow)

    public var description: String {
        switch self {
        case .emptyWindow(let window): return window.description
        }
    }
}

/// Writes a report's files for a run into a folder, all or nothing (HealthReports' `ReportWriter`
/// is the one implementation). Named here so that batch, which writes person folders, depends on
/// the table layer and not on the renderers.
public protocol ReportRendering: Sendable {
    /// Writes the report of `run` into `folder` as one set (docs/outputs.md), rendering with up to
    /// `threads` threads; `stepHook` is called at each step of the folder write (tests stop the
    /// process there). `folder`'s own name is the caller's (a person folder): a symbolic link
    /// there is refused (`ReportError.symbolicLink`), never followed (docs/batch.md §6).
    /// - Returns: The paths written.
    /// - Throws: `ReportError`; `folder` is then as it was.
    @discardableResult
    func write(_ run: ReportRun, to folder: String, threads: Int, stepHook: (@Sendable (OutputStep) -> Void)?)
        throws(ReportError) -> [String]
}

import HealthAnalysis
import HealthExport
import HealthTables

/// What a report shows beyond the analysis result itself.
public struct ReportOptions: Hashable, Sendable {
    /// How many of the last weeks `report.md` shows in its weekly table (all weeks are in
    /// `weekly.csv`).
    public var weeksInReport: Int
    /// How many days with an ActivitySummary disagreement `report.md` lists before it cuts the
    /// table short (all days are in `daily.csv`'s `summary_*` columns).
    public var maxDisagreementRows: Int

    public init(weeksInReport: Int = 8, maxDisagreementRows: Int = 50) {
        self.weeksInReport = weeksInReport
        self.maxDisagreementRows = maxDisagreementRows
    }
}

/// The files a report consists of, in the order they are written.
public enum ReportFile: String, CaseIterable, Hashable, Sendable {
    case daily = "daily.csv"
    case weekly = "weekly.csv"
    case monthly = "monthly.csv"
    case standHours = "stand_hours.csv"
    case sources = "sources.csv"
    case sleep = "sleep.csv"
    case workouts = "workouts.csv"
    case trends = "trends.csv"
    case report = "report.md"
    case html = "report.html"
    case schema = "schema.sql"
    case loadSQLite = "load-sqlite.sql"
    case loadDuckDB = "load-duckdb.sql"
    case json = "report.json"

    /// The file's name in the output directory.
    public var fileName: String { rawValue }
}

/// Renders an `AnalysisResult` as CSV files and a Markdown report, and writes them into a
/// directory without ever leaving a half-written file behind.
///
/// The text of every file is a pure function of the result, the context and the options: the
/// same input gives byte-identical files (nothing depends on the current time, the locale or
/// the machine). The CSV conventions are described in `CSVTable.swift`: LF line endings,
/// `true`/`false`, `.` decimals, empty cells for missing values.
public struct ReportWriter: Sendable {
    public var options: ReportOptions
    let fileSystem: any ReportFileSystem
    /// Called at each step of a write (`OutputStep`); for tests that stop the process there.
    public var stepHook: (@Sendable (OutputStep) -> Void)?
    /// Threads that render the files at once (1: one after the other). The files are the same.
    public var threads = 1
    /// False when the output folder's own name is the caller's, not the user's (a batch
    /// person folder): a symbolic link there is then refused, never followed (`OutputFolder`,
    /// docs/batch.md §6). True for `report --out`.
    var followsLinkAtName = true

    public init(options: ReportOptions = .init()) {
        self.init(options: options, fileSystem: POSIXFileSystem())
    }

    /// A writer using `fileSystem` for every file operation (tests inject failures with it).
    init(options: ReportOptions, fileSystem: any ReportFileSystem) {
        self.options = options
        self.fileSystem = fileSystem
    }

    /// The text of one report file.
    public func text(of file: ReportFile, for result: AnalysisResult, context: ReportContext) -> String {
        switch file {
        case .daily: return ReportTableID.daily.csv(for: result, context: context)
        case .weekly: return ReportTableID.weekly.csv(for: result, context: context)
        case .monthly: return ReportTableID.monthly.csv(for: result, context: context)
        case .standHours: return ReportTableID.standHours.csv(for: result, context: context)
        case .sources: return ReportTableID.sources.csv(for: result, context: context)
        case .sleep: return ReportTableID.sleep.csv(for: result, context: context)
        case .workouts: return ReportTableID.workouts.csv(for: result, context: context)
        case .trends: return ReportTableID.trends.csv(for: result, context: context)
        case .report: return markdownReport(result, context: context)
        case .html: return htmlReport(result, context: context)
        case .schema: return schemaSQL()
        case .loadSQLite: return loadSQLite()
        case .loadDuckDB: return loadDuckDB()
        case .json: return reportJSON(result, context: context)
        }
    }

    /// Writes every `ReportFile` (the CSV files, `report.md`, `report.html`, `schema.sql`,
    /// `report.json`) and the charts that have data (`chart_*.svg`, linked from `report.md`) into `directory` as one set,
    /// creating the directory (and missing parents) first.
    ///
    /// The set is atomic (see `OutputFolder`): the files are written completely into a hidden
    /// staging folder beside `directory`, flushed to disk, and the two folders are swapped in one
    /// step. After a failure, a crash or a kill at any instant, `directory` holds exactly the
    /// earlier set or exactly the new one, never a mix and never a partial file (a chart of an
    /// earlier run that has no data now is gone with the earlier set). Other files in
    /// `directory` are carried over (hard links); another folder in it stops the write before
    /// anything changes. Two runs on one `directory` do not mix: the second fails at once with
    /// `ReportError.busy`. Staging folders of killed runs are removed by the next run.
    ///
    /// - Parameters:
    ///   - result: The analysis to render.
    ///   - context: The input and generator named in `report.md`.
    ///   - directory: The output directory; `""` is the current directory.
    /// - Returns: The paths written, in `ReportFile.allCases` order.
    /// - Throws: `ReportError`, naming the path and the OS error.
    @discardableResult
    public func write(_ result: AnalysisResult, context: ReportContext, to directory: String) throws(ReportError)
        -> [String]
    {
        // Render first: nothing touches the disk until every text exists. The charts are made
        // once, for their files and for the report's; the report's document once, for report.md
        // and report.html.
        let charts = self.charts(result)
        let document = reportDocument(result, context: context, charts: charts)
        let files = ReportFile.allCases
        // The longest first: a row per stand hour, per day, and the report.
        let longestFirst = files.indices.sorted { Self.renderOrder(files[$0]) < Self.renderOrder(files[$1]) }
        // (`try!`: rendering cannot throw, so neither can the map.)
        let rendered = try! ParallelWork.map(count: files.count, order: longestFirst, threads: threads) { k in
            switch files[k] {
            case .report: MarkdownRenderer.render(document)
            case .html: HTMLRenderer.render(document)
            default: text(of: files[k], for: result, context: context)
            }
        }
        let texts =
            zip(files, rendered).map { (name: $0.fileName, text: $1) }
            + charts.map { (name: $0.fileName, text: $0.svg) }
        let directory = directory.isEmpty ? "." : directory
        try OutputFolder(fileSystem: fileSystem, stepHook: stepHook, followsLinkAtName: followsLinkAtName).write(
            texts, to: directory, owns: Self.isReportFile)
        return texts.map { OutputFolder.join(directory, $0.name) }
    }

    /// Checks `directory` as `write` would, without creating anything, so that a report into a
    /// path that cannot take it fails before the export is read (minutes for a large one).
    /// - Throws: `ReportError.notADirectory`, `.danglingSymbolicLink` or `.cannotWriteInto`.
    public func checkDestination(_ directory: String) throws(ReportError) {
        try OutputFolder(fileSystem: fileSystem, stepHook: nil).check(directory.isEmpty ? "." : directory)
    }

    /// Where `file` comes in the rendering order (longest texts first).
    private static func renderOrder(_ file: ReportFile) -> Int {
        switch file {
        case .standHours: return 0
        case .daily: return 1
        case .json: return 2
        case .report, .html: return 3
        default: return 4
        }
    }

    /// True for the names a report may write: every `ReportFile` and every `chart_*.svg`. An
    /// earlier run's file of such a name is part of the earlier set, never carried over.
    static func isReportFile(_ name: String) -> Bool {
        ReportFile(rawValue: name) != nil || (name.hasPrefix("chart_") && name.hasSuffix(".svg"))
    }
}

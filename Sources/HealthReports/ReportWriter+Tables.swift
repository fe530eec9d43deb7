import HealthAnalysis
import HealthExport
import HealthTables

// The report's CSV files: each is one of HealthTables' declared tables rendered as CSV
// (`ReportTableID.csv`); nothing about a column is written here.

extension ReportFile {
    /// The declared table this file renders, or nil for a file that is not a table (report.md,
    /// the SQL files, report.json).
    public var table: ReportTableID? {
        switch self {
        case .daily: return .daily
        case .weekly: return .weekly
        case .monthly: return .monthly
        case .standHours: return .standHours
        case .sources: return .sources
        case .sleep: return .sleep
        case .workouts: return .workouts
        case .trends: return .trends
        case .report, .html, .schema, .loadSQLite, .loadDuckDB, .json: return nil
        }
    }
}

extension ReportWriter {
    /// The header rows of the CSV files, as column names.
    public static var dailyCSVHeader: [String] { ReportTables.daily.schema.header }
    public static var weeklyCSVHeader: [String] { ReportTables.weekly.schema.header }
    public static var standHoursCSVHeader: [String] { ReportTables.standHours.schema.header }
    public static var sourcesCSVHeader: [String] { ReportTables.sources.schema.header }

    /// The schemas of the report's eight tables, in the order of `ReportFile`.
    public static var tableSchemas: [TableSchema] { ReportTableID.schemas }

    /// The text of `daily.csv`: one row per day of `result.days`, in their order.
    public func dailyCSV(_ result: AnalysisResult) -> String { ReportTables.daily.csv(result.days) }
    /// The text of `weekly.csv`: one row per ISO week of `result.weeks`.
    public func weeklyCSV(_ result: AnalysisResult) -> String { ReportTables.weekly.csv(result.weeks) }
    /// The text of `monthly.csv`: one row per month of `result.months`.
    public func monthlyCSV(_ result: AnalysisResult) -> String { ReportTables.monthly.csv(result.months) }
    /// The text of `stand_hours.csv`: one row per local hour with a stand-hour record.
    public func standHoursCSV(_ result: AnalysisResult) -> String { ReportTables.standHours.csv(result.standHours) }
    /// The text of `sources.csv`: one row per type and source, in the order of `result.sources`.
    public func sourcesCSV(_ result: AnalysisResult) -> String { ReportTables.sources.csv(result.sources) }
    /// The text of `sleep.csv`: one row per night or nap day of `result.sleep`, in time order.
    public func sleepCSV(_ result: AnalysisResult) -> String { ReportTables.sleep.csv(result.sleep) }

    /// The text of `workouts.csv`: one row per workout of `result.workouts`, by start, with what
    /// `routes` says of each workout's route file (nil: route files were not looked for).
    public func workoutsCSV(_ result: AnalysisResult, routes: RouteFileIndex? = nil) -> String {
        ReportTables.workouts.csv(ReportTables.workoutRows(result, routes: routes))
    }

    /// The warning for route files that workouts name but the export does not hold (or that could
    /// not be read), e.g. `4 of 26 route files named by workouts are not in the export (first:
    /// route_2025-10-10_7.25pm.gpx)`; nil when all are there or routes were not looked for.
    /// A missing route file is a warning, never an error: its workout row is complete without it.
    public static func routeWarning(_ result: AnalysisResult, routes: RouteFileIndex?) -> String? {
        guard let routes else { return nil }
        let named = result.workouts.compactMap(\.routeFiles.first)
        let missing = named.filter { routes.files[$0] == nil }
        let broken = named.compactMap { path -> String? in
            if case .failure(let e) = routes.files[path] { return e.description }
            return nil
        }
        var parts: [String] = []
        if let first = missing.first {
            parts.append(
                "\(grouped(missing.count)) of \(counted(named.count, "route file")) named by workouts \(missing.count == 1 ? "is" : "are") not in the export (first: \(ReportTables.routeName(first)))"
            )
        }
        if let first = broken.first { parts.append("\(grouped(broken.count)) could not be read (first: \(first))") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension ReportWriter: ReportRendering {
    @discardableResult
    public func write(_ run: ReportRun, to folder: String, threads: Int, stepHook: (@Sendable (OutputStep) -> Void)?)
        throws(ReportError) -> [String]
    {
        var writer = self
        writer.threads = threads
        writer.stepHook = stepHook
        // A batch person folder: a name the tool owns (docs/batch.md §6).
        writer.followsLinkAtName = false
        return try writer.write(run.result, context: run.context, to: folder)
    }
}

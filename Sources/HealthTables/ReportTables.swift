import HealthAnalysis
import HealthExport

// The report's eight tables as a list, each declared in its own file of `Tables/`: their schemas
// for `schema.sql`, the loaders and the cohort tables, their typed rows for the archive and the
// MCP server, and their CSV text for the report.

/// The namespace of the report's table declarations (`ReportTables.daily`, `.weekly`, …, one
/// file each in `Tables/`).
public enum ReportTables {}

/// One of the report's eight tables, by its SQL name: what a caller names when it wants a
/// table's schema, rows or CSV text without knowing its row type.
public enum ReportTableID: String, CaseIterable, Hashable, Sendable {
    case daily
    case weekly
    case monthly
    case standHours = "stand_hours"
    case sources
    case sleep
    case workouts
    case trends

    /// The table's schema: SQL name, file and typed columns.
    public var schema: TableSchema {
        switch self {
        case .daily: return ReportTables.daily.schema
        case .weekly: return ReportTables.weekly.schema
        case .monthly: return ReportTables.monthly.schema
        case .standHours: return ReportTables.standHours.schema
        case .sources: return ReportTables.sources.schema
        case .sleep: return ReportTables.sleep.schema
        case .workouts: return ReportTables.workouts.schema
        case .trends: return ReportTables.trends.schema
        }
    }

    /// The table's typed cells for `result`: one row per day, week, month, stand hour, source,
    /// night, workout or trend measure, in the order of the CSV file.
    ///
    /// - Complexity: O(rows × columns).
    public func rows(for result: AnalysisResult, context: ReportContext) -> TableRows {
        switch self {
        case .daily: return ReportTables.daily.cells(result.days)
        case .weekly: return ReportTables.weekly.cells(result.weeks)
        case .monthly: return ReportTables.monthly.cells(result.months)
        case .standHours: return ReportTables.standHours.cells(result.standHours)
        case .sources: return ReportTables.sources.cells(result.sources)
        case .sleep: return ReportTables.sleep.cells(result.sleep)
        case .workouts:
            return ReportTables.workouts.cells(ReportTables.workoutRows(result, routes: context.routes))
        case .trends: return ReportTables.trends.cells(ReportTables.trendRows(result))
        }
    }

    /// The table's CSV text for `result` (`CSV.swift`'s conventions): the header, then one line
    /// per row of `rows(for:context:)`.
    public func csv(for result: AnalysisResult, context: ReportContext) -> String {
        switch self {
        case .daily: return ReportTables.daily.csv(result.days)
        case .weekly: return ReportTables.weekly.csv(result.weeks)
        case .monthly: return ReportTables.monthly.csv(result.months)
        case .standHours: return ReportTables.standHours.csv(result.standHours)
        case .sources: return ReportTables.sources.csv(result.sources)
        case .sleep: return ReportTables.sleep.csv(result.sleep)
        case .workouts: return ReportTables.workouts.csv(ReportTables.workoutRows(result, routes: context.routes))
        case .trends: return ReportTables.trends.csv(ReportTables.trendRows(result))
        }
    }

    /// The schemas of all eight tables, in the order of the report's files.
    public static var schemas: [TableSchema] { allCases.map(\.schema) }
}

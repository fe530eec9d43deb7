import HealthAnalysis
import HealthExport

// The report's CSV tables as a list: their schemas for `schema.sql`, the loaders and the
// cohort tables, and their typed rows for the archive. Each table is declared in its own file
// of `CSV/`.

extension ReportWriter {
    /// The schemas of the report's CSV tables, in the order of `ReportFile`: each table's SQL
    /// name, file and typed columns, from the one declaration per column in `CSV/`.
    public static var tableSchemas: [TableSchema] {
        [
            dailyTable.schema, weeklyTable.schema, monthlyTable.schema, standHoursTable.schema,
            sourcesTable.schema, sleepTable.schema, workoutsTable.schema,
        ]
    }

    /// The typed cells of `file`'s table for `result` (nil for a file that is not a table).
    public func tableRows(of file: ReportFile, for result: AnalysisResult, context: ReportContext) -> TableRows? {
        switch file {
        case .daily: return Self.dailyTable.cells(result.days)
        case .weekly: return Self.weeklyTable.cells(result.weeks)
        case .monthly: return Self.monthlyTable.cells(result.months)
        case .standHours: return Self.standHoursTable.cells(result.standHours)
        case .sources: return Self.sourcesTable.cells(result.sources)
        case .sleep: return Self.sleepTable.cells(result.sleep)
        case .workouts: return Self.workoutsTable.cells(Self.workoutCSVRows(result, routes: context.routes))
        case .report, .schema, .loadSQLite, .loadDuckDB, .json: return nil
        }
    }
}

import HealthAnalysis
import HealthExport

// `schema.sql`: one typed `CREATE TABLE` per CSV file, so that a column without data still loads
// as a number (DuckDB and SQLite read it; the load commands are in its comments).

extension ReportWriter {
    /// The CSV files and their column names, in the order of `ReportFile`.
    static var csvTables: [(table: String, file: ReportFile, columns: [String])] {
        [
            ("daily", .daily, dailyColumns.map(\.name)), ("weekly", .weekly, weeklyColumns.map(\.name)),
            ("monthly", .monthly, monthlyColumns.map(\.name)),
            ("stand_hours", .standHours, standHoursCSVHeader), ("sources", .sources, sourcesCSVHeader),
            ("sleep", .sleep, sleepColumns.map(\.name)), ("workouts", .workouts, workoutColumns.map(\.name)),
        ]
    }

    /// The SQL type of a report column, from its name (the names carry the kind of value).
    static func sqlType(_ column: String) -> String {
        switch column {
        case "date", "week_start", "night": return "DATE"
        case "bedtime", "wake_time", "start", "end", "duplicate_of": return "TIMESTAMP WITH TIME ZONE"
        case "partial", "stood", "counted", "route_in_export": return "BOOLEAN"
        case "week", "month", "kind", "source", "activity", "route", "activity_type", "workouts_by_activity", "type",
            "source_class", "unit", "time_zone", "utc_offset":
            return "VARCHAR"
        case "hour", "days", "samples", "workouts", "legs", "route_points", "stand_hours", "rings_closed", "sources":
            return "INTEGER"
        default:
            return column.hasSuffix("_closed_days") ? "INTEGER" : "DOUBLE"
        }
    }

    /// The text of `schema.sql`.
    public func schemaSQL() -> String {
        var text = """
            -- Typed tables for the CSV files beside this file (written by health-analyzer).
            -- DuckDB:  .read schema.sql   then   COPY daily FROM 'daily.csv' (HEADER);   (one per table)
            -- SQLite:  .read schema.sql   then   .import --csv --skip 1 daily.csv daily
            -- An empty cell is no data (NULL), never 0. Times are local with their UTC offset (ISO 8601).

            """
        for (table, file, columns) in Self.csvTables {
            text += "\n-- \(file.fileName)\nCREATE TABLE \(table) (\n"
            text += columns.map { "    \"\($0)\" \(Self.sqlType($0))" }.joined(separator: ",\n")
            text += "\n);\n"
        }
        return text
    }
}

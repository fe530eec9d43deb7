import HealthAnalysis
import HealthExport

// report.md: The list of files written beside report.md.

extension MarkdownReport {
    mutating func files() {
        text += "## Files\n\n"
        text += "- [daily.csv](daily.csv): one row per day\n"
        text += "- [weekly.csv](weekly.csv): one row per week\n"
        text += "- [monthly.csv](monthly.csv): one row per calendar month\n"
        text += "- [stand_hours.csv](stand_hours.csv): one row per local hour with a stand-hour record\n"
        text += "- [sources.csv](sources.csv): raw and counted totals per type and source\n"
        text += "- [sleep.csv](sleep.csv): one row per night (by wake-up date) and per day with naps\n"
        text += "- [workouts.csv](workouts.csv): one row per workout, duplicates marked\n"
        text += "- [schema.sql](schema.sql): typed tables for the CSV files (DuckDB, SQLite)\n"
        text +=
            "- [load-sqlite.sql](load-sqlite.sql), [load-duckdb.sql](load-duckdb.sql): load the CSV files into typed "
            + "tables, empty cells as NULL (`sqlite3 health.db < load-sqlite.sql`)\n"
        text += "- [report.json](report.json): how the report was made (tool, input, zone, source order, period)\n"
        let charts = self.charts
        if !charts.isEmpty {
            text += "- charts: " + charts.map { "[\($0.fileName)](\($0.fileName))" }.joined(separator: ", ") + "\n"
        }
        text +=
            "\nThe CSV files are UTF-8 with LF line endings, RFC 4180 quoting and a header row; numbers use `.` as the "
            + "decimal point and no thousands separator; an empty cell means no data (never 0); "
            + "booleans are `true` / `false`. A measured value's column name ends with its unit (`_km`, `_kcal`, `_min`, `_bpm`).\n"
    }
}

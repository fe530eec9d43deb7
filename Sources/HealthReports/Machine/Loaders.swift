import HealthAnalysis
import HealthExport
import HealthTables

// The report's `load-sqlite.sql` and `load-duckdb.sql`, from `TableLoaders` over its seven tables.

extension ReportWriter {
    /// The text of `load-sqlite.sql`: the report's CSV files into typed SQLite tables.
    public func loadSQLite() -> String {
        TableLoaders.sqlite(
            Self.tableSchemas,
            header: [
                "Loads the CSV files beside this file into typed SQLite tables (written by health-analyzer).",
                "Run in this folder: sqlite3 health.db < load-sqlite.sql",
                "An empty cell is NULL, never 0 or ''. Booleans are 1 and 0; times are local with their UTC offset.",
            ])
    }

    /// The text of `load-duckdb.sql`: the report's CSV files into typed DuckDB tables.
    public func loadDuckDB() -> String {
        TableLoaders.duckDB(
            Self.tableSchemas,
            header: [
                "Loads the CSV files beside this file into typed DuckDB tables (written by health-analyzer).",
                "Run in this folder: duckdb health.duckdb < load-duckdb.sql",
                "An empty cell is NULL, never 0. Times are local with their UTC offset (ISO 8601).",
            ])
    }
}

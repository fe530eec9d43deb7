import HealthAnalysis
import HealthExport

// `schema.sql`: one typed `CREATE TABLE` per CSV file, so that a column without data still loads
// as a number (DuckDB and SQLite read it; the load commands are in its comments).

extension ReportWriter {
    /// The text of `schema.sql`.
    public func schemaSQL() -> String {
        var text = """
            -- Typed tables for the CSV files beside this file (written by health-analyzer).
            -- To load the CSV files with every empty cell NULL, run load-sqlite.sql or load-duckdb.sql
            -- in this folder: sqlite3 health.db < load-sqlite.sql, duckdb health.duckdb < load-duckdb.sql.
            -- An empty cell is no data (NULL), never 0. Times are local with their UTC offset (ISO 8601).

            """
        for table in Self.tableSchemas {
            text += "\n-- \(table.fileName)\nCREATE TABLE \(table.name) (\n"
            text += table.columns.map { "    \"\($0.name)\" \($0.kind.sqlType)" }.joined(separator: ",\n")
            text += "\n);\n"
        }
        return text
    }
}

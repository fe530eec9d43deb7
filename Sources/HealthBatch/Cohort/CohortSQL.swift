import HealthTables

// The cohort folder's `schema.sql` and its two loaders, from the tables' schemas: a typed
// `CREATE TABLE` per CSV file, and HealthReports' `TableLoaders` scripts for DuckDB and SQLite.

enum CohortSQL {
    /// Every cohort table: the long tables, then `people`.
    static var tables: [TableSchema] { CohortTables.schemas + [CohortPeople.schema] }

    /// `schema.sql`: the typed tables, read by DuckDB and SQLite.
    static func schema() -> String {
        """
        -- Typed tables for the cohort's CSV files beside this file (written by health-analyzer cohort).
        -- DuckDB:  duckdb cohort.duckdb < load-duckdb.sql      SQLite:  sqlite3 cohort.sqlite < load-sqlite.sql
        -- (run in this folder; each loader makes these tables itself). An empty cell is no data (NULL), never 0.

        """ + createTables()
    }

    /// The `CREATE TABLE` statements, one per file.
    static func createTables() -> String {
        var text = ""
        for table in tables {
            text += "\n-- \(table.fileName)\nCREATE TABLE \(table.name) (\n"
            text += table.columns.map { "    \"\($0.name)\" \($0.kind.sqlType)" }.joined(separator: ",\n")
            text += "\n);\n"
        }
        return text
    }

    /// `load-duckdb.sql`: the cohort's files into typed DuckDB tables (`TableLoaders`, as a
    /// report's loaders).
    static func loadDuckDB() -> String {
        TableLoaders.duckDB(
            tables,
            header: [
                "Loads the cohort's CSV files beside this file into typed DuckDB tables (written by health-analyzer cohort).",
                "Run in this folder: duckdb cohort.duckdb < load-duckdb.sql (plain SQL: a client's execute() takes it too)",
                "An empty cell is NULL, never 0. Times are local with their UTC offset (ISO 8601).",
            ])
    }

    /// `load-sqlite.sql`: the cohort's files into typed SQLite tables (`TableLoaders`).
    static func loadSQLite() -> String {
        TableLoaders.sqlite(
            tables,
            header: [
                "Loads the cohort's CSV files beside this file into typed SQLite tables (written by health-analyzer cohort).",
                "Run in this folder: sqlite3 cohort.sqlite < load-sqlite.sql",
                "An empty cell is NULL, never 0 or ''. Booleans are 1 and 0; times are local with their UTC offset.",
            ])
    }
}

import HealthReports

// The cohort folder's `schema.sql` and its two loaders, from the tables' schemas: a typed
// `CREATE TABLE` per CSV file, and the statements that load every file into DuckDB or SQLite.

enum CohortSQL {
    /// Every cohort table: the long tables, then `people`.
    static var tables: [TableSchema] { CohortTables.schemas + [CohortPeople.schema] }

    /// `schema.sql`: the typed tables, read by DuckDB and SQLite.
    static func schema() -> String {
        """
        -- Typed tables for the cohort's CSV files beside this file (written by health-analyzer cohort).
        -- DuckDB:  duckdb cohort.duckdb < load-duckdb.sql      SQLite:  sqlite3 cohort.sqlite < load-sqlite.sql
        -- (run in this folder; each loader holds these tables too). An empty cell is no data (NULL), never 0.

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

    /// `load-duckdb.sql`: the tables, then one `COPY … FROM` per file (empty cells are NULL).
    static func loadDuckDB() -> String {
        var text = "-- Loads the cohort into DuckDB: run `duckdb cohort.duckdb < load-duckdb.sql` in this folder\n"
        text += "-- (plain SQL: a client's execute() takes it as well).\n"
        text += createTables()
        for table in tables {
            text += "COPY \(table.name) FROM '\(table.fileName)' (HEADER, DELIMITER ',', QUOTE '\"', NULLSTR '');\n"
        }
        return text
    }

    /// `load-sqlite.sql`: the tables, `.import` per file, then empty cells to NULL and
    /// `true`/`false` to 1/0 (SQLite's `.import` keeps text as it is).
    static func loadSQLite() -> String {
        var text = "-- Loads the cohort into SQLite: run `sqlite3 cohort.sqlite < load-sqlite.sql` in this folder.\n"
        text += createTables()
        for table in tables {
            text += ".import --csv --skip 1 \(table.fileName) \(table.name)\n"
        }
        text += "BEGIN;\n"
        for table in tables {
            for column in table.columns {
                let name = "\"\(column.name)\""
                text += "UPDATE \(table.name) SET \(name) = NULL WHERE \(name) = '';\n"
                if column.kind == .boolean {
                    text +=
                        "UPDATE \(table.name) SET \(name) = CASE \(name) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END WHERE \(name) IS NOT NULL;\n"
                }
            }
        }
        text += "COMMIT;\n"
        return text
    }
}

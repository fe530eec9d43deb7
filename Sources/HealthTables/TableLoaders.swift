import HealthExport

// `load-sqlite.sql` and `load-duckdb.sql`: scripts that load the CSV files beside them into typed
// tables, every empty cell NULL and every value of its column's declared type. sqlite3's own
// `.import` stores every cell as text (an empty one as '', which `avg` and `count` then take for
// a value), so the SQLite script imports each file into a scratch table of text and copies it
// over with the conversions; DuckDB's `COPY` reads an empty cell as NULL and converts as it
// reads. Both come from the tables' column declarations (`ReportTableID.schemas`, or the cohort's).

/// Writes the loader scripts for a list of tables (a report's, or a batch's cohort tables).
public enum TableLoaders {
    /// The script for the `sqlite3` shell, run in the folder of the CSV files:
    /// `sqlite3 health.db < load-sqlite.sql`. Tables of the same names are replaced. Numbers
    /// are REAL, counts INTEGER, booleans 0 and 1, dates and times ISO 8601 text; an empty cell
    /// is NULL.
    ///
    /// - Parameter header: Comment lines put at the top (without `-- `).
    public static func sqlite(_ tables: [TableSchema], header: [String]) -> String {
        var text = header.map { "-- \($0)\n" }.joined()
        text += ".bail on\nBEGIN;\n"
        for table in tables {
            let scratch = "\"_csv_\(table.name)\""
            text += "\n-- \(table.fileName)\n"
            text += "DROP TABLE IF EXISTS \"\(table.name)\";\n"
            text += "CREATE TABLE \"\(table.name)\" (\n"
            text += table.columns.map { "    \"\($0.name)\" \($0.kind.sqliteType)" }.joined(separator: ",\n")
            text += "\n);\n"
            text += "DROP TABLE IF EXISTS \(scratch);\n"
            // Into a table that does not exist, .import takes the first row for the column names
            // and stores every cell as text.
            text += ".import --csv \(table.fileName) \(scratch)\n"
            text += "INSERT INTO \"\(table.name)\" SELECT\n"
            text += table.columns.map { "    " + sqliteValue($0) }.joined(separator: ",\n")
            text += "\nFROM \(scratch);\n"
            text += "DROP TABLE \(scratch);\n"
        }
        text += "COMMIT;\n"
        return text
    }

    /// The script for DuckDB, run in the folder of the CSV files: `duckdb health.duckdb <
    /// load-duckdb.sql` (or executed whole from a client, e.g. Python's `duckdb`). Plain SQL, so
    /// any DuckDB client runs it. Tables of the same names are replaced; an empty cell is NULL.
    ///
    /// - Parameter header: Comment lines put at the top (without `-- `).
    public static func duckDB(_ tables: [TableSchema], header: [String]) -> String {
        var text = header.map { "-- \($0)\n" }.joined()
        for table in tables {
            text += "\n-- \(table.fileName)\n"
            text += "CREATE OR REPLACE TABLE \"\(table.name)\" (\n"
            text += table.columns.map { "    \"\($0.name)\" \($0.kind.sqlType)" }.joined(separator: ",\n")
            text += "\n);\n"
            text += "COPY \"\(table.name)\" FROM '\(table.fileName)' (FORMAT csv, HEADER true, NULLSTR '');\n"
        }
        return text
    }

    /// The SQLite expression that turns a scratch table's text cell into the column's value.
    static func sqliteValue(_ column: ColumnSchema) -> String {
        let cell = "NULLIF(\"\(column.name)\", '')"
        switch column.kind {
        case .text, .date, .timestamp: return cell
        case .integer: return "CAST(\(cell) AS INTEGER)"
        case .number: return "CAST(\(cell) AS REAL)"
        case .boolean:
            return "CASE \"\(column.name)\" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END"
        }
    }
}

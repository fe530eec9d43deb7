import HealthExport
import HealthTables

extension Archive {
    /// The tables `report --db` writes its results into: the columns of `daily.csv` and
    /// `weekly.csv`, one row per local day / week (numbers as REAL or INTEGER, empty cells as NULL).
    public static let resultTables: [(table: String, source: ReportTableID)] = [
        ("daily_results", .daily), ("weekly_results", .weekly),
    ]

    /// Stores the rows of `run`'s report in `daily_results` and `weekly_results`, in one transaction,
    /// so that a Datasette user sees the de-duplicated days next to the records. Only the days
    /// and weeks this report covers are replaced: a cron job's `report --db --week last` updates
    /// its week and keeps the history stored by earlier reports. A table whose columns differ
    /// from this version's (an earlier version wrote it) is made anew.
    ///
    /// The tables are typed from the report's own column declarations (`ColumnKind.sqliteType`:
    /// numbers REAL, counts and booleans INTEGER, dates and times ISO 8601 text), keyed by their
    /// first column (`date`, `week`), and hold the CSV files' values (same columns, the same
    /// rounding, no value as NULL): the rows can never disagree with the files.
    ///
    /// - Throws: `ArchiveError`.
    public func storeResults(_ run: ReportRun) throws(ArchiveError) {
        try wrap {
            try writeTransaction {
                for (table, source) in Archive.resultTables {
                    try replaceRows(of: table, with: source.rows(for: run.result, context: run.context))
                }
            }
        }
    }

    /// Replaces the rows of `table` whose key (the first column) is among `rows`' keys, making the
    /// table first when it is missing or has other columns. Call inside a transaction.
    private func replaceRows(of table: String, with rows: TableRows) throws {
        let columns = rows.schema.columns
        let wanted = columns.map { "\($0.name) \($0.kind.sqliteType)" }
        var existing: [String] = []
        let info = try db.prepare("SELECT name, type FROM pragma_table_info(?)")
        info.bind(1, table)
        while try info.step() { existing.append("\(info.text(0)) \(info.text(1))") }
        // Identifiers from our own column declarations (letters, digits and '_'), quoted: no values.
        if existing != wanted {
            let definitions = columns.enumerated().map { i, c in
                "\"\(c.name)\" \(c.kind.sqliteType)\(i == 0 ? " PRIMARY KEY" : "")"
            }
            try db.execute("DROP TABLE IF EXISTS \(table)")
            try db.execute("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
        }
        let insert = try db.prepare(
            "INSERT OR REPLACE INTO \(table) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ",")))"
        )
        for row in rows.rows {
            insert.bindAll(zip(row, columns).map { Self.sqlValue($0, $1.kind) })
            try insert.run()
        }
    }

    /// A report cell as stored: a number as its CSV text reads (rounded to the column's
    /// decimals), a boolean as 1 or 0, a date or time as its ISO 8601 text, no value as NULL.
    static func sqlValue(_ cell: TableCell, _ kind: ColumnKind) -> SQLValue {
        switch cell {
        case .null: return .null
        case .text(let text): return .text(text)
        case .integer(let n): return .integer(Int64(n))
        case .number: return Double(cell.csvText(kind)).map(SQLValue.real) ?? .null
        case .boolean(let b): return .integer(b ? 1 : 0)
        case .date, .timestamp: return .text(cell.csvText(kind))
        }
    }
}

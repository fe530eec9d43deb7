import HealthAnalysis
import HealthExport
import HealthReports

extension Archive {
    /// The tables `report --db` writes its results into: the columns of `daily.csv` and
    /// `weekly.csv`, one row per local day / week (numbers as REAL or INTEGER, empty cells as NULL).
    public static let resultTables: [(table: String, file: ReportFile)] = [
        ("daily_results", .daily), ("weekly_results", .weekly),
    ]

    /// Replaces `daily_results` and `weekly_results` with this report's rows, in one
    /// transaction, so that a Datasette user sees the de-duplicated days next to the records.
    /// The tables are typed from the report's own column declarations (`ColumnKind.sqliteType`:
    /// numbers REAL, counts and booleans INTEGER, dates and times ISO 8601 TEXT) and hold the
    /// CSV files' values (same columns, the same rounding, no value as NULL): the tables can
    /// never disagree with the files.
    ///
    /// - Throws: `ArchiveError`.
    public func storeResults(_ result: AnalysisResult, context: ReportContext) throws(ArchiveError) {
        let writer = ReportWriter()
        try wrap {
            try writeTransaction {
                for (table, file) in Archive.resultTables {
                    guard let rows = writer.tableRows(of: file, for: result, context: context) else { continue }
                    // Identifiers from our own column declarations (letters, digits and '_'),
                    // quoted: no values.
                    let columns = rows.schema.columns.map { "\"\($0.name)\" \($0.kind.sqliteType)" }
                    try db.execute("DROP TABLE IF EXISTS \(table)")
                    try db.execute("CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
                    let insert = try db.prepare(
                        "INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ",")))"
                    )
                    for row in rows.rows {
                        insert.bindAll(zip(row, rows.schema.columns).map { Self.sqlValue($0, $1.kind) })
                        try insert.run()
                    }
                }
            }
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

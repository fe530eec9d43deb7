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
    /// The rows are the CSV files' own (same columns, same rounding): the tables can never
    /// disagree with the files.
    ///
    /// - Throws: `ArchiveError`.
    public func storeResults(_ result: AnalysisResult, context: ReportContext) throws(ArchiveError) {
        let writer = ReportWriter()
        try wrap {
            try writeTransaction {
                for (table, file) in Archive.resultTables {
                    let rows = CSVText.parse(writer.text(of: file, for: result, context: context))
                    guard let header = rows.first, !header.isEmpty else { continue }
                    // Identifiers from our own CSV header (letters, digits and '_'), quoted: no values.
                    let columns = header.map { "\"\($0)\"" }
                    try db.execute("DROP TABLE IF EXISTS \(table)")
                    try db.execute("CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
                    let insert = try db.prepare(
                        "INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: header.count).joined(separator: ",")))"
                    )
                    for row in rows.dropFirst() where row.count == header.count {
                        insert.bindAll(row.map(CSVText.value))
                        try insert.run()
                    }
                }
            }
        }
    }
}

/// Just enough RFC 4180 to read back the report's own CSV text.
enum CSVText {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        chars = chars.dropFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r": break
            case "\n":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }

    /// An empty cell is NULL; a number is INTEGER or REAL; `true`/`false` are 1/0; else TEXT.
    static func value(_ cell: String) -> SQLValue {
        if cell.isEmpty { return .null }
        if cell == "true" { return .integer(1) }
        if cell == "false" { return .integer(0) }
        if let i = Int64(cell) { return .integer(i) }
        if let d = Double(cell), cell.first != "+" { return .real(d) }
        return .text(cell)
    }
}

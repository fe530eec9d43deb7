import Foundation
import HealthReports
import Testing

/// The archive's result tables (`report --db`), read with the real `sqlite3` client: typed from
/// the report's column declarations, holding the CSV files' values.
@Suite("Archive result tables")
struct ResultTablesTests {
    @Test func resultTablesAreTypedAndHoldTheValuesOfTheCSVFiles() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: 3)
        let db = dir.appendingPathComponent("h.sqlite").path
        let out = dir.appendingPathComponent("out")
        #expect(try run(["import", export.path, "--db", db, "--quiet"]).status == 0)
        #expect(try run(["report", "--db", db, "--out", out.path, "--quiet"]).status == 0)

        for (table, file) in [("daily_results", "daily.csv"), ("weekly_results", "weekly.csv")] {
            let schema = try #require(ReportWriter.tableSchemas.first { $0.fileName == file })
            // The declared types are the columns' kinds: steps REAL, stand_hours INTEGER, date TEXT.
            let info = try runTool("sqlite3", ["-readonly", "-separator", "|", db, "PRAGMA table_info(\(table))"])
            #expect(info.status == 0, "\(info.stderr)")
            let declared = info.stdout.split(separator: "\n").map { line -> String in
                let f = line.split(separator: "|", omittingEmptySubsequences: false)
                return "\(f[1]) \(f[2])"
            }
            #expect(declared == schema.columns.map { "\($0.name) \($0.kind.sqliteType)" })

            // Every stored value, with its storage class, against the CSV file's cell.
            let csv = CSV.parse(try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8))
            #expect(csv.first == schema.header)
            let select = schema.columns.map { "typeof(\"\($0.name)\") || ':' || ifnull(\"\($0.name)\", '')" }
            let order = schema.columns[0].name
            let stored = try runTool(
                "sqlite3",
                [
                    "-readonly", "-separator", "\u{1F}", db,
                    "SELECT \(select.joined(separator: ", ")) FROM \(table) ORDER BY \"\(order)\"",
                ])
            #expect(stored.status == 0, "\(stored.stderr)")
            let rows = stored.stdout.split(separator: "\n").map {
                $0.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            }
            #expect(rows.count == csv.count - 1)
            for (row, cells) in zip(rows, csv.dropFirst()) {
                for ((value, cell), column) in zip(zip(row, cells), schema.columns) {
                    let (type, text) = (value.prefix { $0 != ":" }, value.drop { $0 != ":" }.dropFirst())
                    if cell.isEmpty {
                        #expect(type == "null", "\(table).\(column.name)")
                        continue
                    }
                    switch column.kind {
                    case .number:
                        #expect(type == "real" && Double(text) == Double(cell), "\(table).\(column.name)")
                    case .integer:
                        #expect(type == "integer" && Int(text) == Int(cell), "\(table).\(column.name)")
                    case .boolean:
                        #expect(type == "integer" && text == (cell == "true" ? "1" : "0"), "\(table).\(column.name)")
                    case .text, .date, .timestamp:
                        #expect(type == "text" && String(text) == cell, "\(table).\(column.name)")
                    }
                }
            }
        }
    }
}

import Foundation
import HealthArchive
import HealthReports
import HealthTables
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

    /// `daily_results` as `date|steps|stand_hours` lines, by date.
    static func storedDays(_ db: String) throws -> [String] {
        let r = try runTool(
            "sqlite3", ["-readonly", db, "SELECT date, steps, stand_hours FROM daily_results ORDER BY date"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func aReportOfOneWeekReplacesOnlyThatWeeksStoredResults() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2025-06-02 is a Monday: 21 days are the ISO weeks 2025-W23, W24 and W25.
        let export = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-02", days: 21)
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", export.path, "--db", db, "--quiet"]).status == 0)
        #expect(
            try run(["report", "--db", db, "--out", dir.appendingPathComponent("all").path, "--quiet"]).status == 0)
        let all = try Self.storedDays(db)
        #expect(all.count == 21)
        #expect(try Archive(path: db).rowCounts()["weekly_results"] == 3)

        // The cron job's weekly run: one week. The other 14 days and 2 weeks stay as stored.
        let week = dir.appendingPathComponent("week")
        let r = try run([
            "report", "--db", db, "--out", week.path, "--from", "2025-06-09", "--to", "2025-06-15", "--quiet",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.storedDays(db) == all)
        #expect(try Archive(path: db).rowCounts()["weekly_results"] == 3)
        let weeks = try runTool("sqlite3", ["-readonly", db, "SELECT week, days FROM weekly_results ORDER BY week"])
        #expect(weeks.stdout == "2025-W23|7\n2025-W24|7\n2025-W25|7\n")

        // A table an earlier version wrote (untyped, all days) is made anew with the typed columns.
        #expect(
            try runTool("sqlite3", [db, "DROP TABLE daily_results; CREATE TABLE daily_results (\"date\", \"steps\")"])
                .status == 0)
        #expect(
            try run(["report", "--db", db, "--out", week.path, "--from", "2025-06-09", "--to", "2025-06-15", "--quiet"])
                .status == 0)
        let stored = try Self.storedDays(db)
        #expect(stored.count == 7)
        #expect(stored == Array(all[7..<14]))
    }
}

import Foundation
import HealthReports
import HealthTables
import TestSupport
import Testing

/// `load-sqlite.sql` and `load-duckdb.sql` run by the real clients (the `sqlite3` shell, DuckDB
/// from PyPI) on the sample's report: every empty cell NULL, every column of its declared type,
/// and the aggregates the same as the CSV's.
@Suite("Loaders")
struct LoaderTests {
    /// The sample's report, written once per process.
    static let report: URL = {
        let out = try! temporaryFolder().appendingPathComponent("report")
        let r = try! run(["report", sample.path, "--out", out.path, "--quiet"])
        precondition(r.status == 0, r.stderr)
        return out
    }()

    /// Per column of `file`: the count of non-empty cells and the mean of the numeric ones
    /// (nil when none), from the CSV text itself.
    static func csvAggregates(_ file: String) throws -> [String: (count: Int, mean: Double?)] {
        let rows = CSV.parse(try String(contentsOf: report.appendingPathComponent(file), encoding: .utf8))
        let header = try #require(rows.first)
        var result: [String: (count: Int, mean: Double?)] = [:]
        for (i, name) in header.enumerated() {
            let cells = rows.dropFirst().map { $0[i] }.filter { !$0.isEmpty }
            let numbers = cells.compactMap(Double.init)
            result[name] = (cells.count, numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count))
        }
        return result
    }

    @Test func sqliteLoadsEveryColumnTypedWithEmptyCellsAsNull() throws {
        let db = try temporaryFolder().appendingPathComponent("health.db")
        // sqlite3 reads the script from standard input in the report folder, as the file says.
        let load = try runTool("sh", ["-c", "cd '\(Self.report.path)' && sqlite3 '\(db.path)' < load-sqlite.sql"])
        #expect(load.status == 0, "\(load.stderr)")
        for schema in ReportWriter.tableSchemas {
            let aggregates = try Self.csvAggregates(schema.fileName)
            for column in schema.columns {
                let q = "\"\(column.name)\""
                let type = column.kind.sqliteType.lowercased()
                // count() counts non-NULL values: an empty cell must not count (it did with
                // .import alone, which stores ''). Every value has the column's storage class.
                let sql =
                    "SELECT count(\(q)), sum(typeof(\(q)) NOT IN ('null', '\(type)')), "
                    + "ifnull(avg(\(q)), '') FROM \"\(schema.name)\""
                let r = try runTool("sqlite3", ["-readonly", "-separator", "|", db.path, sql])
                #expect(r.status == 0, "\(r.stderr)")
                let f = r.stdout.trimmingCharacters(in: .newlines).split(
                    separator: "|", omittingEmptySubsequences: false)
                let expected = try #require(aggregates[column.name])
                #expect(Int(f[0]) == expected.count, "\(schema.name).\(column.name)")
                #expect(f[1] == "0" || (f[1].isEmpty && expected.count == 0), "\(schema.name).\(column.name)")
                if case .number = column.kind, let mean = expected.mean {
                    let stored = try #require(Double(f[2]))
                    #expect(abs(stored - mean) <= 1e-9 * max(1, abs(mean)), "\(schema.name).\(column.name)")
                }
            }
        }
        // The example: the sample has wrist temperatures on 54 days and no move_min at all
        // (an Apple Watch that counts kcal); with '' cells avg read 25.09 and count 77.
        let r = try runTool(
            "sqlite3", ["-readonly", db.path, "SELECT count(wrist_temperature_c), count(move_min) FROM daily"])
        let wrist = try #require(Self.csvAggregates("daily.csv")["wrist_temperature_c"])
        #expect(r.stdout == "\(wrist.count)|0\n")
    }

    @Test func duckDBLoadsEveryColumnTypedWithEmptyCellsAsNull() throws {
        let python = try PythonPackages.python(with: "duckdb")
        // For every table and column: count of non-NULL values, the DuckDB type, and the mean of
        // numeric columns; printed one per line as table|column|count|type|mean.
        let script = """
            import duckdb
            con = duckdb.connect()
            con.execute(open('load-duckdb.sql').read())
            for (table,) in con.execute("SELECT table_name FROM information_schema.tables ORDER BY 1").fetchall():
                for (name, dtype) in con.execute(
                        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
                        "ORDER BY ordinal_position", [table]).fetchall():
                    q = '"' + name + '"'
                    numeric = dtype in ('DOUBLE', 'INTEGER')
                    count, mean = con.execute(
                        f"SELECT count({q}), {('avg(' + q + ')') if numeric else 'NULL'} FROM {table}").fetchone()
                    print(f"{table}|{name}|{count}|{dtype}|{'' if mean is None else repr(float(mean))}")
            """
        let output = try PythonPackages.runScript(python, script, in: Self.report)
        var seen: [String: [Substring]] = [:]
        for line in output.split(separator: "\n") {
            let f = line.split(separator: "|", omittingEmptySubsequences: false)
            seen["\(f[0]).\(f[1])"] = f
        }
        for schema in ReportWriter.tableSchemas {
            let aggregates = try Self.csvAggregates(schema.fileName)
            for column in schema.columns {
                let f = try #require(seen["\(schema.name).\(column.name)"], "\(schema.name).\(column.name)")
                let expected = try #require(aggregates[column.name])
                #expect(Int(f[2]) == expected.count, "\(schema.name).\(column.name)")
                #expect(f[3] == column.kind.sqlType, "\(schema.name).\(column.name)")
                if case .number = column.kind, let mean = expected.mean {
                    let stored = try #require(Double(f[4]))
                    #expect(abs(stored - mean) <= 1e-9 * max(1, abs(mean)), "\(schema.name).\(column.name)")
                }
            }
        }
        #expect(seen.count == ReportWriter.tableSchemas.map(\.columns.count).reduce(0, +))
    }
}

import Foundation
import HealthReports
import HealthTables
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// DuckDB (the `duckdb` package from PyPI, in a virtual environment this test makes) and
/// sqlite3 read what `batch` and `cohort` write: the Hive layout of the person folders without
/// the cohort step, the cohort tables through their loaders, and Parquet from them.
@Suite("Batch output in DuckDB and SQLite")
struct BatchDuckDBTests {
    /// The tests' Python with DuckDB (`TestSupport.PythonPackages`, shared with LoaderTests);
    /// nil with the reason when it cannot be had (no `python3 -m venv`, PyPI unreachable): the
    /// caller fails under CI=true.
    static func duckDBPython() -> (python: String?, problem: String) {
        do { return (try PythonPackages.python(with: "duckdb").path, "") } catch { return (nil, "\(error)") }
    }

    /// The sums of `column` per person from each person's own CSV file (`file` in
    /// `person=<id>/`), as the tool wrote them.
    static func sums(_ out: URL, _ ids: [String], _ file: String, _ column: String) throws -> [String: Double] {
        var result: [String: Double] = [:]
        for id in ids {
            let rows = CSV.parse(
                try String(contentsOf: out.appendingPathComponent("person=\(id)/\(file)"), encoding: .utf8))
            let i = try #require(rows.first?.firstIndex(of: column))
            result[id] = rows.dropFirst().compactMap { Double($0[i]) }.reduce(0, +)
        }
        return result
    }

    @Test func duckDBReadsTheHiveLayoutAndTheCohortTables() throws {
        let (python, problem) = Self.duckDBPython()
        guard let python else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("DuckDB is needed under CI=true: \(problem)")
            } else {
                print("SKIPPED duckDBReadsTheHiveLayoutAndTheCohortTables: \(problem)")
            }
            return
        }
        let study = try BatchCLITests.Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        #expect(try run(["batch", study.manifest.path, "--out", study.out.path]).status == 0)
        let ids = ["p-0", "p-1", "p-2"]
        let steps = try Self.sums(study.out, ids, "daily.csv", "steps")
        let asleep = try Self.sums(study.out, ids, "sleep.csv", "asleep_min")
        #expect(steps.values.allSatisfy { $0 > 1000 })
        let cohort = study.out.appendingPathComponent("cohort")
        let script = """
            import duckdb, json, os, sys
            out, cohort = sys.argv[1], sys.argv[2]
            con = duckdb.connect()
            hive = con.execute(
                "SELECT person, sum(steps), count(*) FROM read_csv(?, hive_partitioning = true) GROUP BY person ORDER BY person",
                [out + "/person=*/daily.csv"]).fetchall()
            os.chdir(cohort)
            con.execute(open("load-duckdb.sql").read())
            daily = con.execute("SELECT person, sum(steps), count(*) FROM daily GROUP BY person ORDER BY person").fetchall()
            sleep = con.execute("SELECT person, sum(asleep_min) FROM sleep GROUP BY person ORDER BY person").fetchall()
            people = con.execute("SELECT person, outcome, days_with_data FROM people ORDER BY person").fetchall()
            types = con.execute("SELECT typeof(date), typeof(steps) FROM daily LIMIT 1").fetchall()
            con.execute("COPY daily TO 'daily.parquet' (FORMAT parquet)")
            parquet = con.execute("SELECT count(*) FROM 'daily.parquet'").fetchall()
            os.remove("daily.parquet")
            print(json.dumps({"hive": hive, "daily": daily, "sleep": sleep, "people": people, "types": types,
                              "parquet": parquet}))
            """
        let r = try runTool(python, ["-c", script, study.out.path, cohort.path])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [[Any]]])
        func table(_ key: String) -> [[Any]] { json[key] ?? [] }
        #expect(table("hive").map { $0[0] as? String } == ids)
        #expect(table("daily").map { $0[0] as? String } == ids)
        for (k, id) in ids.enumerated() {
            // Hive: the person column comes from the folder name; sums from the tool's own CSV.
            #expect((table("hive")[k][1] as? Double) == steps[id])
            #expect((table("hive")[k][2] as? Int) == 3 + k)  // p-k has 3 + k days
            #expect((table("daily")[k][1] as? Double) == steps[id])
            let sleepSum = try #require(table("sleep")[k][1] as? Double)
            #expect(abs(sleepSum - asleep[id]!) < 1e-6)
            #expect(table("people")[k][1] as? String == "done")
            #expect(table("people")[k][2] as? Int == 3 + k)
        }
        #expect(table("types").first?.map { $0 as? String } == ["DATE", "DOUBLE"])
        #expect(table("parquet").first?.first as? Int == 3 + 4 + 5)
    }

    @Test func sqliteLoadsTheCohortWithItsLoader() throws {
        let study = try BatchCLITests.Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        #expect(try run(["batch", study.manifest.path, "--out", study.out.path]).status == 0)
        let cohort = study.out.appendingPathComponent("cohort")
        let db = study.root.appendingPathComponent("cohort.sqlite").path
        let load = try runTool("sh", ["-c", "cd \"$1\" && sqlite3 \"$2\" < load-sqlite.sql", "sh", cohort.path, db])
        #expect(load.status == 0, "\(load.stderr)")
        let steps = try Self.sums(study.out, ["p-0", "p-1", "p-2"], "daily.csv", "steps")
        let r = try runTool(
            "sqlite3",
            [
                db,
                "SELECT person || '|' || sum(steps) || '|' || count(*) || '|' || sum(resting_heart_rate_bpm IS NULL) FROM daily GROUP BY person ORDER BY person; SELECT typeof(counted) FROM workouts LIMIT 1;",
            ])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        for (k, id) in ["p-0", "p-1", "p-2"].enumerated() {
            let fields = lines[k].split(separator: "|")
            #expect(fields[0] == id && Double(fields[1]) == steps[id] && fields[2] == "\(3 + k)")
        }
        #expect(lines.last == "integer")
    }
}

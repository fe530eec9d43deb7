import Foundation
import Testing

/// A cron job's report of a window without data (`--from` past the export, `--week last` on an
/// export without a complete week) exits 1 and leaves the last good report as it was.
@Suite("Empty windows")
struct EmptyWindowTests {
    /// The files of `dir` with their bytes.
    static func contents(_ dir: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in files(in: dir) { result[name] = try Data(contentsOf: dir.appendingPathComponent(name)) }
        return result
    }

    @Test func aWindowWithoutDataExitsOneAndKeepsTheEarlierReport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2025-06-04 is a Wednesday: 3 days, Wednesday to Friday, exported the next day.
        let export = try ArchiveCLITests.export(dir, "a.xml", firstDay: "2025-06-04", days: 3)
        let out = dir.appendingPathComponent("out")
        let good = try run(["report", export.path, "--out", out.path])
        #expect(good.status == 0)
        #expect(good.stdout.contains(": 2025-06-04 to 2025-06-06, 3 days in the period, 3 with data"))
        let before = try Self.contents(out)
        #expect(before["daily.csv"] != nil)
        let data = "the export's data runs from 2025-06-04 to 2025-06-06"

        let cases: [([String], String)] = [
            (["--from", "2030-01-01"], "no data between 2030-01-01 and the end; \(data)"),
            (["--to", "2025-06-01"], "no data between the start and 2025-06-01; \(data)"),
            (["--from", "2025-05-01", "--to", "2025-05-31"], "no data between 2025-05-01 and 2025-05-31; \(data)"),
            // The week 2025-06-02 to 06-08 is not complete on the export day; the week before has no data.
            (["--week", "last"], "--week last: no complete week with data; \(data)"),
        ]
        for (options, message) in cases {
            let r = try run(["report", export.path, "--out", out.path] + options)
            #expect(r.status == 1, "\(options)")
            #expect(r.stderr == "error: \(message)\n", "\(options)")
            #expect(r.stdout.isEmpty)
            #expect(try Self.contents(out) == before, "\(options)")
        }

        // From the archive, the same refusal, and the stored results stay.
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", export.path, "--db", db, "--quiet"]).status == 0)
        #expect(try run(["report", "--db", db, "--out", out.path, "--quiet"]).status == 0)
        let stored = try ResultTablesTests.storedDays(db)
        #expect(stored.count == 3)
        let r = try run(["report", "--db", db, "--out", out.path, "--from", "2030-01-01"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: no data between 2030-01-01 and the end; \(data)\n")
        #expect(try ResultTablesTests.storedDays(db) == stored)
    }
}

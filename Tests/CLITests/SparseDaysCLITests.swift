import Foundation
import HealthArchive
import Testing

/// "The report's cost grows with the data, not with the span of its dates", through
/// the CLI: with 1 and 2 parser threads, and from the archive (`report --db`).
@Suite("Days far apart through the CLI")
struct SparseDaysCLITests {
    /// 8,000 step records, one every 5 minutes from 2025-05-01 00:00 UTC (8,000 × 5 min =
    /// 27 d 18 h 40 min: to 2025-05-28 18:40), about 1.6 MB so that 2 threads parse two or more
    /// segments, then one stand hour on 1902-01-01 near the end of the file (the archive keeps
    /// instants from 1901-12-13 on).
    /// Rows: 1902-01-01, then 2025-05-01 … 2025-05-28 (28 days): 29. 1902-01-01 is day −24 837
    /// and 2025-05-01 day 20 209: the run between them, 20 209 − (−24 837) − 1 = 45 045 days,
    /// is left out. The period: 2025-05-28 is day 20 236, so 20 236 − (−24 837) + 1 = 45 074 days in
    /// it, 29 with data (docs/weeks.md §8).
    static func export() throws -> URL {
        var xml = xmlHead + exportDateLine
        let t0 = 20_209 * 86_400
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for k in 0..<8_000 {
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(t0 + k * 300)))
            xml += steps("10", text)
        }
        xml +=
            "<Record type=\"HKCategoryTypeIdentifierAppleStandHour\" sourceName=\"Watch\""
            + " value=\"HKCategoryValueAppleStandHourStood\" startDate=\"1902-01-01 10:00:00 +0000\""
            + " endDate=\"1902-01-01 11:00:00 +0000\"/>\n" + "</HealthData>\n"
        return try hostileFile("far.xml", Array(xml.utf8))
    }

    @Test func oneAndTwoThreadsAndTheArchiveListTheSameDays() throws {
        let input = try Self.export()
        let dir = input.deletingLastPathComponent()
        #expect(try FileManager.default.attributesOfItem(atPath: input.path)[.size] as! Int > 1_100_000)
        let expected = ["1902-01-01"] + (1...28).map { "2025-05-\($0 < 10 ? "0" : "")\($0)" }
        var outputs: [URL] = []
        for threads in ["1", "2"] {
            let out = dir.appendingPathComponent("out\(threads)")
            let r = try run(
                ["report", input.path, "--out", out.path, "--tz", "UTC", "--threads", threads, "--quiet"], limit: 120)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let daily = try csvRows(out.appendingPathComponent("daily.csv"))
            #expect(daily.map(\.first!) == expected)
            // 288 records of 10 steps a day (24 h / 5 min); the 28th day has 18 h 40 min of them: 224.
            #expect(daily[1][1] == "2880" && daily[28][1] == "2240")
            let weeks = try csvRows(out.appendingPathComponent("weekly.csv")).map(\.first!)
            // 1902-W01 (Wed 1902-01-01), then 2025-W18 (Mon Apr 28) … 2025-W22 (Mon May 26).
            #expect(weeks == ["1902-W01", "2025-W18", "2025-W19", "2025-W20", "2025-W21", "2025-W22"])
            let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(report.contains("No data from 1902-01-02 to 2025-04-30 (45,045 days)"))
            let chart = try String(contentsOf: out.appendingPathComponent("chart_steps.svg"), encoding: .utf8)
            #expect(
                chart.contains("from 1902-01-01 to 2025-05-28, leaving out 1 run of more than 31 days without data"))
            outputs.append(out)
        }
        for name in files(in: outputs[0]) {
            #expect(
                try Data(contentsOf: outputs[0].appendingPathComponent(name))
                    == Data(contentsOf: outputs[1].appendingPathComponent(name)), "\(name)")
        }
        // From the archive: the same files, and one daily_results row per listed day.
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", input.path, "--db", db, "--quiet"], limit: 120).status == 0)
        let fromDB = dir.appendingPathComponent("db")
        let r = try run(["report", "--db", db, "--out", fromDB.path, "--tz", "UTC"], limit: 120)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.hasPrefix(
                "Read archive \(db): 1902-01-01 to 2025-05-28, 45,074 days in the period, 29 with data, zone UTC\n"),
            "\(r.stdout)")
        for name in files(in: outputs[0]) {
            #expect(
                try Data(contentsOf: outputs[0].appendingPathComponent(name))
                    == Data(contentsOf: fromDB.appendingPathComponent(name)), "\(name)")
        }
        let counts = try Archive(path: db).rowCounts()
        #expect(counts["daily_results"] == 29)
        #expect(counts["weekly_results"] == 6)
    }
}

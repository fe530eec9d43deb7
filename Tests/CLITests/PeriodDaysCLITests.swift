import Foundation
import Testing

/// The terminal line after a report counts the period's days as report.md, report.json and
/// `--summary` do (docs/weeks.md §8).
@Suite("The period's days through the CLI")
struct PeriodDaysCLITests {
    /// Steps on four days far apart: 2016-11-14, 2017-03-01, 2017-09-01 and 2018-09-10 (UTC).
    /// The period has 365 days from 2016-11-14 to 2017-11-14 and 300 more to 2018-09-10:
    /// 665 + 1 = 666 days in it, 4 with data. Before, the terminal said
    /// "4 days (2016-11-14 to 2018-09-10)" (daily.csv's rows) where report.md said "(666 days)".
    @Test func theTerminalLineReportMdJSONAndSummaryAgree() throws {
        var xml = xmlHead + exportDateLine
        for date in ["2016-11-14", "2017-03-01", "2017-09-01", "2018-09-10"] {
            xml += steps("100", "\(date) 10:00:00")
        }
        xml += "</HealthData>\n"
        let input = try hostileFile("four-days.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(": 2016-11-14 to 2018-09-10, 666 days in the period, 4 with data, zone UTC\n"))
        let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.contains("2016-11-14 to 2018-09-10 (666 days in the period, 4 with data)"))
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(json.contains("\"days\": 666, \"days_with_data\": 4}"))
        let quiet = try run(["report", input.path, "--out", out.path, "--tz", "UTC", "--quiet", "--summary"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.contains("\n666 days in the period, 4 with data\n"))
    }
}

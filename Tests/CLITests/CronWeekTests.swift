import Foundation
import SyntheticExport
import Testing

/// The weekly cron run: quiet on success, and never replacing a good report with an empty week
/// (docs/weeks.md §7).
@Suite("Cron week")
struct CronWeekTests {
    /// The sample names 26 route files and holds 22: without --quiet a warning on standard error;
    /// with it nothing at all, the warning kept in report.md's Notes and report.json's warnings.
    @Test func quietPrintsNothingOnSuccessAndKeepsTheWarningsInTheReport() throws {
        let out = try temporaryFolder()
        let r = try run(["report", sample.path, "--out", out.path, "--quiet"], environment: ["TZ": "America/Denver"])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let warning =
            "4 of 26 route files named by workouts are not in the export (first: route_2025-10-10_7.25pm.gpx)"
        let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        // Markdown escapes the underscores of the file name.
        #expect(md.contains("- warning: " + warning.replacingOccurrences(of: "_", with: "\\_") + "\n"))
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(json.contains("\"warnings\": [\"" + warning + "\"]"))
    }

    /// 3 days from Monday 2025-06-02, exported on 2025-06-20 (Friday): the last complete week
    /// is 2025-06-09 to 06-15, without data. The run exits 1 and keeps the earlier report.
    @Test func aLastWeekWithoutDataExitsOneAndKeepsTheEarlierReport() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = SyntheticExportConfiguration(firstDay: "2025-06-02", days: 3, seed: 3)
        config.exportDate = "2025-06-20 12:00"
        let export = dir.appendingPathComponent("a.xml")
        try Data(SyntheticExport.makeExport(config).bytes).write(to: export)
        let out = dir.appendingPathComponent("out")
        #expect(try run(["report", export.path, "--out", out.path, "--quiet"]).status == 0)
        let before = try EmptyWindowTests.contents(out)
        let r = try run(["report", export.path, "--out", out.path, "--week", "last", "--quiet"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: --week last: no data in the last complete week, 2025-06-09 to 2025-06-15; "
                + "the export's data runs from 2025-06-02 to 2025-06-04\n")
        #expect(r.stdout.isEmpty)
        #expect(try EmptyWindowTests.contents(out) == before)
    }
}

import Foundation
import HealthExport
import SyntheticExport
import Testing

@Suite("Command line")
struct CommandLineTests {
    @Test func versionAndHelp() throws {
        for args in [["--help"], ["inspect", "--help"], ["report", "--help"], ["report", "-h"], []] {
            let r = try run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("Usage: health-analyzer"), "\(args)")
        }
    }

    @Test(arguments: [
        (["--bogus"], "error: unknown option '--bogus'. See 'health-analyzer --help'.\n"),
        (["frobnicate"], "error: unknown command 'frobnicate'. See 'health-analyzer --help'.\n"),
        (["--versoin"], "error: unknown option '--versoin'; did you mean '--version'? See 'health-analyzer --help'.\n"),
        (["reprot"], "error: unknown command 'reprot'; did you mean 'report'? See 'health-analyzer --help'.\n"),
        (
            ["report", "a.zip", "--outt", "x"],
            "error: unknown option '--outt'; did you mean '--out'? See 'health-analyzer report --help'.\n"
        ),
        (
            ["report", "a.zip", "--out", "x", "--week-strat=sunday"],
            "error: unknown option '--week-strat=sunday'; did you mean '--week-start'? See 'health-analyzer report --help'.\n"
        ),
        (
            ["report", "--db", "a", "--db", "b", "--out", "x"],
            "error: --db is given twice ('a' and 'b'); give it once. See 'health-analyzer report --help'.\n"
        ),
        (
            ["import", "a.zip", "--db=a", "--db", "b"],
            "error: --db is given twice ('a' and 'b'); give it once. See 'health-analyzer import --help'.\n"
        ),
        (["help", "nope"], "error: unknown command 'nope'. See 'health-analyzer help --help'.\n"),
        (
            ["completions", "tcsh"],
            "error: completions takes bash, zsh or fish, not 'tcsh'. See 'health-analyzer completions --help'.\n"
        ),
        (
            ["inspect", "--db", "a.sqlite", "--json"],
            "error: --json describes an export; leave out --db. See 'health-analyzer inspect --help'.\n"
        ),
        (
            ["inspect"],
            "error: missing <input> (export.zip, export.xml, a folder, or -). See 'health-analyzer inspect --help'.\n"
        ),
        (["inspect", "a.xml", "--fast"], "error: unknown option '--fast'. See 'health-analyzer inspect --help'.\n"),
        (["report", "a.zip"], "error: missing --out <dir>. See 'health-analyzer report --help'.\n"),
        (
            ["report", "a.zip", "--out", "x", "--week-start", "friday"],
            "error: --week-start takes monday or sunday, not 'friday'. See 'health-analyzer report --help'.\n"
        ),
        (
            ["report", "a.zip", "--out", "x", "--from", "2025-13-01"],
            "error: --from takes a date YYYY-MM-DD, not '2025-13-01'. See 'health-analyzer report --help'.\n"
        ),
        (
            ["report", "a.zip", "--out", "x", "--week", "next"],
            "error: --week takes 'last', not 'next'. See 'health-analyzer report --help'.\n"
        ),
        (["report", "a.zip", "--out"], "error: option '--out' needs a value. See 'health-analyzer report --help'.\n"),
        (
            ["inspect", "a.xml", "--threads", "0"],
            "error: --threads takes a whole number from 1, not '0'. See 'health-analyzer inspect --help'.\n"
        ),
        (
            ["report", "a.zip", "--out", "x", "--threads", "two"],
            "error: --threads takes a whole number from 1, not 'two'. See 'health-analyzer report --help'.\n"
        ),
    ])
    func usageErrorsExit64WithAOneLineHint(arguments: [String], message: String) throws {
        let r = try run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr == message)
        #expect(r.stdout == "")
    }

    @Test func aZipOnStandardInputIsRefusedWithAHint() throws {
        let r = try run(["inspect", "-"], stdin: sample)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: <stdin>: not an Apple Health export: standard input holds a zip archive; give export.zip as a path instead (zips are read in place from a file, not from a pipe)\n"
        )
    }

    @Test func misspelledSourceOrderNamesAreWarnedAbout() throws {
        let out = try temporaryFolder()
        let r = try run(["report", sample.path, "--out", out.path, "--source-order", "alex's iphone"])
        #expect(r.status == 0)
        // (The second line is the sample's missing route files, see committedReportsAreCurrent.)
        #expect(
            r.stderr.split(separator: "\n").first
                == "warning: --source-order: no source is named 'alex's iphone'; ignored. Did you mean 'Alex’s iPhone'?"
        )
    }

    @Test func weekLastDoesNotTakeAPeriod() throws {
        let r = try run(["report", sample.path, "--out", "/tmp/never-written", "--week", "last", "--to", "2025-12-01"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: --week last chooses the period itself; leave out --from and --to. See 'health-analyzer report --help'.\n"
        )
    }

    @Test func anUnknownZoneIsAUsageError() throws {
        let r = try run(["report", sample.path, "--out", "/tmp/never-written", "--tz", "Mars/Olympus"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: unknown time zone 'Mars/Olympus'"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }

    /// A destination that cannot take the report is named before the export is read: with a
    /// damaged export and such an --out, the error is the destination's, and nothing is created.
    @Test func aDestinationThatCannotTakeTheReportFailsBeforeTheRead() throws {
        let dir = try temporaryFolder()
        let damaged = dir.appendingPathComponent("export.xml")
        try Data("<?xml version=\"1.0\"?>\n<HealthData>\n <Record type=".utf8).write(to: damaged)
        let file = dir.appendingPathComponent("a-file")
        try Data().write(to: file)
        let r = try run(["report", damaged.path, "--out", file.path])
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write the report into '\(file.path)': it exists and is not a directory\n")
        let link = dir.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: dir.path + "/nowhere")
        let l = try run(["report", damaged.path, "--out", link.path])
        #expect(l.status == 1)
        #expect(l.stderr.hasPrefix("error: cannot write the report into '\(link.path)': it is a symbolic link"))
        #expect(files(in: dir) == ["a-file", "dangling", "export.xml"])
    }

    /// The summary line of a one-day export says "1 day".
    @Test func theSummaryLineOfOneDaySaysDay() throws {
        let dir = try temporaryFolder()
        let xml = dir.appendingPathComponent("export.xml")
        try Data(
            ("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n"
                + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" value=\"5\""
                + " startDate=\"2025-01-10 10:00:00 +0100\" endDate=\"2025-01-10 10:05:00 +0100\"/>\n</HealthData>\n")
                .utf8
        ).write(to: xml)
        let r = try run(["report", xml.path, "--out", dir.appendingPathComponent("out").path, "--tz", "Europe/Berlin"])
        #expect(r.status == 0)
        #expect(
            r.stdout.hasPrefix(
                "Read \(xml.path): 2025-01-10 to 2025-01-10, 1 day in the period, 1 with data, zone Europe/Berlin\n"))
    }

    @Test func inspectDescribesTheSample() throws {
        let r = try run(["inspect", sample.path])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Exported     2025-12-15 12:00:00 +0100 (HealthKit Export Version 14, locale en_US)"))
        #expect(lines.contains("Time zone    Europe/Berlin (most frequent HKTimeZone: 1,388 samples)"))
        #expect(
            lines.contains("Records      155,681 in 20 types from 6 sources (+18 inside correlations, not counted)"))
        #expect(lines.contains("Workouts     33"))
        #expect(lines.contains("Activity     77 ActivitySummary days"))
        #expect(lines.contains("  StepCount                      10,566 count"))
        #expect(lines.contains("  Alex’s Apple Watch 153,102 Watch Watch7,2"))
        #expect(lines.contains("  AutoSleep               23 -"))
        #expect(lines.contains("  Running                          20"))
        #expect(lines.contains("  SwimBikeRun                       6"))
    }
}

@Suite("Reports on disk")
struct ReportFilesTests {
    /// `reports/` holds what `./scripts/sample-report` writes for `samples/export.zip`; if the
    /// code changes what a report says, this fails until the reports are regenerated.
    @Test func committedReportsAreCurrent() throws {
        let out = try temporaryFolder()
        let r = try run(["report", sample.path, "--out", out.path], environment: ["TZ": "America/Denver"])
        #expect(r.status == 0, "\(r.stderr)")
        // The sample leaves 4 of its 26 referenced route files out on purpose: a warning, not an error.
        #expect(
            r.stderr.contains(
                "warning: 4 of 26 route files named by workouts are not in the export (first: route_2025-10-10_7.25pm.gpx)"
            ))
        let committed = packageRoot.appendingPathComponent("reports")
        let charts = ["heart", "rings", "sleep", "stand_hours", "steps", "workouts"].map { "chart_\($0).svg" }
        #expect(
            files(in: out)
                == charts + [
                    "daily.csv", "load-duckdb.sql", "load-sqlite.sql", "monthly.csv", "report.html", "report.json",
                    "report.md", "schema.sql", "sleep.csv", "sources.csv",
                    "stand_hours.csv", "trends.csv", "weekly.csv", "workouts.csv",
                ])
        // The last line names the file to open first.
        #expect(r.stdout.hasSuffix("\nopen \(out.path)/report.html in a web browser\n"), "\(r.stdout)")
        // A file in reports/ that the report no longer writes (a renamed or dropped output) is
        // stale: the folder must hold exactly what the report writes.
        #expect(
            files(in: committed) == files(in: out),
            "reports/ holds files the report does not write: \(Set(files(in: committed)).subtracting(files(in: out)).sorted())"
        )
        for name in files(in: out) {
            let fresh = try Data(contentsOf: out.appendingPathComponent(name))
            let old = try? Data(contentsOf: committed.appendingPathComponent(name))
            #expect(fresh == old, "reports/\(name) is out of date: run ./scripts/sample-report and commit reports/")
        }
    }

    @Test func aDamagedExportWritesNothingAndKeepsTheEarlierReport() throws {
        let dir = try temporaryFolder()
        // A real export cut in the middle of a record.
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2025-06-02", days: 2))
        let cut = dir.appendingPathComponent("export.xml")
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: cut)
        let lines = bytes.prefix(bytes.count * 2 / 3).split(separator: 0x0A, omittingEmptySubsequences: false).count
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("earlier report\n".utf8).write(to: out.appendingPathComponent("report.md"))

        let r = try run(["report", cut.path, "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(cut.path): line \(lines), column "))
        #expect(r.stderr.contains("the export is truncated"))
        #expect(r.stdout == "")
        #expect(files(in: out) == ["report.md"])
        #expect(try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8) == "earlier report\n")
    }

    @Test func notAnExportFailsWithoutCreatingTheOutputFolder() throws {
        let dir = try temporaryFolder()
        let csv = dir.appendingPathComponent("steps.csv")
        try Data("date,steps\n2025-01-01,100\n".utf8).write(to: csv)
        let r = try run(["report", csv.path, "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(csv.path): line 1, column 1: not an XML document"))
        #expect(files(in: dir) == ["steps.csv"])
    }

    @Test func readsAnExportFromStandardInput() throws {
        let dir = try temporaryFolder()
        let (bytes, truth) = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2025-06-02", days: 3))
        let xml = dir.appendingPathComponent("export.xml")
        try Data(bytes).write(to: xml)
        let r = try run(["report", "-", "--out", dir.appendingPathComponent("out").path], stdin: xml)
        #expect(r.status == 0, "\(r.stderr)")
        let daily = try String(contentsOf: dir.appendingPathComponent("out/daily.csv"), encoding: .utf8)
        #expect(daily.split(separator: "\n").count == 1 + truth.days.count)
        #expect(r.stderr == "")  // no progress indicator when standard error is not a terminal
    }
}

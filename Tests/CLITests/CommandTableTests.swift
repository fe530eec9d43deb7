import Foundation
import HealthExport
import Testing

/// The command table and what is made from it: help, version, completions, the man page, and
/// `inspect --json`.
@Suite("Command table")
struct CommandTableTests {
    /// No arguments print the general help and succeed (swift-argument-parser's behaviour for a
    /// command with subcommands); `help <command>` prints that command's help, the same text as
    /// `<command> --help`.
    @Test func helpOfACommand() throws {
        let none = try run([])
        #expect(none.status == 0)
        #expect(none.stdout == (try run(["--help"])).stdout)
        #expect(none.stdout.contains("Commands:\n  inspect"))
        for command in ["inspect", "report", "import", "completions", "manual"] {
            let viaHelp = try run(["help", command])
            #expect(viaHelp.status == 0)
            #expect(viaHelp.stdout == (try run([command, "--help"])).stdout, "\(command)")
            #expect(viaHelp.stdout.hasPrefix("Usage: health-analyzer \(command)"), "\(command)")
        }
        // Every option of report is in its help, and every help line fits 88 columns.
        let report = try run(["help", "report"]).stdout
        for option in ["--out <dir>", "--tz <IANA zone>", "--no-dedup", "--week last", "--db <file>", "--quiet"] {
            #expect(report.contains("\n  \(option)"), "\(option)")
        }
        for line in report.split(separator: "\n") { #expect(line.count <= 88, "\(line)") }
    }

    /// `--version`: name and version, the commit (the one scripts/stamp-commit recorded, when it
    /// did), and the three C libraries' run-time versions, `x.y.z` each.
    @Test func versionNamesTheCommitAndTheLibraries() throws {
        let lines = try run(["--version"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("health-analyzer 0.1.0, commit ") == true)
        let header = packageRoot.appendingPathComponent("Sources/CHealthSAX/build_commit.h")
        if let text = try? String(contentsOf: header, encoding: .utf8),
            let commit = text.split(separator: "\"").dropFirst().first
        {
            #expect(lines.first == "health-analyzer 0.1.0, commit \(commit)")
        } else {
            #expect(lines.first == "health-analyzer 0.1.0, commit unknown (built without scripts/stamp-commit)")
        }
        let pattern = #/libxml2 (\d+)\.(\d+)\.(\d+), libarchive (\d+)\.(\d+)\.(\d+), SQLite (\d+)\.(\d+)\.(\d+)/#
        let match = try #require(lines.last?.wholeMatch(of: pattern))
        // The major versions Debian 12 and later ship: libxml2 2, libarchive 3, SQLite 3.
        #expect((match.1, match.4, match.7) == ("2", "3", "3"))
    }

    @Test func inspectTakesQuiet() throws {
        let quiet = try run(["inspect", sample.path, "--quiet", "--threads", "1"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == (try run(["inspect", sample.path, "--threads", "1"])).stdout)
    }

    /// The committed man page is what the command table makes (run scripts/make-man-page after
    /// changing a command or an option).
    @Test func manPageIsCurrent() throws {
        let committed = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/health-analyzer.1"), encoding: .utf8)
        let made = try run(["manual"])
        #expect(made.status == 0)
        #expect(made.stdout == committed, "docs/health-analyzer.1 is out of date: run scripts/make-man-page")
    }

    /// Each shell reads its script without a syntax error (`-n`: parse only), and the scripts
    /// name every option of every command of the table.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsParse(shell: String) throws {
        let r = try run(["completions", shell])
        #expect(r.status == 0)
        for option in ["out", "tz", "source-order", "week-start", "threads", "db", "json", "quiet"] {
            #expect(r.stdout.contains(shell == "fish" ? "-l \(option)" : "--\(option)"), "\(shell): \(option)")
        }
        guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.fileExists) else {
            print("skipped: \(shell) is not installed (scripts/setup installs it), so its script was not parsed")
            return
        }
        let file = try temporaryFolder().appendingPathComponent("completion.\(shell)")
        try Data(r.stdout.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["-n", file.path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(shell): \(message)")
    }

    /// bash completes an option name, an option's choices, and the command names.
    @Test func bashCompletesFromTheTable() throws {
        let script = try run(["completions", "bash"]).stdout
        let file = try temporaryFolder().appendingPathComponent("completion.bash")
        try Data(script.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [
            "-c",
            "source \(file.path); "
                + "COMP_WORDS=(health-analyzer report --week-s); COMP_CWORD=2; _health_analyzer; echo \"${COMPREPLY[*]}\"; "
                + "COMP_WORDS=(health-analyzer report --week-start s); COMP_CWORD=3; _health_analyzer; echo \"${COMPREPLY[*]}\"; "
                + "COMP_WORDS=(health-analyzer i); COMP_CWORD=1; _health_analyzer; echo \"${COMPREPLY[*]}\"",
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text == "--week-start\nsunday\ninspect import\n")
    }

    /// `inspect --json` holds what the text shows: the same record, type, source, workout and
    /// ActivitySummary-day counts (read back from the text lines), and the per-type and
    /// per-activity counts add up to the totals.
    @Test func inspectJSONMatchesTheText() throws {
        let text = try run(["inspect", sample.path]).stdout
        let r = try run(["inspect", sample.path, "--json"])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "input", "export_date", "export_version", "locale", "date_range", "records",
                "records_in_correlations", "types", "sources", "workouts", "correlations",
                "activity_summary_days", "time_zones", "elements_not_modelled", "diagnostics",
                "removed_control_characters",
            ])
        func number(after label: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
            let digits = line.dropFirst(label.count).drop { $0 == " " }.prefix { $0.isNumber || $0 == "," }
            return Int(digits.replacingOccurrences(of: ",", with: ""))
        }
        let records = try #require(object["records"] as? Int)
        #expect(records == number(after: "Records"))
        let types = try #require(object["types"] as? [[String: Any]])
        #expect(types.reduce(0) { $0 + ($1["records"] as? Int ?? 0) } == records)
        #expect(text.contains("in \(types.count) types"))
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(sources.reduce(0) { $0 + ($1["records"] as? Int ?? 0) } == records)
        #expect(text.contains("from \(sources.count) sources"))
        let workouts = try #require(object["workouts"] as? [String: Any])
        let perActivity = try #require(workouts["per_activity"] as? [String: Int])
        #expect(workouts["total"] as? Int == number(after: "Workouts"))
        #expect(perActivity.values.reduce(0, +) == workouts["total"] as? Int)
        #expect(object["activity_summary_days"] as? Int == number(after: "Activity"))
        #expect(text.contains("Exported     \(object["export_date"] as? String ?? "?")"))
        #expect(text.contains("locale \(object["locale"] as? String ?? "?")"))
        let steps = try #require(types.first { $0["type"] as? String == "HKQuantityTypeIdentifierStepCount" })
        #expect((steps["units"] as? [String: Int])?.keys.sorted() == ["count"])
    }

    /// One record of one type from one source on one day: every count is singular.
    @Test func oneOfEachIsSingular() throws {
        let dir = try temporaryFolder()
        let xml = dir.appendingPathComponent("export.xml")
        try Data(
            ("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n"
                + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
                + "startDate=\"2025-01-20 10:00:00 +0100\" endDate=\"2025-01-20 10:05:00 +0100\" value=\"120\"/>\n"
                + " <ActivitySummary dateComponents=\"2025-01-20\" activeEnergyBurned=\"10\" "
                + "activeEnergyBurnedGoal=\"400\" activeEnergyBurnedUnit=\"kcal\"/>\n</HealthData>\n").utf8
        ).write(to: xml)
        let text = try run(["inspect", xml.path]).stdout
        #expect(text.contains("Records      1 in 1 type from 1 source\n"))
        #expect(text.contains("Activity     1 ActivitySummary day\n"))
    }
}

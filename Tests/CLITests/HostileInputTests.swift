import Foundation
import Testing

// One regression test per defect of the first round of hostile inputs, each with the tiny input that found it. They run
// the CLI as a child process under a time limit, so a regression that hangs fails the test
// (after `limit` seconds) instead of hanging the suite.

/// What a child run under a time limit did.
struct LimitedRun {
    var status: Int32
    /// True when the run was killed at the time limit.
    var timedOut: Bool
    /// True when the child ended by a signal (a trap, an abort, a kill).
    var signaled: Bool
    var stdout: String
    var stderr: String
}

/// Runs health-analyzer with `arguments`, killed after `limit` seconds.
func run(_ arguments: [String], limit: Double, environment: [String: String]? = nil) throws -> LimitedRun {
    let p = Process()
    p.executableURL = binary
    p.arguments = arguments
    if let environment { p.environment = environment }
    let outFile = try temporaryFolder().appendingPathComponent("out")
    let errFile = outFile.deletingLastPathComponent().appendingPathComponent("err")
    guard FileManager.default.createFile(atPath: outFile.path, contents: nil),
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
    else { throw CocoaError(.fileWriteUnknown) }
    p.standardOutput = try FileHandle(forWritingTo: outFile)
    p.standardError = try FileHandle(forWritingTo: errFile)
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let deadline = Date().addingTimeInterval(limit)
    var timedOut = false
    while p.isRunning {
        if Date() > deadline {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            break
        }
        usleep(20_000)
    }
    p.waitUntilExit()
    return LimitedRun(
        status: p.terminationStatus, timedOut: timedOut, signaled: p.terminationReason == .uncaughtSignal,
        stdout: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
}

/// Writes `text` to a new file `name` in a fresh folder and returns its URL.
func hostileFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
    let url = try temporaryFolder().appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

let xmlHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
let exportDateLine = "<ExportDate value=\"2025-06-10 12:00:00 +0000\"/>\n"

func steps(_ value: String, _ start: String, source: String = "Phone") -> String {
    "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" value=\"\(value)\""
        + " startDate=\"\(start) +0000\" endDate=\"\(start) +0000\"/>\n"
}

/// The data rows of a CSV file (header dropped), split into cells.
func csvRows(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst().map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
}

@Suite("Hostile and broken inputs end, with a message")
struct HostileInputTests {
    /// Defect 1: `lookup_name` probed a full 512-slot pointer cache forever once an element had
    /// more than 512 distinct attribute names. A 4.5 KB file pinned a core.
    @Test func sixHundredAttributeNamesOnOneTagDoNotHang() throws {
        let attributes = (0..<600).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let xml = xmlHead + "<Unknown \(attributes)/>\n" + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let r = try run(["inspect", try hostileFile("attrs.xml", Array(xml.utf8)).path], limit: 30)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        // The record after the tag is still read: 1 record of 1 type from 1 source.
        #expect(r.stdout.contains("Records      1 in 1 type from 1 source"), "\(r.stdout)")
    }

    /// Defect 1 again, through the element cache: 700 distinct element names.
    @Test func sevenHundredElementNamesDoNotHang() throws {
        let elements = (0..<700).map { "<e\($0)/>\n" }.joined()
        let xml = xmlHead + elements + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let r = try run(["inspect", try hostileFile("elements.xml", Array(xml.utf8)).path], limit: 30)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Records      1 in 1 type from 1 source"), "\(r.stdout)")
    }

    /// Defect 2: more than 65,536 sources trapped in `report` ("Not enough bits to represent the
    /// passed value") converting a priority position to `UInt16`. 70,000 sources with one
    /// 1-step record each: the first 65,536 are counted, 70,000 − 65,536 = 4,464 are dropped
    /// with a note.
    @Test func seventyThousandSourcesAreCappedWithANote() throws {
        var xml = xmlHead + exportDateLine
        for i in 0..<70_000 { xml += steps("1", "2025-06-01 10:00:00", source: "s\(i)") }
        xml += "</HealthData>\n"
        let input = try hostileFile("sources.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 300)
        #expect(!r.timedOut && !r.signaled && r.status == 0, "\(r.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("Dropped 4,464 samples of sources beyond the first 65,536."))
    }

    /// Defect 3: one record dated 9999-12-31 (or an ActivitySummary of that date) made a 500-byte
    /// file cost a minute, 4.7 GB and a daily.csv of 2.9 million empty days. Now dates before
    /// 1900 or more than a day after ExportDate (2025-06-10) are skipped with their line, and the
    /// period is the one day with real data.
    @Test func aDateInYear9999IsSkippedWithItsLine() throws {
        // Lines 1-3 are the head, 4 the real record, 5 the stand hour, 6 the summary.
        let xml =
            xmlHead + exportDateLine
            + steps("100", "2025-06-01 10:00:00")
            + "<Record type=\"HKCategoryTypeIdentifierAppleStandHour\" sourceName=\"Watch\""
            + " value=\"HKCategoryValueAppleStandHourStood\" startDate=\"9999-12-31 10:00:00 +0000\""
            + " endDate=\"9999-12-31 11:00:00 +0000\"/>\n"
            + "<ActivitySummary dateComponents=\"9999-12-31\" activeEnergyBurned=\"1\" activeEnergyBurnedUnit=\"kcal\"/>\n"
            + steps("7", "1899-12-31 10:00:00")  // line 7
            + steps("9", "2025-06-12 10:00:00")  // line 8: two days after ExportDate
            + "</HealthData>\n"
        let input = try hostileFile("dates.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        let daily = try csvRows(out.appendingPathComponent("daily.csv"))
        #expect(daily.map(\.first) == ["2025-06-01"])
        #expect(daily.first?[1] == "100")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        for (detail, line) in [
            ("HKCategoryTypeIdentifierAppleStandHour startDate more than a day after the ExportDate", 5),
            ("ActivitySummary dateComponents more than a day after the ExportDate", 6),
            ("HKQuantityTypeIdentifierStepCount startDate before 1900", 7),
            ("HKQuantityTypeIdentifierStepCount startDate more than a day after the ExportDate", 8),
        ] {
            #expect(report.contains("implausible date: \(detail) (first at line \(line))"), "\(detail)")
        }
    }

    /// Defect 4: `value="1e39"` passed the finite check as a Double and became infinity as a
    /// Float: the whole day came out empty ("no data") without a word. Now it is skipped with a
    /// diagnostic and the day keeps its valid records: 100 + 50 = 150 steps.
    @Test func aValueBeyondFloatRangeIsADiagnosticNotInfinity() throws {
        let xml =
            xmlHead + exportDateLine + steps("100", "2025-06-01 10:00:00")
            + steps("1e39", "2025-06-01 11:00:00")  // line 5
            + steps("50", "2025-06-01 12:00:00") + "</HealthData>\n"
        let input = try hostileFile("big.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let daily = try csvRows(out.appendingPathComponent("daily.csv"))
        #expect(daily.first?[1] == "150")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.contains(
                "value out of range: value='1e39' on HKQuantityTypeIdentifierStepCount is beyond ±3.4e38 (first at line 5)"
            ))
    }

    /// Defect 4, second half: a day whose records were all rejected says so, so that its empty
    /// cells are not taken for "no data". June 1 has a valid record; June 2 and 3 only rejected
    /// ones (a value beyond Float range, an unknown unit); June 4 a valid one again.
    @Test func aDayWhoseRecordsWereAllRejectedSaysSo() throws {
        let xml =
            xmlHead + exportDateLine + steps("100", "2025-06-01 10:00:00") + steps("1e39", "2025-06-02 11:00:00")
            + steps("5", "2025-06-03 11:00:00").replacingOccurrences(of: "unit=\"count\"", with: "unit=\"furlong\"")
            + steps("7", "2025-06-04 12:00:00") + "</HealthData>\n"
        let input = try hostileFile("rejected.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let daily = try csvRows(out.appendingPathComponent("daily.csv"))
        #expect(
            daily.map { [$0[0], $0[1]] } == [
                ["2025-06-01", "100"], ["2025-06-02", ""], ["2025-06-03", ""], ["2025-06-04", "7"],
            ])
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.contains(
                "Every record of 2 days was rejected (see the diagnostics): 2025-06-02, 2025-06-03."
                    + " Their empty cells mean rejected records, not \"no data\"."), "\(report)")
    }

    /// Defect 6: the pre-filter deleted NUL bytes without limit: `inspect /dev/zero` never ended
    /// and 100 MB of leading NULs were accepted. Past 4096 + 1/64 of the bytes it now stops.
    @Test func devZeroEndsAsNotAnExport() throws {
        let r = try run(["inspect", "/dev/zero"], limit: 30)
        #expect(!r.timedOut && r.status == 1)
        #expect(r.stderr.hasPrefix("error: /dev/zero: not an Apple Health export: it holds more control characters"))
    }

    @Test func tenMegabytesOfLeadingNULsAreNotAnExport() throws {
        let bytes = [UInt8](repeating: 0, count: 10_000_000) + Array((xmlHead + "</HealthData>\n").utf8)
        let input = try hostileFile("nul.xml", bytes)
        let r = try run(["inspect", input.path], limit: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("not an Apple Health export: it holds more control characters"))
    }

    /// A few stray control characters (well under the allowance) are still deleted and counted.
    @Test func aFewControlCharactersAreStillTolerated() throws {
        let xml = xmlHead + "\u{01}\u{02}\u{03}" + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let r = try run(["inspect", try hostileFile("few.xml", Array(xml.utf8)).path], limit: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 × control characters removed"))
    }

    /// Defect 7a: a UTF-16 export failed with libxml2's "Document is empty" (the pre-filter had
    /// deleted its NUL bytes). It is now refused with a message that says so.
    @Test(arguments: [[0xFF, 0xFE] as [UInt8], [0xFE, 0xFF]])
    func aUTF16ExportIsRefusedClearly(bom: [UInt8]) throws {
        let text = xmlHead + "</HealthData>\n"
        let body =
            bom[0] == 0xFF
            ? Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            : Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let r = try run(["inspect", try hostileFile("utf16.xml", bom + body).path], limit: 30)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("not an Apple Health export: it is encoded in UTF-16; Apple Health exports are UTF-8"))
    }

    /// Defect 7b: a comment holding `<` before the DOCTYPE made the pre-filter take the `<` for
    /// the root element, so the (iOS 16-style, malformed) DOCTYPE reached libxml2 and failed.
    @Test func aDoctypeAfterACommentWithALessThanSignIsDropped() throws {
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- exported <by> a script -->\n"
            + "<!DOCTYPE HealthData [\n<!ATTLIST Record type CDATA #REQUIRED>>\n]>\n"
            + "<HealthData locale=\"en_US\">\n" + exportDateLine + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let r = try run(["inspect", try hostileFile("comment.xml", Array(xml.utf8)).path], limit: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("(the internal DOCTYPE was dropped before parsing, as always)"))
        #expect(r.stdout.contains("Records      1 in 1 type from 1 source"))
    }

    /// Defect 7d: a dangling `--out` symlink said "File exists".
    @Test func aDanglingOutputSymlinkSaysSo() throws {
        let dir = try temporaryFolder()
        let link = dir.appendingPathComponent("out")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: dir.path + "/gone")
        let xml = xmlHead + exportDateLine + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let r = try run(["report", input.path, "--out", link.path, "--tz", "UTC"], limit: 60)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "into '\(link.path)': it is a symbolic link to '\(dir.path)/gone', which does not exist"), "\(r.stderr)"
        )
    }

    /// Defect 7e: a 200 MB attribute said "internal error: Huge input lookup". 11 MB is enough to
    /// pass libxml2's 10,000,000-byte limit.
    @Test func aHugeAttributeSaysWhatIsWrong() throws {
        let xml =
            xmlHead + "<Record type=\"x\" value=\"" + String(repeating: "a", count: 11_000_000)
            + "\"/>\n</HealthData>\n"
        let r = try run(["inspect", try hostileFile("huge.xml", Array(xml.utf8)).path], limit: 60)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "line 3, column 1: not well-formed XML: a single tag or value is longer than 10,000,000 bytes"))
        #expect(!r.stderr.contains("Huge input lookup"))
    }
}

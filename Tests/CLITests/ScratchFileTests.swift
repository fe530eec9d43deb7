import Foundation
import SyntheticExport
import Testing

/// `report` keeps its temporary (scratch) file in `$TMPDIR` without a name: nothing is left
/// there, however the run ends.
@Suite("Scratch file in TMPDIR")
struct ScratchFileTests {
    @Test func anUnusableTMPDIRFailsWithOneLineNamingItAndWritesNothing() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("no-such-dir").path
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", sample.path, "--out", out.path], environment: ["TMPDIR": missing])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: cannot create a temporary file in '\(missing)' (set TMPDIR to another directory): No such file or directory (errno 2)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aReportStoppedBySIGTERMOrFinishedLeavesNothingInTMPDIR() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scratch = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // 40 days (~33 MB of XML): the first run is stopped while it reads, the second finishes.
        let export = dir.appendingPathComponent("export.xml")
        let (bytes, _) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(firstDay: "2025-01-06", days: 40, timeZoneIdentifier: "Europe/Berlin"))
        try Data(bytes).write(to: export)

        let p = Process()
        p.executableURL = binary
        p.arguments = ["report", export.path, "--out", dir.appendingPathComponent("stopped").path]
        p.environment = ["TMPDIR": scratch.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: 0.2)
        p.terminate()  // SIGTERM
        p.waitUntilExit()
        #expect(files(in: scratch) == [])

        let r = try run(
            ["report", export.path, "--out", dir.appendingPathComponent("done").path],
            environment: ["TMPDIR": scratch.path])
        #expect(r.status == 0)
        #expect(files(in: scratch) == [])
    }
}

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
        // First the state under test: the run holds its scratch file open (made in TMPDIR and
        // unlinked at once, so /proc shows its descriptor as `<TMPDIR>/health-analyzer-scratch-…
        // (deleted)`). Only then is it stopped, while it still runs.
        let prefix = scratch.path + "/health-analyzer-scratch-"
        var scratchOpen = false
        let deadline = Date().addingTimeInterval(30)
        while p.isRunning && !scratchOpen && Date() < deadline {
            scratchOpen = openFiles(of: p.processIdentifier).contains {
                $0.hasPrefix(prefix) && $0.hasSuffix(" (deleted)")
            }
            if !scratchOpen { usleep(2_000) }
        }
        #expect(scratchOpen, "the report never held a scratch file in \(scratch.path) open")
        p.terminate()  // SIGTERM
        p.waitUntilExit()
        #expect(
            p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM,
            "stopped while running: ended with \(p.terminationReason == .exit ? "exit" : "signal") \(p.terminationStatus)")
        #expect(files(in: scratch) == [])

        let r = try run(
            ["report", export.path, "--out", dir.appendingPathComponent("done").path],
            environment: ["TMPDIR": scratch.path])
        #expect(r.status == 0)
        #expect(files(in: scratch) == [])
    }
}

/// Where the open descriptors of process `pid` point (`readlink` of each `/proc/<pid>/fd/*`).
private func openFiles(of pid: Int32) -> [String] {
    let dir = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + $0) }
}

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

        // The export comes through a pipe, and only half of it: the run cannot finish, and
        // waits for the rest with its scratch file open. First the state under test: /proc
        // shows that descriptor as `<TMPDIR>/health-analyzer-scratch-… (deleted)` (made in
        // TMPDIR and unlinked at once). Only then is the run stopped. (Spawned with an empty
        // signal mask: the test runner's threads block SIGTERM, and a child started by
        // Foundation's Process inherits that mask, so the signal would stay pending and the
        // run would simply finish.)
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let pid = try spawnWithDefaultSignals(
            [binary.path, "report", "-", "--out", dir.appendingPathComponent("stopped").path],
            environment: ["TMPDIR=\(scratch.path)"], standardInput: fds[0])
        close(fds[0])
        let half = bytes.count / 2
        let written = bytes.withUnsafeBytes { raw -> Int in
            var done = 0
            while done < half {
                let n = write(fds[1], raw.baseAddress! + done, half - done)
                if n <= 0 { break }
                done += n
            }
            return done
        }
        #expect(written == half)
        let prefix = scratch.path + "/health-analyzer-scratch-"
        var scratchOpen = false
        let deadline = Date().addingTimeInterval(30)
        while !scratchOpen && Date() < deadline {
            scratchOpen = openFiles(of: pid).contains { $0.hasPrefix(prefix) && $0.hasSuffix(" (deleted)") }
            if !scratchOpen { usleep(2_000) }
        }
        #expect(scratchOpen, "the report never held a scratch file in \(scratch.path) open")
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(fds[1])
        #expect(status & 0x7F == SIGTERM, "stopped by SIGTERM while running (wait status \(status))")
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

/// Starts `arguments[0]` with `arguments`, `environment` (NAME=value), `standardInput`, output
/// to /dev/null, the default signal actions and an empty signal mask; returns its pid.
private func spawnWithDefaultSignals(_ arguments: [String], environment: [String], standardInput: Int32) throws
    -> pid_t
{
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    return pid
}

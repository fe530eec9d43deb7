import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A FUSE file system that refuses `renameat2(RENAME_EXCHANGE)` with EINVAL, as NFS, SMB,
/// CephFS and Lustre clients do: bindfs (Debian's `bindfs`, installed by `scripts/setup`)
/// mirroring a temporary folder, mounted by the test and unmounted by its path on success and
/// failure.
final class BindMount {
    let root: URL
    let source: URL
    let mount: URL
    private var bindfs: Process?

    static var unavailableReason: String? {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/bindfs") == false { return "bindfs is not installed" }
        if !FileManager.default.fileExists(atPath: "/dev/fuse") { return "/dev/fuse is missing" }
        return nil
    }

    init() throws {
        root = try temporaryFolder()
        source = root.appendingPathComponent("source")
        mount = root.appendingPathComponent("mount")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: false)
        // In the foreground (-f), so that it is this test's child, stopped by its pid at worst.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/bindfs")
        p.arguments = ["-f", source.path, mount.path]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        bindfs = p
        let deadline = Date().addingTimeInterval(20)
        while !isMounted {
            guard p.isRunning, Date() < deadline else {
                stop()
                throw BindMountError("bindfs did not mount \(mount.path)")
            }
            usleep(50_000)
        }
    }

    /// Whether /proc/self/mounts lists the mount point.
    var isMounted: Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains {
            $0.split(separator: " ").dropFirst().first == Substring(mount.path)
        }
    }

    /// Unmounts (by path; bindfs then ends), stops bindfs by its pid if it has not, and
    /// removes the folders.
    func stop() {
        if let p = bindfs {
            if isMounted { _ = try? runTool("fusermount", ["-u", mount.path]) }
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning && Date() < deadline { usleep(50_000) }
            if p.isRunning {
                p.terminate()
                p.waitUntilExit()
            }
            bindfs = nil
        }
        if !isMounted { try? FileManager.default.removeItem(at: root) }
    }

    deinit { stop() }
}

struct BindMountError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let bindfsTrait = ConditionTrait.enabled(
    if: BindMount.unavailableReason == nil,
    Comment(rawValue: "bindfs tests skipped: \(BindMount.unavailableReason ?? "")"))

/// docs/outputs.md: the replacement by renames where the exchange is refused.
@Suite("Shared file systems without RENAME_EXCHANGE", .serialized)
struct SharedFileSystemTests {
    typealias Study = BatchCLITests.Study

    /// Renames the exchange refuses: the mount answers EINVAL (what the rest of the suite relies on).
    @Test(bindfsTrait) func theMountRefusesTheExchange() throws {
        let fs = try BindMount()
        defer { fs.stop() }
        let a = fs.mount.appendingPathComponent("a")
        let b = fs.mount.appendingPathComponent("b")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: false)
        // renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE = 2), from Python's ctypes.
        let script = """
            import ctypes, os, sys
            libc = ctypes.CDLL(None, use_errno=True)
            r = libc.renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2)
            print(r, os.strerror(ctypes.get_errno()) if r else "")
            """
        let r = try runTool("python3", ["-c", script, a.path, b.path])
        #expect(r.stdout == "-1 Invalid argument\n", "\(r.stdout)\(r.stderr)")
    }

    /// Reruns that replace person folders, the cohort and a report folder on the mount.
    @Test(bindfsTrait) func rerunsReplaceEveryFolderOnTheMount() throws {
        let fs = try BindMount()
        defer { fs.stop() }
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let out = fs.mount.appendingPathComponent("out")
        let first = try run(["batch", study.manifest.path, "--out", out.path, "--jobs", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        // Everyone again, other options: every person folder and the cohort are replaced.
        let again = try run([
            "batch", study.manifest.path, "--out", out.path, "--jobs", "1", "--week-start", "sunday",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 0 failed")
        #expect(try run(["cohort", out.path, "--quiet"]).status == 0)
        // What report writes on a local disk with the same options.
        let reference = study.root.appendingPathComponent("ref")
        #expect(
            try run(["report", study.exports["p-1"]!.path, "--out", reference.path, "--week-start", "sunday"]).status
                == 0)
        #expect(BatchCLITests.tree(out.appendingPathComponent("person=p-1")) == BatchCLITests.tree(reference))
        #expect(files(in: out).filter { $0.contains(".old-") || $0.contains(".tmp-") }.isEmpty, "\(files(in: out))")
        // report --out twice on the mount.
        let report = fs.mount.appendingPathComponent("report")
        #expect(try run(["report", study.exports["p-0"]!.path, "--out", report.path]).status == 0)
        let second = try run(["report", study.exports["p-0"]!.path, "--out", report.path, "--week-start", "sunday"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(files(in: fs.mount).sorted() == [".report.lock", "out", "report"])
    }

    /// Killed after the earlier folder was renamed aside: the folder is absent for that
    /// instant, and the next write rolls back (the earlier set is back) before its own work;
    /// killed after the new one was renamed in: the next write removes the aside folder.
    @Test(bindfsTrait) func aKillBetweenTheRenamesIsRolledBackOrFinishedByTheNextRun() throws {
        let fs = try BindMount()
        defer { fs.stop() }
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let export = study.exports["p-0"]!.path
        let report = fs.mount.appendingPathComponent("report")
        func killed(at step: String, _ options: [String]) throws -> Run {
            try run(
                ["report", export, "--out", report.path] + options,
                environment: ProcessInfo.processInfo.environment.merging(
                    ["HEALTH_ANALYZER_TEST_KILL_AT": step], uniquingKeysWith: { $1 }))
        }
        #expect(try run(["report", export, "--out", report.path]).status == 0)
        let monday = BatchCLITests.tree(report)
        #expect(monday.count >= 10)

        // 1. Killed with the earlier folder aside: no folder, one aside folder.
        #expect(try killed(at: "moved-aside", ["--week-start", "sunday"]).status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: report.path))
        #expect(files(in: fs.mount).filter { $0.hasPrefix(".report.old-") }.count == 1)
        // The next write rolls back first: killed before its own swap, it leaves the earlier set.
        #expect(try killed(at: "all-staged", ["--week-start", "sunday"]).status == SIGKILL)
        #expect(BatchCLITests.tree(report) == monday)
        #expect(files(in: fs.mount).filter { $0.hasPrefix(".report.old-") }.isEmpty)

        // 2. Killed with the new folder in and the earlier one still aside.
        #expect(try killed(at: "swapped", ["--week-start", "sunday"]).status == SIGKILL)
        let sunday = BatchCLITests.tree(report)
        #expect(sunday != monday && sunday.count == monday.count)
        #expect(files(in: fs.mount).filter { $0.hasPrefix(".report.old-") }.count == 1)
        // The next write finishes it (the aside folder goes), then does its own.
        #expect(try run(["report", export, "--out", report.path]).status == 0)
        #expect(BatchCLITests.tree(report) == monday)
        #expect(files(in: fs.mount).sorted() == [".report.lock", "report"], "\(files(in: fs.mount))")

        // 3. A batch person folder killed aside, then the batch rerun: p-0 redone, nothing left over.
        let out = fs.mount.appendingPathComponent("out")
        #expect(try run(["batch", study.manifest.path, "--out", out.path]).status == 0)
        let killedBatch = try run(
            ["batch", study.manifest.path, "--out", out.path, "--jobs", "1", "--force"],
            environment: ProcessInfo.processInfo.environment.merging(
                ["HEALTH_ANALYZER_TEST_KILL_AT": "p-0:moved-aside"], uniquingKeysWith: { $1 }))
        #expect(killedBatch.status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("person=p-0").path))
        let rerun = try run(["batch", study.manifest.path, "--out", out.path, "--jobs", "1"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.split(separator: "\n").last == "1 done, 2 unchanged, 0 failed", "\(rerun.stdout)")
        #expect(files(in: out).filter { $0.contains(".old-") || $0.contains(".tmp-") }.isEmpty, "\(files(in: out))")
    }
}

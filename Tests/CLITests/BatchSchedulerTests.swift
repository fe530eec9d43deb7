import Foundation
import HealthTables
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `batch` as a scheduler sees it (docs/batch.md): exit codes it can act on, one run per
/// folder, every person's line in the log as it ends, SIGTERM like ^C, the same people.csv
/// from the same results.
@Suite("Batch under a scheduler")
struct BatchSchedulerTests {
    typealias Study = BatchCLITests.Study

    /// A started health-analyzer whose output is read when it ends.
    final class Started {
        let process = Process()
        let out = Pipe()
        let err = Pipe()

        init(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws {
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if let folder { process.currentDirectoryURL = folder }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// Waits for the end; the status, standard output and standard error.
        func finish() -> (status: Int32, reason: Process.TerminationReason, stdout: String, stderr: String) {
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, process.terminationReason, String(decoding: o, as: UTF8.self),
                String(decoding: e, as: UTF8.self)
            )
        }
    }

    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Waits up to 60 s for `condition`.
    static func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            try #require(Date() < deadline, "waited 60 s for \(what)")
            usleep(50_000)
        }
    }

    // MARK: exit codes (docs/batch.md §1)

    @Test func exitCodesTellSomeFailedFromCouldNotRun() throws {
        // The study has a damaged and a missing export: the others are done, exit 2.
        let study = try Study()
        defer { try? FileManager.default.removeItem(at: study.root) }
        let failed = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "2"])
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 2 failed")

        // Could not start: 1. A missing input, an empty folder, a manifest of a header only,
        // an output folder that cannot be made (its parent is a file).
        let empty = study.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let headerOnly = study.root.appendingPathComponent("header.csv")
        try "person,export\n".write(to: headerOnly, atomically: true, encoding: .utf8)
        let out2 = study.root.appendingPathComponent("out2")
        for (input, message) in [
            (study.root.appendingPathComponent("nowhere").path, "cannot read: no such file or folder"),
            (empty.path, "no people"), (headerOnly.path, "no people"),
        ] {
            let r = try run(["batch", input, "--out", out2.path])
            #expect(r.status == 1, "\(input): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(input): \(message)"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out2.path))
        }
        let unwritable = try run(["batch", study.manifest.path, "--out", study.manifest.path + "/out"])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("cannot create the folder"), "\(unwritable)")
        // Usage: 64.
        #expect(try run(["batch", study.manifest.path]).status == 64)
        // All done (or unchanged): 0.
        let good = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: good.root) }
        #expect(try run(["batch", good.manifest.path, "--out", good.out.path, "--quiet"]).status == 0)
    }

    // MARK: one batch per folder (docs/batch.md §2)

    @Test func aSecondBatchOnTheFolderIsRefusedAtOnceNamingTheFirst() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        // The first run pauses 3 s before swapping in p-2's folder (the largest: first).
        let first = try Started(
            ["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"],
            environment: ["HEALTH_ANALYZER_TEST_PAUSE_AT": "p-2:all-staged"])
        let lock = study.out.appendingPathComponent(".batch.lock")
        try Self.waitFor("the first run's lock") { FileManager.default.fileExists(atPath: lock.path) }
        let held = try String(contentsOf: lock, encoding: .utf8)
        #expect(held.hasPrefix("\(Self.hostName) \(first.process.processIdentifier) "), "\(held)")
        let started = Date()
        let second = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        let seconds = Date().timeIntervalSince(started)
        #expect(second.status == 1)
        #expect(second.stdout.isEmpty)
        #expect(
            second.stderr.hasPrefix(
                "error: \(study.out.path): another batch is running on this folder (pid \(first.process.processIdentifier) on host \(Self.hostName), since "
            ), "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1)
        #expect(seconds < 2.5, "refused after \(seconds) s")
        let ended = first.finish()
        #expect(ended.status == 0)
        #expect(ended.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 0 failed")
        #expect(!FileManager.default.fileExists(atPath: lock.path), "the lock outlived its run")

        // A lock of a process gone from this host is taken over.
        try "\(Self.hostName) 2147483646 1700000000\n".write(to: lock, atomically: false, encoding: .utf8)
        let takeOver = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(takeOver.status == 0, "\(takeOver.stderr)")
        // Another host's: refused while fresh, taken over once 10 minutes untouched.
        try "elsewhere.example 4242 1700000000\n".write(to: lock, atomically: false, encoding: .utf8)
        let fresh = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(
            fresh.status == 1
                && fresh.stderr.contains("(pid 4242 on host elsewhere.example, since 2023-11-14T22:13:20Z)"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-601)], ofItemAtPath: lock.path)
        let stale = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lock.path))
        // Shards lock on their own: `.batch-0-of-2.lock`, not the whole batch's.
        try "\(Self.hostName) \(getpid()) 1700000000\n".write(to: lock, atomically: false, encoding: .utf8)
        let shard = try run(["batch", study.manifest.path, "--out", study.out.path, "--shard", "0/2"])
        #expect(shard.status == 0, "\(shard.stderr)")
    }

    // MARK: logs and signals (docs/batch.md §3)

    @Test func eachPersonsLineIsInThePipeBeforeAKill() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        // One job: p-2, p-1, then p-0, killed (SIGKILL) before its folder swap.
        let killed = try run(
            ["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"],
            environment: ProcessInfo.processInfo.environment.merging(
                ["HEALTH_ANALYZER_TEST_KILL_AT": "p-0:all-staged"], uniquingKeysWith: { $1 }))
        #expect(killed.status == SIGKILL)
        let lines = killed.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(killed.stdout)")
        #expect(lines.first?.hasPrefix("done p-2 (") == true && lines.last?.hasPrefix("done p-1 (") == true)
    }

    @Test func sigtermFinishesNothingNewAndLeavesNothingHalfWritten() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let batch = try Started(
            ["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"],
            environment: ["HEALTH_ANALYZER_TEST_PAUSE_AT": "p-0:all-staged"])
        // p-0's complete new set waits in its staging folder: the moment a scancel comes in.
        try Self.waitFor("p-0's staging folder") {
            files(in: study.out).contains { $0.hasPrefix(".person=p-0.tmp-") }
        }
        kill(batch.process.processIdentifier, SIGTERM)
        let ended = batch.finish()
        #expect(ended.reason == .uncaughtSignal && ended.status == SIGTERM, "\(ended)")
        #expect(ended.stderr.contains("health-analyzer: batch stopped;"), "\(ended.stderr)")
        #expect(ended.stdout.split(separator: "\n").map { $0.prefix(8) } == ["done p-2", "done p-1"])
        // p-0 was not finished: no folder, no record; nothing staged, no temporary record, no lock.
        #expect(!FileManager.default.fileExists(atPath: study.person("p-0").path))
        #expect(!FileManager.default.fileExists(atPath: study.out.appendingPathComponent(".status/p-0.json").path))
        #expect(
            files(in: study.out).filter { $0.contains(".tmp-") || $0 == ".batch.lock" }.isEmpty,
            "\(files(in: study.out))")
        #expect(files(in: study.out.appendingPathComponent(".status")) == ["p-1.json", "p-2.json"])
        // The next run does exactly p-0.
        let rerun = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.split(separator: "\n").last == "1 done, 2 unchanged, 0 failed")
    }

    // MARK: reproducible people.csv (docs/batch.md §4)

    @Test func peopleCSVIsTheSameBytesFromTheSameResults() throws {
        let study = try Study()
        defer { try? FileManager.default.removeItem(at: study.root) }
        // Run from the study's folder with a relative manifest, then again (everyone redone)
        // from elsewhere with another spelling of the same paths.
        let first = try Started(["batch", "study.csv", "--out", "out"], in: study.root).finish()
        #expect(first.status == 2, "\(first.stderr)")
        let people = study.out.appendingPathComponent("cohort/people.csv")
        let before = try Data(contentsOf: people)
        let spelled = study.root.path + "/./inputs/../study.csv"
        let second = try run(["batch", spelled, "--out", study.out.path + "/", "--force"])
        #expect(second.status == 2)
        let after = try Data(contentsOf: people)
        #expect(after == before)
        // No wall time; every export absolute and resolved, a missing one too.
        let rows = CSV.parse(String(decoding: after, as: UTF8.self)).filter { $0 != [""] }
        #expect(!rows[0].contains("seconds"))
        let root = URL(fileURLWithPath: study.root.path).resolvingSymlinksInPath().path
        let exportColumn = try #require(rows[0].firstIndex(of: "export"))
        #expect(
            rows.dropFirst().map { $0[exportColumn] } == [
                "\(root)/inputs/damaged.xml", "\(root)/inputs/nowhere.zip", "\(root)/inputs/p-0.xml",
                "\(root)/inputs/p-1.xml", "\(root)/inputs/p-2",
            ])
    }
}

/// The cohort knows who belongs in it (docs/batch.md §5).
@Suite("Cohort listings")
struct CohortListingTests {
    typealias Study = BatchCLITests.Study

    @Test func listedPeopleWithoutAResultAreMissingAndUnlistedOnesExcludedThenPruned() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        // Shard 0 of 3 only (a task that ran while the others were killed): FNV-1a 64 mod 3 of
        // the ids puts some people in it, and the cohort must name the others missing.
        let shard = try run(["batch", study.manifest.path, "--out", study.out.path, "--shard", "0/3"])
        #expect(shard.status == 0)
        let ran = Set(
            shard.stdout.split(separator: "\n").compactMap { line in
                line.hasPrefix("done ") ? String(line.split(separator: " ")[1]) : nil
            })
        let others = Set(["p-0", "p-1", "p-2"]).subtracting(ran).sorted()
        try #require(!others.isEmpty && ran.count + others.count == 3, "\(ran)")
        let incomplete = try run(["cohort", study.out.path, "--quiet"])
        #expect(incomplete.status == 3, "\(incomplete.stderr)")
        #expect(
            incomplete.stderr
                == "cohort incomplete: \(others.count) listed without a result: \(others.joined(separator: ", "))\n")
        let people = try String(contentsOf: study.out.appendingPathComponent("cohort/people.csv"), encoding: .utf8)
        let rows = CSV.parse(people).filter { $0 != [""] }
        #expect(rows.dropFirst().map { $0[0] } == ["p-0", "p-1", "p-2"])
        for row in rows.dropFirst() { #expect(row[1] == (others.contains(row[0]) ? "missing" : "done"), "\(row)") }
        let report = try String(contentsOf: study.out.appendingPathComponent("cohort/report.md"), encoding: .utf8)
        #expect(report.contains("| Missing (listed, no result) | \(others.count) |"))

        // Everyone runs; then p-1 is withdrawn from the manifest.
        #expect(try run(["batch", study.manifest.path, "--out", study.out.path]).status == 0)
        let manifest = try String(contentsOf: study.manifest, encoding: .utf8)
        try manifest.split(separator: "\n").filter { !$0.hasPrefix("p-1,") }.map { $0 + "\n" }.joined()
            .write(to: study.manifest, atomically: true, encoding: .utf8)
        let withdrawn = try run(["batch", study.manifest.path, "--out", study.out.path, "--force"])
        #expect(withdrawn.status == 0, "\(withdrawn.stderr)")
        #expect(withdrawn.stdout.split(separator: "\n").last == "2 done, 0 unchanged, 0 failed")
        let cohort = study.out.appendingPathComponent("cohort")
        for name in ["daily.csv", "people.csv", "weekly.csv", "sleep.csv"] {
            let text = try String(contentsOf: cohort.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("\np-1,"), "cohort/\(name) still has p-1")
        }
        let report2 = try String(contentsOf: cohort.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report2.contains("| People | 2 |") && report2.contains("## Excluded\n"))
        #expect(report2.hasSuffix("removes them).\n\n- p-1\n"), "\(report2)")
        #expect(FileManager.default.fileExists(atPath: study.person("p-1").path))
        // --prune removes p-1's folder and record, and says so.
        let pruned = try run(["batch", study.manifest.path, "--out", study.out.path, "--prune"])
        #expect(pruned.status == 0)
        let out = study.out.path
        #expect(
            pruned.stdout.contains("\nremoved \(out)/person=p-1/\nremoved \(out)/.status/p-1.json\n"),
            "\(pruned.stdout)")
        #expect(!FileManager.default.fileExists(atPath: study.person("p-1").path))
        #expect(!files(in: study.out).contains(".person=p-1.lock"))
        #expect(
            !(try String(contentsOf: cohort.appendingPathComponent("report.md"), encoding: .utf8)).contains("Excluded"))
    }
}

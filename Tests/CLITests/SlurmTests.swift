import Foundation
import SyntheticExport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Enabled where a cluster can start, and always under CI (where a missing Slurm must fail).
let slurmTrait = ConditionTrait.enabled(
    if: SlurmCluster.unavailableReason == nil || SlurmCluster.isCI,
    Comment(rawValue: "Slurm tests skipped: \(SlurmCluster.unavailableReason ?? "")"))

/// A one-node Slurm cluster (Support/SlurmCluster.swift) running what a cluster user submits.
@Suite("Slurm", .serialized)
struct SlurmTests {
    /// The harness alone: a 16-task array script submitted as 4 tasks (the command line beats the
    /// `#SBATCH` line), and a job that waits for the whole array (`afterany`).
    @Test(slurmTrait) func anArrayRunsEveryTaskOnceAndTheDependentJobRunsAfterAll() throws {
        let cluster = try SlurmCluster()
        defer { cluster.stop() }
        print("Slurm cluster (\(cluster.cpus) CPUs) idle after \(String(format: "%.1f", cluster.startupSeconds)) s")
        #expect(cluster.startupSeconds < 60)
        let work = cluster.folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        let script = work.appendingPathComponent("shard.sh")
        try """
        #!/bin/sh
        #SBATCH --array=0-15
        #SBATCH --output=task-%a.log
        echo "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" > "shard-$SLURM_ARRAY_TASK_ID.txt"

        """.write(to: script, atomically: true, encoding: .utf8)
        let array = try cluster.submit(["--array=0-3", script.path], in: work)
        let after = try cluster.submit(
            ["--dependency=afterany:\(array)", "--output=after.log", "--wrap", "cat shard-*.txt > all.txt"], in: work)
        let jobs = try cluster.waitUntilFinished([array, after], timeout: 120)

        let tasks = jobs[array] ?? []
        #expect(tasks.compactMap(\.arrayTaskID).sorted() == [0, 1, 2, 3], "\(tasks)")
        for task in tasks {
            #expect(task.state == "COMPLETED" && task.exitCode == "0:0", "\(task.fields)")
            let k = task.arrayTaskID ?? -1
            let written = try String(contentsOf: work.appendingPathComponent("shard-\(k).txt"), encoding: .utf8)
            #expect(written == "\(k)/4\n")
        }
        let dependent = try #require(jobs[after]?.first)
        #expect(dependent.state == "COMPLETED", "\(dependent.fields)\(cluster.logTails())")
        // Slurm's times are local ISO 8601 to the second, so they compare as strings.
        for task in tasks { #expect(dependent.startTime >= task.endTime) }
        let all = try String(contentsOf: work.appendingPathComponent("all.txt"), encoding: .utf8)
        #expect(all == "0/4\n1/4\n2/4\n3/4\n")

        let pids = cluster.daemonPIDs
        #expect(Set(pids.keys) == ["munged", "slurmctld", "slurmd"])
        #expect(cluster.allDaemonsRunning)
        cluster.stop()
        for (name, pid) in pids {
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "\(name) (pid \(pid)) still running after stop()")
        }
    }

    /// What a failing test leaves when it stops the cluster mid-job: `stop()` cancels the running
    /// job (its process ends) and stops every daemon by its pid.
    @Test(slurmTrait) func stoppingWhileAJobRunsLeavesNoProcessBehind() throws {
        let cluster = try SlurmCluster()
        defer { cluster.stop() }
        let work = cluster.folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        let pidFile = work.appendingPathComponent("job.pid")
        let job = try cluster.submit(["--output=job.log", "--wrap", "echo $$ > job.pid; exec sleep 600"], in: work)
        let deadline = Date().addingTimeInterval(60)
        var running = false
        while !running && Date() < deadline {
            running =
                try cluster.jobs(job).first?.state == "RUNNING"
                && FileManager.default.fileExists(atPath: pidFile.path)
            if !running { usleep(200_000) }
        }
        try #require(running, "job \(job) did not start\(cluster.logTails())")
        usleep(200_000)  // the shell has written its pid and exec'd sleep
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sleeper = try #require(Int32(text))
        #expect(kill(sleeper, 0) == 0, "the job's process \(sleeper) is not running")
        let pids = cluster.daemonPIDs
        cluster.stop()
        for (name, pid) in pids {
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "\(name) (pid \(pid)) still running after stop()")
        }
        // The job's process is a grandchild of slurmd (through slurmstepd), reaped by init: gone
        // or a zombie.
        let state = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8))?
            .split(separator: ")").last?.split(separator: " ").first
        #expect(state == nil || state == "Z", "the job's process \(sleeper) still runs after stop() (\(state ?? ""))")
    }

    /// The Slurm scripts of docs/batch.md, verbatim, over 12 people: the batch script as a 4-task array
    /// (`--array=0-3` and `--cpus-per-task=1` on the command line beat its `#SBATCH` lines, the
    /// node having `nproc` CPUs), the cohort script as the job that waits for it (`afterany`), as
    /// the page's two `sbatch` lines submit them. The cohort and every person folder must equal,
    /// byte for byte, those of one local `batch --jobs 2` over the same exports.
    @Test(slurmTrait) func theDocumentedJobArrayAndCohortJobGiveTheCohortOfALocalBatch() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/batch.md"), encoding: .utf8)
        let batchScript = try Self.block(after: "<!-- slurm: health-batch.sh -->", in: readme)
        let cohortScript = try Self.block(after: "<!-- slurm: health-cohort.sh -->", in: readme)
        // The submission the test mirrors below.
        #expect(readme.contains("array=$(sbatch --parsable health-batch.sh)\n"))
        #expect(readme.contains("sbatch --dependency=afterany:\"$array\" health-cohort.sh\n"))
        #expect(batchScript.contains("#SBATCH --array=0-15\n"))

        let cluster = try SlurmCluster()
        defer { cluster.stop() }
        print("Slurm cluster (\(cluster.cpus) CPUs) idle after \(String(format: "%.1f", cluster.startupSeconds)) s")
        let study = cluster.folder.appendingPathComponent("study")
        let exports = study.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let ids = (1...12).map { String(format: "p%02d", $0) }
        for (i, id) in ids.enumerated() {
            // 2 to 4 days each, first days two days apart, each person their own seed.
            let first = String(format: "2025-06-%02d", 2 + i * 2)
            let config = SyntheticExportConfiguration(firstDay: first, days: 2 + i % 3, seed: UInt64(40 + i))
            try Data(SyntheticExport.makeExport(config).bytes).write(to: exports.appendingPathComponent("\(id).xml"))
        }
        // A damaged export (cut in half): its task's batch exits 2, which the script tolerates.
        let whole = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2025-06-02", days: 3, seed: 99))
        try Data(whole.bytes.prefix(whole.bytes.count / 2)).write(to: exports.appendingPathComponent("zz-damaged.xml"))
        try batchScript.write(to: study.appendingPathComponent("health-batch.sh"), atomically: true, encoding: .utf8)
        try cohortScript.write(to: study.appendingPathComponent("health-cohort.sh"), atomically: true, encoding: .utf8)

        // The jobs find health-analyzer on their PATH, as on a cluster where it is installed.
        let path =
            binary.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let array = try cluster.submit(
            ["--array=0-3", "--cpus-per-task=1", "health-batch.sh"], in: study, environment: ["PATH": path])
        let cohortJob = try cluster.submit(
            ["--dependency=afterany:\(array)", "health-cohort.sh"], in: study, environment: ["PATH": path])
        let jobs = try cluster.waitUntilFinished([array, cohortJob], timeout: 600)

        let tasks = jobs[array] ?? []
        #expect(tasks.compactMap(\.arrayTaskID).sorted() == [0, 1, 2, 3])
        var done: [String] = []
        var damagedFailures = 0
        for task in tasks {
            let k = task.arrayTaskID ?? -1
            let log =
                (try? String(
                    contentsOf: study.appendingPathComponent("health-batch-\(array)_\(k).out"), encoding: .utf8)) ?? ""
            #expect(task.state == "COMPLETED" && task.exitCode == "0:0", "task \(k): \(task.fields)\n\(log)")
            // The last line counts this shard's people: done, none unchanged, the damaged one failed.
            let lines = log.split(separator: "\n")
            let mine = lines.filter { $0.hasPrefix("done ") }.map { String($0.split(separator: " ")[1]) }
            let failed = lines.filter { $0.hasPrefix("failed zz-damaged: ") }.count
            #expect(lines.last == "\(mine.count) done, 0 unchanged, \(failed) failed", "task \(k):\n\(log)")
            damagedFailures += failed
            done += mine
        }
        // Every person exactly once across the four shards.
        #expect(done.sorted() == ids, "\(done)")
        #expect(damagedFailures == 1)
        let cohort = try #require(jobs[cohortJob]?.first)
        let cohortLog =
            (try? String(contentsOf: study.appendingPathComponent("health-cohort-\(cohortJob).out"), encoding: .utf8))
            ?? ""
        #expect(cohort.state == "COMPLETED" && cohort.exitCode == "0:0", "\(cohort.fields)\n\(cohortLog)")
        for task in tasks { #expect(cohort.startTime >= task.endTime) }

        // The same people on this machine, from the same folder, so export paths read the same.
        let local = try SlurmCluster.execute(
            binary.path, ["batch", "exports", "--out", "local", "--jobs", "2"], in: study)
        #expect(local.status == 2, "\(local.stderr)")
        let fromSlurm = BatchCLITests.tree(study.appendingPathComponent("results/cohort"))
        let fromLocal = BatchCLITests.tree(study.appendingPathComponent("local/cohort"))
        #expect(!fromLocal.isEmpty && fromLocal.keys.contains("people.csv") && fromLocal.keys.contains("daily.csv"))
        #expect(fromSlurm.keys.sorted() == fromLocal.keys.sorted())
        // people.csv too: no wall time, exports absolute (docs/batch.md §4).
        for (name, data) in fromLocal {
            #expect(fromSlurm[name] == data, "cohort/\(name) differs between Slurm and the local batch")
        }
        #expect(
            String(decoding: fromSlurm["people.csv"] ?? Data(), as: UTF8.self).split(separator: "\n").count == ids.count
                + 2)
        for id in ids {
            let a = BatchCLITests.tree(study.appendingPathComponent("results/person=\(id)"))
            let b = BatchCLITests.tree(study.appendingPathComponent("local/person=\(id)"))
            #expect(!a.isEmpty && a == b, "person=\(id) differs between Slurm and the local batch")
        }
    }

    /// docs/batch.md's rerun of one task: after the documented array of 3 shards, the people of
    /// task 1 are taken away (as if it had been killed before them) and the page's
    /// `scontrol requeue <array>_1` runs that task again with the same shard count: it redoes
    /// exactly those people, the other tasks' people untouched, and the cohort job then finds
    /// nobody missing (exit 0).
    @Test(slurmTrait) func requeueingOneTaskRedoesExactlyItsPeople() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/batch.md"), encoding: .utf8)
        #expect(page.contains("`scontrol requeue J_K`"))
        let batchScript = try Self.block(after: "<!-- slurm: health-batch.sh -->", in: page)
        let cohortScript = try Self.block(after: "<!-- slurm: health-cohort.sh -->", in: page)
        let cluster = try SlurmCluster()
        defer { cluster.stop() }
        let study = cluster.folder.appendingPathComponent("study")
        let exports = study.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let ids = (1...6).map { "r\($0)" }
        for (i, id) in ids.enumerated() {
            let config = SyntheticExportConfiguration(firstDay: "2025-06-02", days: 2, seed: UInt64(80 + i))
            try Data(SyntheticExport.makeExport(config).bytes).write(to: exports.appendingPathComponent("\(id).xml"))
        }
        try batchScript.write(to: study.appendingPathComponent("health-batch.sh"), atomically: true, encoding: .utf8)
        try cohortScript.write(to: study.appendingPathComponent("health-cohort.sh"), atomically: true, encoding: .utf8)
        let path =
            binary.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let array = try cluster.submit(
            ["--array=0-2", "--cpus-per-task=1", "health-batch.sh"], in: study, environment: ["PATH": path])
        _ = try cluster.waitUntilFinished([array], timeout: 300)
        func doneBy(_ task: Int) -> [String] {
            let log =
                (try? String(
                    contentsOf: study.appendingPathComponent("health-batch-\(array)_\(task).out"), encoding: .utf8))
                ?? ""
            return log.split(separator: "\n").filter { $0.hasPrefix("done ") }.map {
                String($0.split(separator: " ")[1])
            }
        }
        let first = (0..<3).map(doneBy)
        #expect(first.flatMap { $0 }.sorted() == ids, "\(first)")
        let taken = first[1]
        let results = study.appendingPathComponent("results")
        for id in taken {
            try FileManager.default.removeItem(at: results.appendingPathComponent("person=\(id)"))
            try FileManager.default.removeItem(at: results.appendingPathComponent(".status/\(id).json"))
        }
        let others = ids.filter { !taken.contains($0) }
        let before = others.map { BatchCLITests.tree(results.appendingPathComponent("person=\($0)")) }
        let requeue = try cluster.command("scontrol", ["requeue", "\(array)_1"])
        #expect(requeue.status == 0, "\(requeue.stderr)")
        let jobs = try cluster.waitUntilFinished([array], timeout: 300)
        let task1 = try #require(jobs[array]?.first { $0.arrayTaskID == 1 })
        #expect(task1.state == "COMPLETED" && task1.exitCode == "0:0", "\(task1.fields)")
        #expect(doneBy(1).sorted() == taken.sorted(), "\(doneBy(1))")
        #expect(others.map { BatchCLITests.tree(results.appendingPathComponent("person=\($0)")) } == before)
        let cohortJob = try cluster.submit(["health-cohort.sh"], in: study, environment: ["PATH": path])
        let cohort = try #require(try cluster.waitUntilFinished([cohortJob], timeout: 300)[cohortJob]?.first)
        #expect(cohort.state == "COMPLETED" && cohort.exitCode == "0:0", "\(cohort.fields)")
        let people = try String(contentsOf: results.appendingPathComponent("cohort/people.csv"), encoding: .utf8)
        #expect(
            people.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] }
                == Array(repeating: "done", count: 6))
    }

    /// The text of the fenced block that starts on the line after `marker`.
    static func block(after marker: String, in text: String) throws -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let at = lines.firstIndex(where: { $0 == marker }), at + 1 < lines.count, lines[at + 1].hasPrefix("```")
        else { throw SlurmClusterError("docs/batch.md has no fenced block after '\(marker)'") }
        guard let end = lines[(at + 2)...].firstIndex(of: "```") else {
            throw SlurmClusterError("docs/batch.md: the block after '\(marker)' is not closed")
        }
        return lines[(at + 2)..<end].joined(separator: "\n") + "\n"
    }
}

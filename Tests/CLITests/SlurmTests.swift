import Foundation
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
}

import Foundation
import HealthAnalysis
import HealthBatch
import HealthExport
import HealthReports
import HealthTables

extension ExitCode {
    /// `batch`: every person was done, but some failed (their reasons in people.csv).
    static let peopleFailed: Int32 = 2
    /// `cohort` (and `batch` with no person failed): people listed by a batch have no result
    /// yet (docs/batch.md §1, §5).
    static let cohortIncomplete: Int32 = 3
}

/// `health-analyzer batch <manifest.csv | folder> --out <dir>`: every person's report into
/// `<dir>/person=<id>/`, resumable, parallel, sharded; then the cohort tables.
enum BatchCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.batch)
        if args.flags.contains("--help") { return printHelp(CommandTable.batch) }
        guard let inputPath = args.positionals.first else {
            throw UsageError(message: "missing <manifest.csv | folder>", command: "batch")
        }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(args.positionals[1])'", command: "batch")
        }
        guard let out = args.values["--out"], !out.isEmpty else {
            throw UsageError(message: "missing --out <dir>", command: "batch")
        }
        let analysis = try AnalysisArguments.parse(args, command: "batch")
        var shard: Shard?
        if let text = args.values["--shard"] {
            guard let s = Shard(text) else {
                throw UsageError(message: "--shard takes K/N with 0 <= K < N, not '\(text)'", command: "batch")
            }
            shard = s
        }
        var jobs = ExportReader.availableCores
        if let text = args.values["--jobs"] {
            guard let n = Int(text), n >= 1 else {
                throw UsageError(message: "--jobs takes a whole number from 1, not '\(text)'", command: "batch")
            }
            jobs = n
        }
        let quiet = args.flags.contains("--quiet")
        var options = BatchOptions(
            analysis: analysis, environmentTimeZone: environmentTimeZone(), archives: args.values["--archives"],
            jobs: jobs, force: args.flags.contains("--force"), shard: shard,
            toolVersion: "health-analyzer \(toolVersion)")
        options.prune = args.flags.contains("--prune")

        let people: [BatchPerson]
        do { people = try BatchInput.people(inputPath) } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
        // Each person's line reaches a scheduler's log as it ends, even if the task is killed next.
        Platform.lineBufferStandardOutput()
        let interruption = BatchInterruption()
        Platform.onTermination(
            say:
                "health-analyzer: batch stopped; people printed 'done' are done, the others are redone by the next run\n"
        ) { interruption.stop() }
        var batch = Batch(output: out, options: options, renderer: ReportWriter())
        batch.listing = inputPath
        batch.stepHook = testStepHook(ProcessInfo.processInfo.environment)
        batch.interruption = interruption
        let summary: BatchSummary
        do {
            summary = try batch.run(people) { result in
                switch result.outcome {
                case .failed(let message): printError("failed \(result.id): \(message)")
                case .done:
                    if !quiet { printOutput("done \(result.id) (\(String(format: "%.1f", result.seconds)) s)\n") }
                case .unchanged: if !quiet { printOutput("unchanged \(result.id)\n") }
                }
            }
        } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
        for path in summary.pruned { printOutput("removed \(path)\n") }
        var status = summary.failed == 0 ? ExitCode.success : ExitCode.peopleFailed
        if shard == nil {
            do {
                let written = try Cohort.write(out, toolVersion: "health-analyzer \(toolVersion)")
                if !quiet {
                    printOutput("\(written.unchanged ? "unchanged" : "wrote") \(Cohort.folder(in: out))/\n")
                }
                if !written.missing.isEmpty {
                    printError(
                        "cohort incomplete: \(written.missing.count) listed without a result: "
                            + written.missing.joined(separator: ", "))
                    if status == ExitCode.success { status = ExitCode.cohortIncomplete }
                }
            } catch {
                printError("error: cohort: \(error)")
                status = ExitCode.failure
            }
        }
        if !quiet { printOutput(summary.line + "\n") }
        return status
    }

    static func environmentTimeZone() -> String? {
        ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// For the tests only: `HEALTH_ANALYZER_TEST_KILL_AT=<id>:<step>` kills the process with
    /// SIGKILL at that step of that person's folder write (`swapped`: the new folder is in place,
    /// the status record not yet written); `HEALTH_ANALYZER_TEST_PAUSE_AT=<id>:<step>` pauses
    /// there for 3 s (a second process or a signal can come in).
    private static func testStepHook(_ environment: [String: String]) -> (@Sendable (String, OutputStep) -> Void)? {
        let kill = environment["HEALTH_ANALYZER_TEST_KILL_AT"]
        let pause = environment["HEALTH_ANALYZER_TEST_PAUSE_AT"]
        guard kill != nil || pause != nil else { return nil }
        return { id, step in
            if id + ":" + step.name == kill { Platform.killSelf() }
            if id + ":" + step.name == pause { Platform.sleep(seconds: 3) }
        }
    }
}

/// `health-analyzer cohort <dir>`.
enum CohortCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.cohort)
        if args.flags.contains("--help") { return printHelp(CommandTable.cohort) }
        guard let dir = args.positionals.first else { throw UsageError(message: "missing <dir>", command: "cohort") }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(args.positionals[1])'", command: "cohort")
        }
        let written = try Cohort.write(dir, toolVersion: "health-analyzer \(toolVersion)")
        if !args.flags.contains("--quiet") {
            if written.unchanged {
                printOutput("unchanged \(Cohort.folder(in: dir))/: no person's result changed since it was written\n")
            } else {
                for path in written.paths { printOutput("wrote \(path)\n") }
            }
        }
        for id in written.excluded {
            printError("excluded \(id): no listing names this person (batch --prune removes them)")
        }
        if !written.missing.isEmpty {
            printError(
                "cohort incomplete: \(written.missing.count) listed without a result: "
                    + written.missing.joined(separator: ", "))
            return ExitCode.cohortIncomplete
        }
        return ExitCode.success
    }
}

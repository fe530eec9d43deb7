import Foundation
import HealthAnalysis
import HealthBatch
import HealthExport
import HealthReports

/// `health-analyzer batch <manifest.csv | folder> --out <dir>`: every person's report into
/// `<dir>/person=<id>/`, resumable, parallel, sharded; then the cohort tables.
enum BatchCommand {
    static let help = """
        Usage: health-analyzer batch <manifest.csv | folder> --out <dir> [options]

        Write each person's reports into <dir>/person=<id>/, exactly what
        'report <export> --out <dir>/person=<id>' writes (all or nothing per person), then,
        without --shard, the cohort tables into <dir>/cohort/ (see 'cohort --help').

        <manifest.csv>  CSV with the header 'person,export'; export paths are relative to
                        the manifest's folder (or absolute): a zip, an XML file or a folder.
        <folder>        Its entries <id>.zip, <id>.xml or <id>/ (an unzipped export).
        Person ids: 1 to 64 characters of A-Z a-z 0-9 . _ -, not starting with a dot. A bad
        or repeated id, a missing column or an empty manifest stops before any work.

        A person whose export cannot be read fails alone (the reason goes into
        <dir>/.status/<id>.json and people.csv; an earlier report stays). A rerun skips
        every person whose export (path, size, modification time, a hash of its first and
        last MiB), options and tool version are unchanged since their last successful run.

        Options:
          --out <dir>            Output folder (created if missing). Required.
          --shard <K/N>          Only the people whose id hashes to K of N (FNV-1a 64 of
                                 the id's UTF-8 bytes, modulo N); no cohort at the end.
          --jobs <N>             People at once (default: the cores available, here
                                 \(ExportReader.availableCores)); parser threads per person: cores / jobs.
          --archives <folder>    Also import each export into <folder>/<id>.sqlite and
                                 report from that archive (the whole history).
          --force                Redo every person, unchanged or not.
          --quiet                Print only the failures.
          --tz, --source-order, --no-dedup, --week-start, --from, --to, --week
                                 As for 'report', for every person.
          -h, --help             Show this help.

        Standard output ends with '<n> done, <n> unchanged, <n> failed'.
        Exit codes: 0 every person done or unchanged, 1 any person (or the cohort) failed
        or the input was refused, 64 usage error.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(
            arguments, command: "batch",
            valued: [
                "--out", "--shard", "--jobs", "--archives", "--tz", "--source-order", "--week-start", "--from",
                "--to", "--week",
            ],
            flagNames: ["--force", "--quiet", "--no-dedup"])
        if args.flags.contains("--help") {
            print(help)
            return ExitCode.success
        }
        guard let inputPath = args.positionals.first else {
            throw UsageError(message: "missing <manifest.csv | folder>", command: "batch")
        }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(args.positionals[1])'", command: "batch")
        }
        guard let out = args.values["--out"], !out.isEmpty else {
            throw UsageError(message: "missing --out <dir>", command: "batch")
        }
        let analysis = try PerPersonOptions.parse(args, command: "batch")
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
        let options = BatchOptions(
            analysis: analysis, environmentTimeZone: environmentTimeZone(), archives: args.values["--archives"],
            jobs: jobs, force: args.flags.contains("--force"), shard: shard,
            toolVersion: "health-analyzer \(toolVersion)")

        let people: [BatchPerson]
        do { people = try BatchInput.people(inputPath) } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
        var batch = Batch(output: out, options: options)
        batch.stepHook = testStepHook(ProcessInfo.processInfo.environment)
        let summary = try batch.run(people) { result in
            switch result.outcome {
            case .failed(let message): printError("failed \(result.id): \(message)")
            case .done: if !quiet { print("done \(result.id) (\(String(format: "%.1f", result.seconds)) s)") }
            case .unchanged: if !quiet { print("unchanged \(result.id)") }
            }
        }
        var status = summary.failed == 0 ? ExitCode.success : ExitCode.failure
        if shard == nil {
            do {
                try Cohort.write(out)
                if !quiet { print("wrote \(Cohort.folder(in: out))/") }
            } catch {
                printError("error: cohort: \(error)")
                status = ExitCode.failure
            }
        }
        if !quiet { print(summary.line) }
        return status
    }

    static func environmentTimeZone() -> String? {
        ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// For the tests only: `HEALTH_ANALYZER_TEST_KILL_AT=<id>:<step>` kills the process with
    /// SIGKILL at that step of that person's folder write (`swapped`: the new folder is in place,
    /// the status record not yet written).
    private static func testStepHook(_ environment: [String: String]) -> (@Sendable (String, OutputStep) -> Void)? {
        guard let kill = environment["HEALTH_ANALYZER_TEST_KILL_AT"] else { return nil }
        return { id, step in
            if id + ":" + step.name == kill { Foundation.kill(getpid(), SIGKILL) }
        }
    }
}

/// `health-analyzer cohort <dir>`.
enum CohortCommand {
    static let help = """
        Usage: health-analyzer cohort <dir>

        Put the people of a batch's output folder side by side in <dir>/cohort/ (written as
        one set): daily.csv, weekly.csv, monthly.csv, sleep.csv and workouts.csv in long
        form with 'person' first (rows by person, then date; no source or device names),
        people.csv (outcome, message, export, export date, first and last day, days with
        data, records, seconds, tool version per person), schema.sql, load-duckdb.sql,
        load-sqlite.sql, and report.md with chart_spread.svg: people done and failed, days
        covered, and the spread across people (median, quartiles) of steps per day,
        ring-closure rates, sleep per night and resting heart rate. The same person folders
        give the same bytes.

        Options:
          --quiet      Print nothing on success.
          -h, --help   Show this help.

        Exit codes: 0 written, 1 failure, 64 usage error.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, command: "cohort", valued: [], flagNames: ["--quiet"])
        if args.flags.contains("--help") {
            print(help)
            return ExitCode.success
        }
        guard let dir = args.positionals.first else { throw UsageError(message: "missing <dir>", command: "cohort") }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(args.positionals[1])'", command: "cohort")
        }
        let written = try Cohort.write(dir)
        if !args.flags.contains("--quiet") { for path in written { print("wrote \(path)") } }
        return ExitCode.success
    }
}

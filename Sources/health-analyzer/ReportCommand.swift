import Foundation
import HealthAnalysis
import HealthArchive
import HealthExport
import HealthReports

/// `health-analyzer report <input> --out <dir>`: reads an export once, streaming, and writes
/// the reports.
enum ReportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.report)
        if args.flags.contains("--help") { return printHelp(CommandTable.report) }
        // validate()
        let db = args.values["--db"]
        if db != nil, let extra = args.positionals.first {
            throw UsageError(message: "--db reads the archive: leave out '\(extra)'", command: "report")
        }
        let input = db == nil ? try args.input() : .path(db!)
        let quiet = args.flags.contains("--quiet")
        guard let out = args.values["--out"], !out.isEmpty else {
            throw UsageError(message: "missing --out <dir>", command: "report")
        }
        var options = AnalysisOptions()
        if let tz = args.values["--tz"] {
            options.timeZoneIdentifier = tz
        }
        if let order = args.values["--source-order"] {
            let names = order.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard !names.isEmpty else {
                throw UsageError(message: "--source-order needs at least one source name", command: "report")
            }
            options.sourceOrder = names
        }
        options.deduplicate = !args.flags.contains("--no-dedup")
        switch args.values["--week-start"]?.lowercased() {
        case nil, "monday": options.weekStart = .iso8601
        case "sunday": options.weekStart = .sunday
        case .some:
            throw UsageError(
                message: "--week-start takes monday or sunday, not '\(args.values["--week-start"]!)'", command: "report"
            )
        }
        for (name, keyPath) in [("--from", \AnalysisOptions.from), ("--to", \AnalysisOptions.to)] {
            if let text = args.values[name] {
                guard let date = CivilDate(text) else {
                    throw UsageError(message: "\(name) takes a date YYYY-MM-DD, not '\(text)'", command: "report")
                }
                options[keyPath: keyPath] = date
            }
        }
        if let week = args.values["--week"] {
            guard week == "last" else {
                throw UsageError(message: "--week takes 'last', not '\(week)'", command: "report")
            }
            guard options.from == nil, options.to == nil else {
                throw UsageError(
                    message: "--week last chooses the period itself; leave out --from and --to", command: "report")
            }
            options.lastCompleteWeekOnly = true
        }

        do {
            try options.validate()
        } catch {
            throw UsageError(message: "\(error)", command: "report")
        }

        let threads = try args.threads()

        var writer = ReportWriter()
        writer.threads = threads
        writer.stepHook = testStepHook(ProcessInfo.processInfo.environment)
        // A destination that cannot take the report fails now, not after the whole export is read.
        try writer.checkDestination(out)

        // run()
        let run: ReportRun
        var stamp: ArchiveStamp?
        if let db {
            (run, stamp) = try ArchiveCommands.report(db: db, options: options)
        } else {
            let progress = ProgressLine(label: "Reading " + inputLabel(input))
            var readerOptions = ReaderOptions()
            if progress.isEnabled {
                readerOptions.progress = { @Sendable consumed, total in progress.update(consumed, total) }
            }
            defer { progress.finish() }  // clear the progress line before anything else is printed
            run = try ReportPipeline.run(
                input, options: options,
                environmentTimeZone: ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 },
                readerOptions: readerOptions, threads: threads)
        }
        let result = run.result
        let summary = run.summary
        let context = run.context
        for name in options.sourceOrder ?? [] where !result.sourceOrder.contains(where: { $0.name == name }) {
            printError(
                "warning: --source-order: no source is named '\(name)'; ignored."
                    + sourceHint(name, result.sourceOrder.map(\.name)))
        }
        if let warning = ReportWriter.routeWarning(result, routes: context.routes) { printError("warning: " + warning) }
        // Warnings of the analysis (zone fallbacks, rings that disagree with the ActivitySummary)
        // also go to standard error, so that a cron job's mail shows them.
        for note in result.notes where note.severity == .warning { printError("warning: " + note.text) }
        // The archive's tables first: a failure there (a full disk) exits 1 with --out as it was,
        // and nothing can fail for them once --out is replaced.
        if let db, let warning = try ArchiveCommands.storeResults(run, db: db, stamp: stamp) {
            printError("warning: " + warning)
        }
        let written = try writer.write(result, context: context, to: out)
        if quiet { return ExitCode.success }
        let period = [result.firstDay, result.lastDay].compactMap { $0?.description }.joined(separator: " to ")
        print(
            "Read \(db.map { "archive \($0)" } ?? summary.inputName): \(counted(result.days.count, "day")) (\(period.isEmpty ? "no data" : period)), zone \(result.timeZone.identifier)"
        )
        for path in written { print("wrote \(path)") }
        return ExitCode.success
    }

    /// For the tests of the atomic output set only: `HEALTH_ANALYZER_TEST_KILL_AT=<step>` kills
    /// the process with SIGKILL at that step of the write, `HEALTH_ANALYZER_TEST_PAUSE_AT=<step>`
    /// sleeps 3 s there (steps as `OutputStep.name` spells them: `staged:daily.csv`,
    /// `all-staged`, `swapped`, `cleaned`).
    private static func testStepHook(_ environment: [String: String]) -> (@Sendable (OutputStep) -> Void)? {
        let kill = environment["HEALTH_ANALYZER_TEST_KILL_AT"]
        let pause = environment["HEALTH_ANALYZER_TEST_PAUSE_AT"]
        guard kill != nil || pause != nil else { return nil }
        return { step in
            if step.name == pause { sleep(3) }
            if step.name == kill { Foundation.kill(getpid(), SIGKILL) }
        }
    }

    private static func inputLabel(_ input: ExportInput) -> String {
        switch input {
        case .standardInput: return "<stdin>"
        case .path(let p): return (p as NSString).lastPathComponent
        }
    }

}
/// " Did you mean '…'?" when a source's name differs from `name` only in case, apostrophe
/// (' versus ’) or kind of space; otherwise the list of source names.
func sourceHint(_ name: String, _ sources: [String]) -> String {
    func fold(_ s: String) -> String {
        s.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{00A0}", with: " ")
    }
    if let match = sources.first(where: { fold($0) == fold(name) }) { return " Did you mean '\(match)'?" }
    return sources.isEmpty ? "" : " Sources: " + sources.map { "'\($0)'" }.joined(separator: ", ") + "."
}

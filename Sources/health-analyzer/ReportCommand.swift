import Foundation
import HealthAnalysis
import HealthArchive
import HealthExport
import HealthReports
import HealthTables

/// `health-analyzer report <input> --out <dir>`: reads an export once, streaming, and writes
/// the reports.
enum ReportCommand {
    /// What the command line asks for, checked: the stage before anything is read.
    private struct Request {
        var input: ExportInput
        /// `--db`: report from this archive instead of an export.
        var db: String?
        var out: String
        var quiet: Bool
        /// `--summary`: the plain-text digest on standard output instead of the file list.
        var summary: Bool
        var options: AnalysisOptions
        var threads: Int
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.report)
        if args.flags.contains("--help") { return printHelp(CommandTable.report) }
        let request = try validate(args)
        var writer = ReportWriter()
        writer.threads = request.threads
        writer.stepHook = testStepHook(ProcessInfo.processInfo.environment)
        // A destination that cannot take the report fails now, not after the whole export is read.
        try writer.checkDestination(request.out)
        let (run, archive) = try read(request)
        // `--quiet`: nothing on a run that succeeds, warnings included (they are in report.md's
        // Notes and report.json's `warnings`); errors still print.
        if !request.quiet { printWarnings(run, options: request.options) }
        // The archive's tables first: a failure there (a full disk) exits 1 with --out as it was,
        // and nothing can fail for them once --out is replaced.
        if let db = request.db, let archive,
            let warning = try ArchiveCommands.storeResults(run, in: archive, db: db), !request.quiet
        {
            printError("warning: " + warning)
        }
        let written = try writer.write(run.result, context: run.context, to: request.out)
        if request.summary {
            printOutput(writer.summaryText(run.result, context: run.context))
        } else if !request.quiet {
            printSummary(run, request: request, written: written)
        }
        return ExitCode.success
    }

    /// The arguments as a request; a usage error (exit 64) for anything `report` does not take.
    private static func validate(_ args: ArgumentScanner) throws -> Request {
        let db = args.values["--db"]
        if db != nil, let extra = args.positionals.first {
            throw UsageError(message: "--db reads the archive: leave out '\(extra)'", command: "report")
        }
        let input = try db.map { ExportInput.path($0) } ?? args.input()
        guard let out = args.values["--out"], !out.isEmpty else {
            throw UsageError(message: "missing --out <dir>", command: "report")
        }
        return Request(
            input: input, db: db, out: out, quiet: args.flags.contains("--quiet"),
            summary: args.flags.contains("--summary"),
            options: try AnalysisArguments.parse(args, command: "report"), threads: try args.threads())
    }

    /// The analysis: from the archive (`--db`, with the archive opened once, to store its
    /// results in) or from the export, read once with a progress line on a terminal.
    private static func read(_ request: Request) throws -> (ReportRun, ArchiveCommands.ReportArchive?) {
        if let db = request.db {
            return try ArchiveCommands.report(db: db, options: request.options, threads: request.threads)
        }
        let progress = ProgressLine(label: "Reading " + inputLabel(request.input))
        var readerOptions = ReaderOptions()
        if progress.isEnabled {
            readerOptions.progress = { @Sendable consumed, total in progress.update(consumed, total) }
        }
        defer { progress.finish() }  // clear the progress line before anything else is printed
        let run = try ReportPipeline.run(
            request.input, options: request.options,
            environmentTimeZone: ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 },
            readerOptions: readerOptions, threads: request.threads)
        return (run, nil)
    }

    /// The warnings on standard error, each as `warning: …`: `--source-order` names no source,
    /// route files are missing, and the analysis' warnings (zone fallbacks, rings that disagree
    /// with the ActivitySummary), which report.md's Notes also hold, so that a cron job's mail
    /// shows them.
    private static func printWarnings(_ run: ReportRun, options: AnalysisOptions) {
        let result = run.result
        for name in options.sourceOrder ?? [] where !result.sourceOrder.contains(where: { $0.name == name }) {
            printError(
                "warning: --source-order: no source is named '\(name)'; ignored."
                    + sourceHint(name, result.sourceOrder.map(\.name)))
        }
        if let warning = ReportWriter.routeWarning(result, routes: run.context.routes) {
            printError("warning: " + warning)
        }
        for note in result.notes where note.severity == .warning { printError("warning: " + note.text) }
    }

    /// What was read (the input, its days and period, the zone), the files written, and which to
    /// open first.
    private static func printSummary(_ run: ReportRun, request: Request, written: [String]) {
        let result = run.result
        let period = [result.firstDay, result.lastDay].compactMap { $0?.description }.joined(separator: " to ")
        let what = request.db.map { "archive \($0)" } ?? run.summary.inputName
        // Several periods (a move, a trip): their zones in order, each once per period.
        var zones: [String] = []
        for p in result.timeZonePeriods where p.identifier != zones.last { zones.append(p.identifier) }
        let zoneText =
            zones.count > 1 ? "zones " + zones.joined(separator: " → ") : "zone \(result.timeZone.identifier)"
        // The period's days as report.md and --summary count them (docs/weeks.md §8), not the
        // rows of daily.csv, which leave out long runs without data.
        let days = period.isEmpty ? "no data" : "\(period), \(PeriodDays(result).text)"
        printOutput("Read \(what): \(days), \(zoneText)\n")
        for path in written { printOutput("wrote \(path)\n") }
        // The last line: the file a person opens first (docs/outputs.md, "report.html").
        if let html = written.first(where: { $0.hasSuffix("/" + ReportFile.html.fileName) }) {
            printOutput("open \(html) in a web browser\n")
        }
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
            if step.name == pause { Platform.sleep(seconds: 3) }
            if step.name == kill { Platform.killSelf() }
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

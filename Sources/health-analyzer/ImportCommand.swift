import Foundation
import HealthAnalysis
import HealthArchive
import HealthExport

/// `health-analyzer import <input>... --db <file>`: adds exports to the SQLite archive, one
/// transaction per input.
enum ImportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.importCommand)
        if args.flags.contains("--help") { return printHelp(CommandTable.importCommand) }
        guard let db = args.values["--db"], !db.isEmpty else {
            throw UsageError(message: "missing --db <file>", command: "import")
        }
        guard !args.positionals.isEmpty else {
            throw UsageError(
                message: "missing <input> (export.zip, export.xml, a folder, or -)", command: "import")
        }
        let quiet = args.flags.contains("--quiet")
        let threads = try args.threads()
        let archive = try Archive(path: db, onLongWait: ArchiveCommands.announceWait)
        // A damaged archive is refused before anything is written into it.
        try archive.checkIntact()
        var failures = 0
        for input in args.positionals.flatMap(ImportInputs.expand) {
            let progress = ProgressLine(label: "Importing \(label(input))", interrupted: .rollsBackTheImport)
            var readerOptions = ReaderOptions()
            if progress.isEnabled {
                readerOptions.progress = { @Sendable consumed, total in progress.update(consumed, total) }
            }
            let outcome: ImportOutcome
            do {
                defer { progress.finish() }  // cleared before the result or the error is printed
                outcome = try archive.importExport(
                    input, readerOptions: readerOptions, threads: threads, batchStored: testWritingHook())
            } catch {
                failures += 1
                printError("error: \(error) (nothing of it was imported)")
                continue
            }
            if !quiet { printOutput(line(outcome) + "\n") }
        }
        // A first import that failed leaves no empty archive behind.
        if failures > 0, archive.removeIfCreatedAndEmpty() {
            printError("note: \(db) was not kept: no export could be imported into the new archive")
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }

    /// For the crash tests only: with `HEALTH_ANALYZER_TEST_IMPORT_WRITING=<file>`, the import
    /// creates that (empty) file once its first batch of records is in the open transaction, so
    /// that a test kills it only after it has begun writing.
    private static func testWritingHook() -> ((Int) -> Void)? {
        guard let mark = ProcessInfo.processInfo.environment["HEALTH_ANALYZER_TEST_IMPORT_WRITING"], !mark.isEmpty
        else { return nil }
        var done = false
        return { records in
            guard !done, records > 0 else { return }
            done = true
            _ = FileManager.default.createFile(atPath: mark, contents: nil)  // a test hook: best effort
        }
    }

    /// `export.zip:…/export.xml: 155,113 records read, 155,113 new, 0 already present; …`.
    static func line(_ o: ImportOutcome) -> String {
        var text =
            "\(o.inputName): \(grouped(o.recordsRead)) records read, \(grouped(o.recordsNew)) new, "
            + "\(grouped(o.recordsPresent)) already present"
        var extras: [String] = []
        if o.recordsSkipped > 0 {
            extras.append(
                "\(grouped(o.recordsSkipped)) records skipped: start outside 1901-12-13 to 2174-02-25 (first at line \(o.firstSkippedLine))"
            )
        }
        if o.workoutsRead > 0 { extras.append("workouts \(grouped(o.workoutsNew)) new of \(grouped(o.workoutsRead))") }
        if o.correlationsRead > 0 {
            extras.append("correlations \(grouped(o.correlationsNew)) new of \(grouped(o.correlationsRead))")
        }
        if o.summariesRead > 0 {
            extras.append(
                "activity days \(grouped(o.summariesNew)) new, \(grouped(o.summariesReplaced)) replaced"
                    + " of \(grouped(o.summariesRead))")
        }
        if !extras.isEmpty { text += "; " + extras.joined(separator: ", ") }
        return text
    }

    static func label(_ input: ExportInput) -> String {
        switch input {
        case .standardInput: return "<stdin>"
        case .path(let p): return (p as NSString).lastPathComponent
        }
    }
}

import Foundation
import HealthArchive
import HealthExport

/// `health-analyzer import <input>... --db <file>`: adds exports to the SQLite archive, one
/// transaction per input.
enum ImportCommand {
    static let help = """
        Usage: health-analyzer import <input>... --db <file> [--quiet]

        Add Apple Health exports to a SQLite archive of the whole history (created if
        missing). Each input is one transaction: all of it is in the archive, or, when it
        cannot be read or the import is killed, none of it. A record already in the archive
        (same type, source, start and end instants, value and unit) is not added again;
        records a later export no longer holds stay. One line per input: records read, new,
        already present.

        <input>  export.zip (read in place), export.xml, the unzipped folder, - for XML on
                 standard input, or a folder of exports (its .zip files and subfolders).

        Options:
          --db <file>  The archive (SQLite). Required.
          --quiet      Print only errors (for cron).
          --threads N  Parser threads (default: the cores available, here \(ExportReader.availableCores));
                       the archive is the same for any N.
          -h, --help   Show this help.

        Exit codes: 0 all inputs imported, 1 any input or the archive failed (the other
        inputs are still imported), 64 usage error.

        Example:
          health-analyzer import ~/Health/export.zip --db ~/Health/health.sqlite
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(
            arguments, command: "import", valued: ["--db", "--threads"], flagNames: ["--quiet"])
        if args.flags.contains("--help") {
            print(help)
            return ExitCode.success
        }
        guard let db = args.values["--db"], !db.isEmpty else {
            throw UsageError(message: "missing --db <file>", command: "import")
        }
        guard !args.positionals.isEmpty else {
            throw UsageError(
                message: "missing <input> (export.zip, export.xml, a folder, or -)", command: "import")
        }
        let quiet = args.flags.contains("--quiet")
        let threads = try args.threads()
        let archive = try Archive(path: db)
        var failures = 0
        for input in args.positionals.flatMap(ImportInputs.expand) {
            let progress = ProgressLine(label: "Importing \(label(input))")
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
            if !quiet { print(line(outcome)) }
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
            FileManager.default.createFile(atPath: mark, contents: nil)
        }
    }

    /// `export.zip:…/export.xml: 155,113 records read, 155,113 new, 0 already present; …`.
    static func line(_ o: ImportOutcome) -> String {
        var text =
            "\(o.inputName): \(group(o.recordsRead)) records read, \(group(o.recordsNew)) new, "
            + "\(group(o.recordsPresent)) already present"
        var extras: [String] = []
        if o.recordsSkipped > 0 {
            extras.append(
                "\(group(o.recordsSkipped)) records skipped: start outside 1901-12-13 to 2174-02-25 (first at line \(o.firstSkippedLine))"
            )
        }
        if o.workoutsRead > 0 { extras.append("workouts \(group(o.workoutsNew)) new of \(group(o.workoutsRead))") }
        if o.correlationsRead > 0 {
            extras.append("correlations \(group(o.correlationsNew)) new of \(group(o.correlationsRead))")
        }
        if o.summariesRead > 0 {
            extras.append(
                "activity days \(group(o.summariesNew)) new, \(group(o.summariesReplaced)) replaced"
                    + " of \(group(o.summariesRead))")
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

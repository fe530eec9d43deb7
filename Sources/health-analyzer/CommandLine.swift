import Foundation
import HealthExport

/// The tool's version, printed by `--version`.
let toolVersion = "0.1.0"

/// A usage error: printed with a one-line hint, exit code 64 (EX_USAGE).
struct UsageError: Error {
    var message: String
    var command: String?
}

/// Exit codes (swift-argument-parser's convention).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

let rootHelp = """
    health-analyzer \(toolVersion): numbers you can trust from an Apple Health export.

    Usage: health-analyzer <command> [options]

    Commands:
      inspect <input>             Show what an export contains: dates, types, sources,
                                  workouts, activity summaries, diagnostics.
      report <input> --out <dir>  Write daily, weekly, monthly, sleep and workout CSV
                                  files, report.md with its SVG charts, schema.sql and
                                  report.json into <dir>.
      import <input>... --db <f>  Add exports to a SQLite archive of the whole history.
      report --db <f> --out <dir> The reports over everything the archive holds.
      inspect --db <f>            Summarise the archive.
      batch <manifest|folder> --out <dir>
                                  Every person's reports into <dir>/person=<id>/,
                                  resumable and sharded, then the cohort tables.
      cohort <dir>                The people of a batch side by side in <dir>/cohort/.

    <input> is export.zip (read in place), export.xml, the unzipped folder, or - for XML
    on standard input.

    Options:
      -h, --help                  Show help (also: health-analyzer <command> --help).
      --version                   Show the version.

    Exit codes: 0 success, 1 bad input or I/O failure, 64 usage error.
    """

extension CommandLine {
    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    static func run(_ arguments: [String]) -> Int32 {
        do {
            guard let first = arguments.first else {
                throw UsageError(message: "missing command")
            }
            switch first {
            case "-h", "--help", "help":
                print(rootHelp)
                return ExitCode.success
            case "--version":
                print(toolVersion)
                return ExitCode.success
            case "inspect":
                return try InspectCommand.run(Array(arguments.dropFirst()))
            case "report":
                return try ReportCommand.run(Array(arguments.dropFirst()))
            case "import":
                return try ImportCommand.run(Array(arguments.dropFirst()))
            case "batch":
                return try BatchCommand.run(Array(arguments.dropFirst()))
            case "cohort":
                return try CohortCommand.run(Array(arguments.dropFirst()))
            default:
                throw UsageError(
                    message: first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'")
            }
        } catch let e as UsageError {
            let hint = e.command.map { "health-analyzer \($0) --help" } ?? "health-analyzer --help"
            printError("error: \(e.message). See '\(hint)'.")
            return ExitCode.usage
        } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A small argument scanner: `--name value`, `--name=value`, flags, and positionals.
struct ArgumentScanner {
    var command: String
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value (`--out`).
    ///   - flagNames: options without a value (`--no-dedup`).
    init(_ arguments: [String], command: String, valued: Set<String>, flagNames: Set<String>) throws {
        self.command = command
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if name == "-h" { name = "--help" }
            if valued.contains(name) {
                if let inline {
                    values[name] = inline
                } else {
                    guard i < arguments.count else {
                        throw UsageError(message: "option '\(name)' needs a value", command: command)
                    }
                    values[name] = arguments[i]
                    i += 1
                }
            } else if flagNames.contains(name) || name == "--help" {
                guard inline == nil else {
                    throw UsageError(message: "option '\(name)' takes no value", command: command)
                }
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(arg)'", command: command)
            }
        }
    }

    /// `--threads N` (a whole number from 1), default `ExportReader.availableCores`.
    func threads() throws -> Int {
        guard let text = values["--threads"] else { return ExportReader.availableCores }
        guard let n = Int(text), n >= 1 else {
            throw UsageError(message: "--threads takes a whole number from 1, not '\(text)'", command: command)
        }
        return n
    }

    /// The single positional `<input>`.
    func input() throws -> ExportInput {
        guard let first = positionals.first else {
            throw UsageError(message: "missing <input> (export.zip, export.xml, a folder, or -)", command: command)
        }
        guard positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(positionals[1])'", command: command)
        }
        return ExportInput(argument: first)
    }
}

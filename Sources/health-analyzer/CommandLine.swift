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

extension CommandLine {
    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    /// Without arguments it prints the general help and succeeds, as swift-argument-parser's
    /// commands with subcommands do; usage errors (exit 64) are arguments it cannot take.
    static func run(_ arguments: [String]) -> Int32 {
        do {
            guard let first = arguments.first else {
                print(CommandTable.rootHelpText, terminator: "")
                return ExitCode.success
            }
            let rest = Array(arguments.dropFirst())
            switch first {
            case "-h", "--help":
                print(CommandTable.rootHelpText, terminator: "")
                return ExitCode.success
            case "--version":
                print(CommandTable.versionText, terminator: "")
                return ExitCode.success
            case "help":
                return try helpCommand(rest)
            case "inspect":
                return try InspectCommand.run(rest)
            case "report":
                return try ReportCommand.run(rest)
            case "import":
                return try ImportCommand.run(rest)
            case "completions":
                let args = try ArgumentScanner(rest, spec: CommandTable.completions)
                if args.flags.contains("--help") { return printHelp(CommandTable.completions) }
                guard let shell = try args.single(), let script = CommandTable.completionScript(shell) else {
                    throw UsageError(
                        message:
                            "completions takes bash, zsh or fish\(args.positionals.first.map { ", not '\($0)'" } ?? "")",
                        command: "completions")
                }
                print(script, terminator: "")
                return ExitCode.success
            case "manual":
                let args = try ArgumentScanner(rest, spec: CommandTable.manual)
                if args.flags.contains("--help") { return printHelp(CommandTable.manual) }
                if let extra = args.positionals.first {
                    throw UsageError(message: "unexpected argument '\(extra)'", command: "manual")
                }
                print(CommandTable.manPage(), terminator: "")
                return ExitCode.success
            case "mcp":
                return try McpCommand.run(rest)
            case "batch":
                return try BatchCommand.run(rest)
            case "cohort":
                return try CohortCommand.run(rest)
            default:
                if first.hasPrefix("-") {
                    let names = CommandTable.rootOptions.map(\.name)
                    throw UsageError(message: "unknown option '\(first)'" + didYouMean(first, names))
                }
                throw UsageError(
                    message: "unknown command '\(first)'" + didYouMean(first, CommandTable.commands.map(\.name)))
            }
        } catch let e as UsageError {
            let hint = e.command.map { "health-analyzer \($0) --help" } ?? "health-analyzer --help"
            let end = e.message.hasSuffix("?") ? "" : "."
            printError("error: \(e.message)\(end) See '\(hint)'.")
            return ExitCode.usage
        } catch {
            printError("error: \(error)")
            return ExitCode.failure
        }
    }

    /// `health-analyzer help [<command>]`.
    private static func helpCommand(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.help)
        guard let name = try args.single() else {
            print(CommandTable.rootHelpText, terminator: "")
            return ExitCode.success
        }
        guard let command = CommandTable.command(name) else {
            throw UsageError(
                message: "unknown command '\(name)'" + didYouMean(name, CommandTable.commands.map(\.name)),
                command: "help")
        }
        return printHelp(command)
    }
}

/// Prints a command's help; the exit code of `--help`.
func printHelp(_ command: CommandSpec) -> Int32 {
    print(CommandTable.helpText(command), terminator: "")
    return ExitCode.success
}

/// "; did you mean '--out'?" for the candidate nearest to `word` by edit distance (Levenshtein,
/// on the part before any `=`), when it is near enough to be a slip: at most 1 edit for names
/// of up to 4 letters, 2 up to 8, else 3. Otherwise nothing.
func didYouMean(_ word: String, _ candidates: [String]) -> String {
    let typed = Array(word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word)
    var best: (name: String, distance: Int)?
    for c in candidates {
        let d = editDistance(typed, Array(c))
        if d < (best?.distance ?? Int.max) { best = (c, d) }
    }
    guard let best else { return "" }
    let letters = best.name.drop { $0 == "-" }.count
    let allowed = letters <= 4 ? 1 : letters <= 8 ? 2 : 3
    return best.distance <= allowed ? "; did you mean '\(best.name)'?" : ""
}

/// The Levenshtein distance: insertions, deletions and substitutions of one character each.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}

/// Writes a line to standard error, control characters escaped (`escapingControlCharacters`:
/// messages carry names from the input).
func printError(_ line: String) {
    FileHandle.standardError.write(Data((escapingControlCharacters(line) + "\n").utf8))
}

/// `print(text, terminator: "")` with control characters escaped, for output that shows text
/// from an input (source names, paths, entry names).
func printOutput(_ text: String) {
    print(escapingControlCharacters(text), terminator: "")
}

/// A small argument scanner: `--name value`, `--name=value`, flags, and positionals.
struct ArgumentScanner {
    var command: String
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// Scans `arguments` as `spec` declares them: `--name value`, `--name=value`, flags
    /// (`-h` is `--help`), positionals, and everything after `--` as positionals.
    /// - Throws: `UsageError` for an option `spec` does not declare (with the nearest one as a
    ///   suggestion), a missing value, a value given to a flag, or a single-valued option given
    ///   twice.
    init(_ arguments: [String], spec: CommandSpec) throws {
        let command = spec.name
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
            if let option = spec.option(name), option.value != nil {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < arguments.count else {
                        throw UsageError(message: "option '\(name)' needs a value", command: command)
                    }
                    value = arguments[i]
                    i += 1
                }
                if let earlier = values[name] {
                    throw UsageError(
                        message: "\(name) is given twice ('\(earlier)' and '\(value)'); give it once", command: command)
                }
                values[name] = value
            } else if spec.option(name) != nil || name == "--help" {
                guard inline == nil else {
                    throw UsageError(message: "option '\(name)' takes no value", command: command)
                }
                flags.insert(name)
            } else {
                throw UsageError(
                    message: "unknown option '\(arg)'" + didYouMean(arg, spec.allOptionNames), command: command)
            }
        }
    }

    /// The one positional of a command that takes at most one, or nil without it.
    func single() throws -> String? {
        guard positionals.count <= 1 else {
            throw UsageError(message: "unexpected argument '\(positionals[1])'", command: command)
        }
        return positionals.first
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

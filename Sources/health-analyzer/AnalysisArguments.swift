import Foundation
import HealthAnalysis
import HealthExport

/// The analysis options that `report` takes and `batch` applies to each person (`--tz`,
/// `--source-order`, `--no-dedup`, `--week-start`, `--from`, `--to`, `--week`): one reading, one
/// set of messages, for both commands.
enum AnalysisArguments {
    /// The `AnalysisOptions` that `args` give.
    /// - Throws: `UsageError` (exit 64, naming `command`'s help) for a value an option does not
    ///   take, `--week last` with `--from` or `--to`, and what `AnalysisOptions.validate` refuses.
    static func parse(_ args: ArgumentScanner, command: String) throws -> AnalysisOptions {
        var options = AnalysisOptions()
        options.timeZoneIdentifier = args.values["--tz"]
        if let order = args.values["--source-order"] {
            let names = order.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard !names.isEmpty else {
                throw UsageError(message: "--source-order needs at least one source name", command: command)
            }
            options.sourceOrder = names
        }
        options.deduplicate = !args.flags.contains("--no-dedup")
        let weekStart = args.values["--week-start"]
        switch weekStart?.lowercased() {
        case nil, "monday": options.weekStart = .iso8601
        case "sunday": options.weekStart = .sunday
        case .some:
            throw UsageError(message: "--week-start takes monday or sunday, not '\(weekStart ?? "")'", command: command)
        }
        for (name, keyPath) in [("--from", \AnalysisOptions.from), ("--to", \AnalysisOptions.to)] {
            if let text = args.values[name] {
                guard let date = CivilDate(text) else {
                    throw UsageError(message: "\(name) takes a date YYYY-MM-DD, not '\(text)'", command: command)
                }
                options[keyPath: keyPath] = date
            }
        }
        if let week = args.values["--week"] {
            guard week == "last" else {
                throw UsageError(message: "--week takes 'last', not '\(week)'", command: command)
            }
            guard options.from == nil, options.to == nil else {
                throw UsageError(
                    message: "--week last chooses the period itself; leave out --from and --to", command: command)
            }
            options.lastCompleteWeekOnly = true
        }
        do { try options.validate() } catch { throw UsageError(message: "\(error)", command: command) }
        return options
    }
}

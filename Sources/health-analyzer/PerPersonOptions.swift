import Foundation
import HealthAnalysis
import HealthExport

/// The per-person analysis options of `batch` (`--tz`, `--source-order`, `--no-dedup`,
/// `--week-start`, `--from`, `--to`, `--week`), read with the rules and messages of `report`'s.
/// (`report` reads its own inline; issue 18's option table is to make them one.)
enum PerPersonOptions {
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
        switch args.values["--week-start"]?.lowercased() {
        case nil, "monday": options.weekStart = .iso8601
        case "sunday": options.weekStart = .sunday
        case .some(let other):
            throw UsageError(message: "--week-start takes monday or sunday, not '\(other)'", command: command)
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

import Foundation
import HealthExport

/// What one analysis run computes: the analysis side of the CLI's options.
public struct AnalysisOptions: Sendable, Equatable {
    /// `--tz`: the IANA zone for day and hour buckets. Nil: the most frequent `HKTimeZone`, then
    /// the machine's zone, then the export's printed offset (reference §2.7).
    public var timeZoneIdentifier: String?
    /// `--source-order name1,name2`: these source names first, in this order; every other source
    /// keeps its default place after them (reference §5.4).
    public var sourceOrder: [String]?
    /// `--no-dedup` sets this to false: cumulative totals become plain sums of all sources,
    /// prorated by time into days.
    public var deduplicate: Bool
    /// Drop exact duplicates (same type, source, start, end and value) before anything else
    /// (reference §5.4, preprocessing 2). Independent of `deduplicate`.
    public var removeExactDuplicates: Bool
    /// `--week-start sunday`.
    public var weekStart: WeekStart
    /// `--from` / `--to`: first and last local day reported (inclusive).
    public var from: CivilDate?
    public var to: CivilDate?
    /// `--week last`: report only the last complete week (for cron use).
    public var lastCompleteWeekOnly: Bool

    public init(
        timeZoneIdentifier: String? = nil, sourceOrder: [String]? = nil, deduplicate: Bool = true,
        removeExactDuplicates: Bool = true, weekStart: WeekStart = .iso8601, from: CivilDate? = nil,
        to: CivilDate? = nil, lastCompleteWeekOnly: Bool = false
    ) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.sourceOrder = sourceOrder
        self.deduplicate = deduplicate
        self.removeExactDuplicates = removeExactDuplicates
        self.weekStart = weekStart
        self.from = from
        self.to = to
        self.lastCompleteWeekOnly = lastCompleteWeekOnly
    }

    /// Checks the options that can be wrong on their own (a usage error for the CLI), before
    /// any input is read.
    /// - Throws: `AnalysisError.invalidTimeZone`, `.emptyDateRange`.
    public func validate() throws {
        if let id = timeZoneIdentifier, TimeZone.iana(id) == nil {
            throw AnalysisError.invalidTimeZone(id, suggestion: TimeZone.suggestion(for: id))
        }
        if let from, let to, to < from {
            throw AnalysisError.emptyDateRange(from: from, to: to)
        }
    }
}

/// Errors of the analysis.
public enum AnalysisError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--tz` is not an IANA zone name known to this system.
    case invalidTimeZone(String, suggestion: String?)
    /// `--from` is after `--to`.
    case emptyDateRange(from: CivilDate, to: CivilDate)

    public var description: String {
        switch self {
        case .invalidTimeZone(let id, let suggestion):
            return "unknown time zone '\(id)': expected an IANA zone name such as Europe/Berlin"
                + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case .emptyDateRange(let from, let to):
            return "--from \(from) is after --to \(to)"
        }
    }
}

extension TimeZone {
    /// The zone for an IANA identifier (`Europe/Berlin`, `UTC`), or nil. Also accepts the forms
    /// a `TZ` variable can take: a leading `:` and a `…/zoneinfo/` path prefix.
    static func iana(_ raw: String) -> TimeZone? {
        var id = Substring(raw.trimmingCharacters(in: .whitespaces))
        if id.hasPrefix(":") { id = id.dropFirst() }
        if let r = id.range(of: "zoneinfo/") { id = id[r.upperBound...] }
        guard !id.isEmpty else { return nil }
        return TimeZone(identifier: String(id))
    }

    /// A known identifier equal to `id` ignoring case, for the error message.
    static func suggestion(for id: String) -> String? {
        let lower = id.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lower }
    }
}

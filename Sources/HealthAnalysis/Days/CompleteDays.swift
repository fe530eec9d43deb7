import HealthExport

/// The one rule for partial weeks and months (docs/weeks.md §3), used by `weekly.csv`,
/// `monthly.csv`, report.md's tables and their notes: a week or month is **partial** when one of
/// its days lies outside the complete days, which run from the period's first day (the first day
/// with data, or `--from`) to its last day (the last day with data, `--to`, or the last day of
/// the week of `--week last`), but never to the export's own local day or later (that day was
/// still running when the export was made).
///
/// Days are local day numbers (days since 1970).
public struct CompleteDays: Hashable, Sendable {
    /// The complete days; nil when there are none (every week and month is then partial).
    public var range: ClosedRange<Int>?

    /// The complete days from `first` to `last`; none when `last < first`.
    public init(first: Int, last: Int) {
        range = first <= last ? first...last : nil
    }

    /// True when a span of days from `first` to `last` (a week, a calendar month) is not wholly
    /// inside the complete days.
    public func isPartial(first: Int, last: Int) -> Bool {
        guard let range else { return true }
        return first < range.lowerBound || last > range.upperBound
    }
}

import HealthAnalysis
import HealthExport

/// The one definition of a report's days (docs/weeks.md §8), used by the terminal line after a
/// report, `--summary`, report.md/report.html's Period and report.json's `period`:
///
/// - `inPeriod`: the calendar days from the period's first day to its last, both included
///   (`AnalysisResult.firstDay`, `lastDay`), whether or not they have data or a row;
/// - `withData`: the days among them with any measured value in `daily.csv`
///   (`ReportTables.daysWithData`).
///
/// Neither is the count of `daily.csv`'s rows, which leaves out runs of more than 31 days
/// without data (docs/weeks.md §6).
public struct PeriodDays: Hashable, Sendable {
    public var first: CivilDate?
    public var last: CivilDate?
    public var inPeriod: Int
    public var withData: Int

    /// The days of `result`'s period; both counts are 0 when nothing was reported.
    public init(_ result: AnalysisResult) {
        first = result.firstDay
        last = result.lastDay
        if let first, let last {
            inPeriod = max(0, last.daysSince1970 - first.daysSince1970 + 1)
        } else {
            inPeriod = 0
        }
        withData = ReportTables.daysWithData(result.days)
    }

    /// `666 days in the period, 442 with data` (`1 day in the period, 1 with data`).
    public var text: String {
        "\(counted(inPeriod, "day")) in the period, \(grouped(withData)) with data"
    }
}

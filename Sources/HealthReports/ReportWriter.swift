import HealthAnalysis
import HealthExport

/// What a report shows beyond the analysis result itself.
public struct ReportOptions: Hashable, Sendable {
    /// How many of the last weeks `report.md` shows in its weekly table (all weeks are in
    /// `weekly.csv`).
    public var weeksInReport: Int
    /// How many days with an ActivitySummary disagreement `report.md` lists before it cuts the
    /// table short (all days are in `daily.csv`'s `summary_*` columns).
    public var maxDisagreementRows: Int

    public init(weeksInReport: Int = 8, maxDisagreementRows: Int = 50) {
        self.weeksInReport = weeksInReport
        self.maxDisagreementRows = maxDisagreementRows
    }
}

/// The files a report consists of, in the order they are written.
public enum ReportFile: String, CaseIterable, Hashable, Sendable {
    case daily = "daily.csv"
    case weekly = "weekly.csv"
    case standHours = "stand_hours.csv"
    case sources = "sources.csv"
    case report = "report.md"

    /// The file's name in the output directory.
    public var fileName: String { rawValue }
}

/// Renders an `AnalysisResult` as CSV files and a Markdown report.
///
/// The text of every file is a pure function of the result, the context and the options: the
/// same input gives byte-identical files (nothing depends on the current time, the locale or
/// the machine). The CSV conventions are described in `CSVTable.swift`: LF line endings,
/// `true`/`false`, `.` decimals, empty cells for missing values.
public struct ReportWriter: Sendable {
    public var options: ReportOptions

    public init(options: ReportOptions = .init()) {
        self.options = options
    }

    /// The text of one report file.
    public func text(of file: ReportFile, for result: AnalysisResult, context: ReportContext) -> String {
        switch file {
        case .daily: return dailyCSV(result)
        case .weekly: return weeklyCSV(result)
        case .standHours: return standHoursCSV(result)
        case .sources: return sourcesCSV(result)
        case .report: return markdownReport(result, context: context)
        }
    }
}

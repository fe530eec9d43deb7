import HealthAnalysis
import HealthExport

// `stand_hours.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The columns of `stand_hours.csv`, in order.
    static let standHourColumns: [CSVColumn<StandHour>] = [
        CSVColumn("date") { .date($0.date) },
        CSVColumn("hour") { .integer($0.hour) },
        CSVColumn("stood") { .boolean($0.stood) },
    ]

    /// The header row of `stand_hours.csv`, as column names.
    public static var standHoursCSVHeader: [String] { standHourColumns.map(\.name) }

    /// The text of `stand_hours.csv`: one row per local hour with a stand-hour record.
    public func standHoursCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.standHourColumns, rows: result.standHours)
    }
}

import HealthAnalysis
import HealthExport

// `sources.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The columns of `sources.csv`, in order. `raw_total` and `counted_total` are in the row's
    /// `unit` (a canonical unit: `count`, `kcal`, `km`, `min`, …), with 3 decimals.
    static let sourceColumns: [CSVColumn<SourceContribution>] = [
        CSVColumn("type") { .text($0.type) },
        CSVColumn("source") { .text($0.sourceName) },
        CSVColumn("source_class") { .text($0.sourceClass.rawValue) },
        CSVColumn("samples") { .integer($0.samples) },
        CSVColumn("raw_total") { .number($0.rawTotal, decimals: 3) },
        CSVColumn("counted_total") { .number($0.countedTotal, decimals: 3) },
        CSVColumn("unit") { .text($0.unit.rawValue) },
    ]

    /// The header row of `sources.csv`, as column names.
    public static var sourcesCSVHeader: [String] { sourceColumns.map(\.name) }

    /// The text of `sources.csv`: one row per type and source, in the order of `result.sources`.
    public func sourcesCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.sourceColumns, rows: result.sources)
    }
}

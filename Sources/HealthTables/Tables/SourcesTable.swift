import HealthAnalysis
import HealthExport

// `sources.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The table `sources.csv`, in order. `raw_total` and `counted_total` are in the row's
    /// `unit` (a canonical unit: `count`, `kcal`, `km`, `min`, …), with 3 decimals.
    static let sourcesTable = ReportTable<SourceContribution>(
        "sources", file: .sources,
        columns: [
            .text("type") { $0.type },
            .text("source", identifying: true) { $0.sourceName },
            .text("source_class") { $0.sourceClass.rawValue },
            .integer("samples") { $0.samples },
            .number("raw_total", decimals: 3) { $0.rawTotal },
            .number("counted_total", decimals: 3) { $0.countedTotal },
            .text("unit") { $0.unit.rawValue },
        ])

    /// The header row of `sources.csv`, as column names.
    public static var sourcesCSVHeader: [String] { sourcesTable.schema.header }

    /// The text of `sources.csv`: one row per type and source, in the order of `result.sources`.
    public func sourcesCSV(_ result: AnalysisResult) -> String {
        Self.sourcesTable.csv(result.sources)
    }
}

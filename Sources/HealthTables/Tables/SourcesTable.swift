import HealthAnalysis
import HealthExport

// `sources.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportTables {
    /// The table `sources.csv`, in order. `raw_total` and `counted_total` are in the row's
    /// `unit` (a canonical unit: `count`, `kcal`, `km`, `min`, …), with 3 decimals.
    public static let sources = ReportTable<SourceContribution>(
        "sources", fileName: "sources.csv",
        columns: [
            .text("type", \.type),
            .text("source", identifying: true, \.sourceName),
            .text("source_class") { $0.sourceClass.rawValue },
            .integer("samples", \.samples),
            .number("raw_total", decimals: 3, \.rawTotal),
            .number("counted_total", decimals: 3, \.countedTotal),
            .text("unit") { $0.unit.rawValue },
        ])
}

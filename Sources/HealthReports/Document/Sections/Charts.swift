import HealthAnalysis
import HealthExport

// The report's charts: each a block of its own (an image beside report.md, inline SVG in
// report.html); each chart's alt text says what it shows.

extension ReportSections {
    /// The chart named `fileName` as a block, or nil when it has no data.
    func chart(_ fileName: String) -> Block? {
        charts.first(where: { $0.fileName == fileName }).map(Block.chart)
    }

    /// Adds the chart named `fileName`, when it has data.
    mutating func addChart(_ fileName: String) {
        if let block = chart(fileName) { add(block) }
    }

    mutating func trendCharts() {
        let names = ["chart_steps.svg", "chart_rings.svg", "chart_heart.svg"]
        let shown = names.compactMap(chart)
        guard !shown.isEmpty else { return }
        heading("Charts")
        for block in shown { add(block) }
    }
}

import HealthAnalysis
import HealthExport

// report.md: the charts, as images beside report.md linked by relative paths (GitHub renders
// them); each image's alt text says what it shows.

extension MarkdownReport {
    /// `![alt](file)` for the chart named `fileName`, or nothing when it has no data.
    func chart(_ fileName: String) -> String {
        guard let c = charts.first(where: { $0.fileName == fileName }) else { return "" }
        let alt = c.altText.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
        return "![\(alt)](\(c.fileName))\n\n"
    }

    mutating func trendCharts() {
        let names = ["chart_steps.svg", "chart_rings.svg", "chart_heart.svg"]
        let shown = names.map(chart).filter { !$0.isEmpty }
        guard !shown.isEmpty else { return }
        text += "## Trends\n\n"
        text += shown.joined()
    }
}

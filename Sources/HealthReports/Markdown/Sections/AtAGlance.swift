import HealthAnalysis
import HealthExport

// report.md: Per-day means over the reported days.

extension MarkdownReport {
    mutating func atAGlance() {
        text += "## At a glance\n\n"
        guard !result.days.isEmpty else {
            text += "No days with data.\n\n"
            return
        }
        // Decimals of the mean and of the lowest and highest day.
        let metrics: [(name: String, mean: Int, extremes: Int, value: (DailyMetrics) -> Double?)] = [
            ("Steps", 0, 0, { $0.steps }),
            ("Distance (km)", 2, 2, { $0.distanceKm }),
            ("Flights climbed", 0, 0, { $0.flightsClimbed }),
            ("Active energy (kcal)", 0, 0, { $0.activeEnergyKcal }),
            ("Move, Apple Watch (kcal)", 0, 0, { $0.moveKcal }),
            ("Exercise (min)", 0, 0, { $0.exerciseMinutes }),
            ("Stand hours", 1, 0, { $0.standHours.map(Double.init) }),
            ("Resting heart rate (bpm)", 1, 1, { $0.restingHeartRateBpm }),
        ]
        var rows: [[String]] = []
        for metric in metrics {
            let values = result.days.compactMap(metric.value).filter(\.isFinite)
            if values.isEmpty {
                rows.append([metric.name, "0", none, none, none])
            } else {
                let mean = values.reduce(0, +) / Double(values.count)
                rows.append([
                    metric.name, grouped(values.count), number(mean, metric.mean),
                    number(values.min()!, metric.extremes), number(values.max()!, metric.extremes),
                ])
            }
        }
        text += Markdown.table(
            ["Metric", "Days with data", "Mean per day", "Lowest day", "Highest day"],
            [.left, .right, .right, .right, .right], rows)
        text += "\nMeans are over the days with data for each metric; days without data are not zeros.\n\n"
    }
}

import HealthAnalysis
import HealthExport

// `sleep.csv`: one row per night (filed under the wake-up date) and one per day with naps
// (docs/sleep-and-workouts.md §2). Stage columns are empty where the source records no stages.

extension ReportWriter {
    /// The table `sleep.csv`, in order.
    static let sleepTable = ReportTable<SleepNight>(
        "sleep", file: .sleep,
        columns: [
            .date("night") { $0.night },
            .text("kind") { $0.isNap ? "nap" : "night" },
            .text("source", identifying: true) { $0.source },
            .timestamp("bedtime") { $0.bedtime },
            .timestamp("wake_time") { $0.wakeTime },
            .number("asleep_min", decimals: 1) { $0.asleepMinutes },
            .number("core_min", decimals: 1) { $0.coreMinutes },
            .number("deep_min", decimals: 1) { $0.deepMinutes },
            .number("rem_min", decimals: 1) { $0.remMinutes },
            .number("unspecified_min", decimals: 1) { $0.unspecifiedMinutes },
            .number("awake_min", decimals: 1) { $0.awakeMinutes },
            .number("in_bed_min", decimals: 1) { $0.inBedMinutes },
            .integer("sources") { $0.sourceCount },
        ])

    /// The text of `sleep.csv`: one row per night or nap day of `result.sleep`, in time order.
    public func sleepCSV(_ result: AnalysisResult) -> String {
        Self.sleepTable.csv(result.sleep)
    }
}

import HealthAnalysis
import HealthExport

// `sleep.csv`: one row per night (filed under the wake-up date) and one per day with naps
// (reference §3.3). Stage columns are empty where the source records no stages.

extension ReportWriter {
    /// The columns of `sleep.csv`, in order.
    static let sleepColumns: [CSVColumn<SleepNight>] = [
        CSVColumn("night") { .date($0.night) },
        CSVColumn("kind") { .text($0.isNap ? "nap" : "night") },
        CSVColumn("source") { .text($0.source ?? "") },
        CSVColumn("bedtime") { .text($0.bedtime?.description ?? "") },
        CSVColumn("wake_time") { .text($0.wakeTime?.description ?? "") },
        CSVColumn("asleep_min") { .number($0.asleepMinutes, decimals: 1) },
        CSVColumn("core_min") { .number($0.coreMinutes, decimals: 1) },
        CSVColumn("deep_min") { .number($0.deepMinutes, decimals: 1) },
        CSVColumn("rem_min") { .number($0.remMinutes, decimals: 1) },
        CSVColumn("unspecified_min") { .number($0.unspecifiedMinutes, decimals: 1) },
        CSVColumn("awake_min") { .number($0.awakeMinutes, decimals: 1) },
        CSVColumn("in_bed_min") { .number($0.inBedMinutes, decimals: 1) },
        CSVColumn("sources") { .integer($0.sourceCount) },
    ]

    /// The text of `sleep.csv`: one row per night or nap day of `result.sleep`, in time order.
    public func sleepCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.sleepColumns, rows: result.sleep)
    }
}

import HealthAnalysis
import HealthExport

// `sleep.csv`: one row per night (filed under the wake-up date) and one per day with naps
// (docs/sleep-and-workouts.md §2). Stage columns are empty where the source records no stages.

extension ReportTables {
    /// The table `sleep.csv`, in order.
    public static let sleep = ReportTable<SleepNight>(
        "sleep", fileName: "sleep.csv", blank: { SleepNight(night: CivilDate(daysSince1970: 0), isNap: false) },
        columns: [
            .date("night", \.night),
            .init("kind", .text, cell: { .text($0.isNap ? "nap" : "night") }) { row, cell in
                row.isNap = cell == .text("nap")
            },
            .text("source", identifying: true, \.source),
            .timestamp("bedtime", \.bedtime),
            .timestamp("wake_time", \.wakeTime),
            .number("asleep_min", decimals: 1, \.asleepMinutes),
            .number("core_min", decimals: 1, \.coreMinutes),
            .number("deep_min", decimals: 1, \.deepMinutes),
            .number("rem_min", decimals: 1, \.remMinutes),
            .number("unspecified_min", decimals: 1, \.unspecifiedMinutes),
            .number("awake_min", decimals: 1, \.awakeMinutes),
            .number("in_bed_min", decimals: 1, \.inBedMinutes),
            .integer("sources", \.sourceCount),
        ])
}

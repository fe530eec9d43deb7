import HealthAnalysis
import HealthExport

// `weekly.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The columns of `weekly.csv`, in order.
    static let weeklyColumns: [CSVColumn<WeeklyMetrics>] = [
        CSVColumn("week") { .text($0.week) },
        CSVColumn("week_start") { .date($0.weekStart) },
        CSVColumn("days") { .integer($0.days) },
        CSVColumn("partial") { .boolean($0.partial) },
        // Totals.
        CSVColumn("steps") { .number($0.steps, decimals: 0) },
        CSVColumn("distance_km") { .number($0.distanceKm, decimals: 3) },
        CSVColumn("active_energy_kcal") { .number($0.activeEnergyKcal, decimals: 1) },
        CSVColumn("exercise_min") { .number($0.exerciseMinutes, decimals: 1) },
        CSVColumn("stand_hours") { .integer($0.standHours) },
        // Per-day averages (over days with data).
        CSVColumn("steps_per_day") { .number($0.stepsPerDay, decimals: 0) },
        CSVColumn("active_energy_kcal_per_day") { .number($0.activeEnergyKcalPerDay, decimals: 1) },
        CSVColumn("exercise_min_per_day") { .number($0.exerciseMinutesPerDay, decimals: 1) },
        // Ring-closed day counts.
        CSVColumn("move_ring_closed_days") { .integer($0.moveRingClosedDays) },
        CSVColumn("exercise_ring_closed_days") { .integer($0.exerciseRingClosedDays) },
        CSVColumn("stand_ring_closed_days") { .integer($0.standRingClosedDays) },
        CSVColumn("all_rings_closed_days") { .integer($0.allRingsClosedDays) },
        CSVColumn("workouts") { .integer($0.workouts) },
        CSVColumn("workout_min") { .number($0.workoutMinutes, decimals: 1) },
        CSVColumn("resting_heart_rate_avg_bpm") { .number($0.restingHeartRateAvgBpm, decimals: 1) },
        // Change against the previous week, percent.
        CSVColumn("steps_change_pct") { .number($0.stepsChangePercent, decimals: 1) },
        CSVColumn("active_energy_change_pct") { .number($0.activeEnergyChangePercent, decimals: 1) },
        CSVColumn("exercise_change_pct") { .number($0.exerciseChangePercent, decimals: 1) },
        CSVColumn("steps_per_day_rolling_4w") { .number($0.stepsPerDayRolling4Weeks, decimals: 0) },
        // Extras: the Move ring, sleep, workouts by activity, body mass.
        CSVColumn("move_kcal") { .number($0.moveKcal, decimals: 1) },
        CSVColumn("move_kcal_per_day") { .number($0.moveKcalPerDay, decimals: 1) },
        CSVColumn("sleep_min_per_night") { .number($0.sleepMinutesPerNight, decimals: 1) },
        CSVColumn("body_mass_kg") { .number($0.bodyMassKg, decimals: 2) },
        CSVColumn("workouts_by_activity") { .text(activityList($0.workoutsByActivity)) },
    ]

    /// `Running 2; Walking 1`: most first, then by name; empty for none.
    static func activityList(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(
            separator: "; ")
    }

    /// The header row of `weekly.csv`, as column names.
    public static var weeklyCSVHeader: [String] { weeklyColumns.map(\.name) }

    /// The text of `weekly.csv`: one row per week of `result.weeks`, in their order.
    public func weeklyCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.weeklyColumns, rows: result.weeks)
    }
}

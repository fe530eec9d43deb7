import HealthAnalysis
import HealthExport

// `weekly.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The table `weekly.csv`, in order.
    static let weeklyTable = ReportTable<WeeklyMetrics>(
        "weekly", file: .weekly,
        columns: [
            .text("week") { $0.week },
            .date("week_start") { $0.weekStart },
            .integer("days") { $0.days },
            .boolean("partial") { $0.partial },
            // Totals.
            .number("steps", decimals: 0) { $0.steps },
            .number("distance_km", decimals: 3) { $0.distanceKm },
            .number("active_energy_kcal", decimals: 1) { $0.activeEnergyKcal },
            .number("exercise_min", decimals: 1) { $0.exerciseMinutes },
            .integer("stand_hours") { $0.standHours },
            // Per-day averages (over days with data).
            .number("steps_per_day", decimals: 0) { $0.stepsPerDay },
            .number("active_energy_kcal_per_day", decimals: 1) { $0.activeEnergyKcalPerDay },
            .number("exercise_min_per_day", decimals: 1) { $0.exerciseMinutesPerDay },
            // Ring-closed day counts.
            .integer("move_ring_closed_days") { $0.moveRingClosedDays },
            .integer("exercise_ring_closed_days") { $0.exerciseRingClosedDays },
            .integer("stand_ring_closed_days") { $0.standRingClosedDays },
            .integer("all_rings_closed_days") { $0.allRingsClosedDays },
            .integer("workouts") { $0.workouts },
            .number("workout_min", decimals: 1) { $0.workoutMinutes },
            .number("resting_heart_rate_avg_bpm", decimals: 1) { $0.restingHeartRateAvgBpm },
            // Change against the previous week, percent.
            .number("steps_change_pct", decimals: 1) { $0.stepsChangePercent },
            .number("active_energy_change_pct", decimals: 1) { $0.activeEnergyChangePercent },
            .number("exercise_change_pct", decimals: 1) { $0.exerciseChangePercent },
            .number("steps_per_day_rolling_4w", decimals: 0) { $0.stepsPerDayRolling4Weeks },
            // Extras: the Move ring, sleep, workouts by activity, body mass.
            .number("move_kcal", decimals: 1) { $0.moveKcal },
            .number("move_kcal_per_day", decimals: 1) { $0.moveKcalPerDay },
            .number("sleep_min_per_night", decimals: 1) { $0.sleepMinutesPerNight },
            .number("body_mass_kg", decimals: 2) { $0.bodyMassKg },
            .text("workouts_by_activity") { activityList($0.workoutsByActivity) },
        ])

    /// `Running 2; Walking 1`: most first, then by name; empty for none.
    static func activityList(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(
            separator: "; ")
    }

    /// The header row of `weekly.csv`, as column names.
    public static var weeklyCSVHeader: [String] { weeklyTable.schema.header }

    /// The text of `weekly.csv`: one row per week of `result.weeks`, in their order.
    public func weeklyCSV(_ result: AnalysisResult) -> String {
        Self.weeklyTable.csv(result.weeks)
    }
}

import HealthAnalysis
import HealthExport

// `weekly.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportTables {
    /// The table `weekly.csv`, in order.
    public static let weekly = ReportTable<WeeklyMetrics>(
        "weekly", fileName: "weekly.csv",
        columns: [
            .text("week", \.week),
            .date("week_start", \.weekStart),
            .integer("days", \.days),
            .boolean("partial", \.partial),
            // Totals.
            .number("steps", decimals: 0, \.steps),
            .number("distance_km", decimals: 3, \.distanceKm),
            .number("active_energy_kcal", decimals: 1, \.activeEnergyKcal),
            .number("exercise_min", decimals: 1, \.exerciseMinutes),
            .integer("stand_hours", \.standHours),
            // Per-day averages (over days with data).
            .number("steps_per_day", decimals: 0, \.stepsPerDay),
            .number("active_energy_kcal_per_day", decimals: 1, \.activeEnergyKcalPerDay),
            .number("exercise_min_per_day", decimals: 1, \.exerciseMinutesPerDay),
            // Ring-closed day counts.
            .integer("move_ring_closed_days", \.moveRingClosedDays),
            .integer("exercise_ring_closed_days", \.exerciseRingClosedDays),
            .integer("stand_ring_closed_days", \.standRingClosedDays),
            .integer("all_rings_closed_days", \.allRingsClosedDays),
            .integer("workouts", \.workouts),
            .number("workout_min", decimals: 1, \.workoutMinutes),
            .number("resting_heart_rate_avg_bpm", decimals: 1, \.restingHeartRateAvgBpm),
            // Change against the previous week, percent.
            .number("steps_change_pct", decimals: 1, \.stepsChangePercent),
            .number("active_energy_change_pct", decimals: 1, \.activeEnergyChangePercent),
            .number("exercise_change_pct", decimals: 1, \.exerciseChangePercent),
            .number("steps_per_day_rolling_4w", decimals: 0, \.stepsPerDayRolling4Weeks),
            // Extras: the Move ring, sleep, workouts by activity, body mass.
            .number("move_kcal", decimals: 1, \.moveKcal),
            .number("move_kcal_per_day", decimals: 1, \.moveKcalPerDay),
            .number("sleep_min_per_night", decimals: 1, \.sleepMinutesPerNight),
            .number("body_mass_kg", decimals: 2, \.bodyMassKg),
            .text("workouts_by_activity") { activityList($0.workoutsByActivity) },
        ])

    /// `Running 2; Walking 1`: most first, then by name; empty for none.
    static func activityList(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(
            separator: "; ")
    }
}

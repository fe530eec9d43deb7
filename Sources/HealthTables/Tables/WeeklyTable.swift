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
            // Then the ring-closed day counts, workouts and the resting heart rate.
        ] + ringAndWorkoutColumns() + [
            // Change against the previous week, percent.
            .number("steps_change_pct", decimals: 1, \.stepsChangePercent),
            .number("active_energy_change_pct", decimals: 1, \.activeEnergyChangePercent),
            .number("exercise_change_pct", decimals: 1, \.exerciseChangePercent),
            .number("steps_per_day_rolling_4w", decimals: 0, \.stepsPerDayRolling4Weeks),
            // Extras: the Move ring, then sleep, body mass and workouts by activity.
            .number("move_kcal", decimals: 1, \.moveKcal),
            .number("move_kcal_per_day", decimals: 1, \.moveKcalPerDay),
        ] + sleepBodyAndActivityColumns())
}

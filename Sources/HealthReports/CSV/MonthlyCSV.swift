import HealthAnalysis
import HealthExport

// `monthly.csv`: one row per calendar month of the report window, the weekly measures per month.

extension ReportWriter {
    /// The columns of `monthly.csv`, in order.
    static let monthlyColumns: [CSVColumn<MonthlyMetrics>] = [
        CSVColumn("month") { .text($0.month) },
        CSVColumn("days") { .integer($0.days) },
        CSVColumn("partial") { .boolean($0.partial) },
        CSVColumn("steps") { .number($0.steps, decimals: 0) },
        CSVColumn("steps_per_day") { .number($0.stepsPerDay, decimals: 0) },
        CSVColumn("distance_km") { .number($0.distanceKm, decimals: 3) },
        CSVColumn("active_energy_kcal_per_day") { .number($0.activeEnergyKcalPerDay, decimals: 1) },
        CSVColumn("move_kcal_per_day") { .number($0.moveKcalPerDay, decimals: 1) },
        CSVColumn("exercise_min_per_day") { .number($0.exerciseMinutesPerDay, decimals: 1) },
        CSVColumn("stand_hours_per_day") { .number($0.standHoursPerDay, decimals: 1) },
        CSVColumn("move_ring_closed_days") { .integer($0.moveRingClosedDays) },
        CSVColumn("exercise_ring_closed_days") { .integer($0.exerciseRingClosedDays) },
        CSVColumn("stand_ring_closed_days") { .integer($0.standRingClosedDays) },
        CSVColumn("all_rings_closed_days") { .integer($0.allRingsClosedDays) },
        CSVColumn("workouts") { .integer($0.workouts) },
        CSVColumn("workout_min") { .number($0.workoutMinutes, decimals: 1) },
        CSVColumn("resting_heart_rate_avg_bpm") { .number($0.restingHeartRateAvgBpm, decimals: 1) },
        CSVColumn("hrv_sdnn_avg_ms") { .number($0.hrvSdnnAvgMs, decimals: 1) },
        CSVColumn("sleep_min_per_night") { .number($0.sleepMinutesPerNight, decimals: 1) },
        CSVColumn("body_mass_kg") { .number($0.bodyMassKg, decimals: 2) },
        CSVColumn("workouts_by_activity") { .text(activityList($0.workoutsByActivity)) },
    ]

    /// The text of `monthly.csv`: one row per month of `result.months`, in order.
    public func monthlyCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.monthlyColumns, rows: result.months)
    }
}

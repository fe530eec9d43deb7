import HealthAnalysis
import HealthExport

// `monthly.csv`: one row per calendar month of the report window, the weekly measures per month.

extension ReportWriter {
    /// The table `monthly.csv`, in order.
    static let monthlyTable = ReportTable<MonthlyMetrics>(
        "monthly", file: .monthly,
        columns: [
            .text("month") { $0.month },
            .integer("days") { $0.days },
            .boolean("partial") { $0.partial },
            .number("steps", decimals: 0) { $0.steps },
            .number("steps_per_day", decimals: 0) { $0.stepsPerDay },
            .number("distance_km", decimals: 3) { $0.distanceKm },
            .number("active_energy_kcal_per_day", decimals: 1) { $0.activeEnergyKcalPerDay },
            .number("move_kcal_per_day", decimals: 1) { $0.moveKcalPerDay },
            .number("exercise_min_per_day", decimals: 1) { $0.exerciseMinutesPerDay },
            .number("stand_hours_per_day", decimals: 1) { $0.standHoursPerDay },
            .integer("move_ring_closed_days") { $0.moveRingClosedDays },
            .integer("exercise_ring_closed_days") { $0.exerciseRingClosedDays },
            .integer("stand_ring_closed_days") { $0.standRingClosedDays },
            .integer("all_rings_closed_days") { $0.allRingsClosedDays },
            .integer("workouts") { $0.workouts },
            .number("workout_min", decimals: 1) { $0.workoutMinutes },
            .number("resting_heart_rate_avg_bpm", decimals: 1) { $0.restingHeartRateAvgBpm },
            .number("hrv_sdnn_avg_ms", decimals: 1) { $0.hrvSdnnAvgMs },
            .number("sleep_min_per_night", decimals: 1) { $0.sleepMinutesPerNight },
            .number("body_mass_kg", decimals: 2) { $0.bodyMassKg },
            .text("workouts_by_activity") { activityList($0.workoutsByActivity) },
            // Appended: the day means of the vitals, over the days with a value.
            .number("vo2_max_ml_min_kg", decimals: 2) { $0.vo2MaxMlPerMinKg },
            .number("blood_oxygen_pct", decimals: 1) { $0.oxygenSaturationPercent },
            .number("respiratory_rate_per_min", decimals: 1) { $0.respiratoryRateBreathsPerMin },
            .number("wrist_temperature_c", decimals: 2) { $0.wristTemperatureC },
            .number("blood_pressure_systolic_mmhg", decimals: 0) { $0.bloodPressureSystolicMmHg },
            .number("blood_pressure_diastolic_mmhg", decimals: 0) { $0.bloodPressureDiastolicMmHg },
        ])

    /// The text of `monthly.csv`: one row per month of `result.months`, in order.
    public func monthlyCSV(_ result: AnalysisResult) -> String {
        Self.monthlyTable.csv(result.months)
    }
}

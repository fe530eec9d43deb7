import HealthAnalysis
import HealthExport

// `daily.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The table `daily.csv`, in order. The first 19 are the documented contract; the
    /// ones after `summary_stand_hours` are appended extras.
    static let dailyTable = ReportTable<DailyMetrics>(
        "daily", file: .daily,
        columns: [
            .date("date") { $0.date },
            .number("steps", decimals: 0) { $0.steps },
            .number("distance_km", decimals: 3) { $0.distanceKm },
            .number("flights_climbed", decimals: 0) { $0.flightsClimbed },
            .number("active_energy_kcal", decimals: 1) { $0.activeEnergyKcal },
            .number("move_kcal", decimals: 1) { $0.moveKcal },
            .number("move_goal_kcal", decimals: 1) { $0.moveGoalKcal },
            .number("exercise_min", decimals: 1) { $0.exerciseMinutes },
            .number("exercise_goal_min", decimals: 1) { $0.exerciseGoalMinutes },
            .integer("stand_hours") { $0.standHours },
            .number("stand_goal_hours", decimals: 1) { $0.standGoalHours },
            .integer("rings_closed") { $0.ringsClosed },
            .number("resting_heart_rate_bpm", decimals: 1) { $0.restingHeartRateBpm },
            .number("heart_rate_avg_bpm", decimals: 1) { $0.heartRateAvgBpm },
            .integer("workouts") { $0.workouts },
            .number("workout_min", decimals: 1) { $0.workoutMinutes },
            .number("summary_move_kcal", decimals: 1) { $0.summaryMoveKcal },
            .number("summary_exercise_min", decimals: 1) { $0.summaryExerciseMinutes },
            .number("summary_stand_hours", decimals: 1) { $0.summaryStandHours },
            // Extras.
            .number("move_min", decimals: 1) { $0.moveMinutes },
            .number("move_goal_min", decimals: 1) { $0.moveGoalMinutes },
            .number("heart_rate_min_bpm", decimals: 1) { $0.heartRateMinBpm },
            .number("heart_rate_max_bpm", decimals: 1) { $0.heartRateMaxBpm },
            .number("summary_move_min", decimals: 1) { $0.summaryMoveMinutes },
            .number("basal_energy_kcal", decimals: 1) { $0.basalEnergyKcal },
            .number("walking_heart_rate_avg_bpm", decimals: 1) { $0.walkingHeartRateAvgBpm },
            .number("vo2_max_ml_min_kg", decimals: 2) { $0.vo2MaxMlPerMinKg },
            .number("body_mass_kg", decimals: 2) { $0.bodyMassKg },
            .number("hrv_sdnn_ms", decimals: 1) { $0.hrvSdnnMs },
            .number("respiratory_rate_per_min", decimals: 1) { $0.respiratoryRateBreathsPerMin },
            .number("blood_oxygen_pct", decimals: 1) { $0.oxygenSaturationPercent },
            .number("wrist_temperature_c", decimals: 2) { $0.wristTemperatureC },
            .number("blood_pressure_systolic_mmhg", decimals: 0) { $0.bloodPressureSystolicMmHg },
            .number("blood_pressure_diastolic_mmhg", decimals: 0) { $0.bloodPressureDiastolicMmHg },
            .number("sleep_min", decimals: 1) { $0.sleepMinutes },
            .text("time_zone") { $0.timeZone },
        ])

    /// The header row of `daily.csv`, as column names.
    public static var dailyCSVHeader: [String] { dailyTable.schema.header }

    /// The text of `daily.csv`: one row per day of `result.days`, in their order.
    public func dailyCSV(_ result: AnalysisResult) -> String {
        Self.dailyTable.csv(result.days)
    }
}

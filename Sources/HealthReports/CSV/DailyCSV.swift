import HealthAnalysis
import HealthExport

// `daily.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportWriter {
    /// The columns of `daily.csv`, in order. The first 19 are the documented contract; the
    /// ones after `summary_stand_hours` are appended extras.
    static let dailyColumns: [CSVColumn<DailyMetrics>] = [
        CSVColumn("date") { .date($0.date) },
        CSVColumn("steps") { .number($0.steps, decimals: 0) },
        CSVColumn("distance_km") { .number($0.distanceKm, decimals: 3) },
        CSVColumn("flights_climbed") { .number($0.flightsClimbed, decimals: 0) },
        CSVColumn("active_energy_kcal") { .number($0.activeEnergyKcal, decimals: 1) },
        CSVColumn("move_kcal") { .number($0.moveKcal, decimals: 1) },
        CSVColumn("move_goal_kcal") { .number($0.moveGoalKcal, decimals: 1) },
        CSVColumn("exercise_min") { .number($0.exerciseMinutes, decimals: 1) },
        CSVColumn("exercise_goal_min") { .number($0.exerciseGoalMinutes, decimals: 1) },
        CSVColumn("stand_hours") { .integer($0.standHours) },
        CSVColumn("stand_goal_hours") { .number($0.standGoalHours, decimals: 1) },
        CSVColumn("rings_closed") { .integer($0.ringsClosed) },
        CSVColumn("resting_heart_rate_bpm") { .number($0.restingHeartRateBpm, decimals: 1) },
        CSVColumn("heart_rate_avg_bpm") { .number($0.heartRateAvgBpm, decimals: 1) },
        CSVColumn("workouts") { .integer($0.workouts) },
        CSVColumn("workout_min") { .number($0.workoutMinutes, decimals: 1) },
        CSVColumn("summary_move_kcal") { .number($0.summaryMoveKcal, decimals: 1) },
        CSVColumn("summary_exercise_min") { .number($0.summaryExerciseMinutes, decimals: 1) },
        CSVColumn("summary_stand_hours") { .number($0.summaryStandHours, decimals: 1) },
        // Extras.
        CSVColumn("move_min") { .number($0.moveMinutes, decimals: 1) },
        CSVColumn("move_goal_min") { .number($0.moveGoalMinutes, decimals: 1) },
        CSVColumn("heart_rate_min_bpm") { .number($0.heartRateMinBpm, decimals: 1) },
        CSVColumn("heart_rate_max_bpm") { .number($0.heartRateMaxBpm, decimals: 1) },
        CSVColumn("summary_move_min") { .number($0.summaryMoveMinutes, decimals: 1) },
        CSVColumn("basal_energy_kcal") { .number($0.basalEnergyKcal, decimals: 1) },
        CSVColumn("walking_heart_rate_avg_bpm") { .number($0.walkingHeartRateAvgBpm, decimals: 1) },
        CSVColumn("vo2_max_ml_min_kg") { .number($0.vo2MaxMlPerMinKg, decimals: 2) },
        CSVColumn("body_mass_kg") { .number($0.bodyMassKg, decimals: 2) },
        CSVColumn("hrv_sdnn_ms") { .number($0.hrvSdnnMs, decimals: 1) },
        CSVColumn("respiratory_rate_per_min") { .number($0.respiratoryRateBreathsPerMin, decimals: 1) },
        CSVColumn("blood_oxygen_pct") { .number($0.oxygenSaturationPercent, decimals: 1) },
        CSVColumn("wrist_temperature_c") { .number($0.wristTemperatureC, decimals: 2) },
        CSVColumn("blood_pressure_systolic_mmhg") { .number($0.bloodPressureSystolicMmHg, decimals: 0) },
        CSVColumn("blood_pressure_diastolic_mmhg") { .number($0.bloodPressureDiastolicMmHg, decimals: 0) },
        CSVColumn("sleep_min") { .number($0.sleepMinutes, decimals: 1) },
        CSVColumn("time_zone") { .text($0.timeZone ?? "") },
    ]

    /// The header row of `daily.csv`, as column names.
    public static var dailyCSVHeader: [String] { dailyColumns.map(\.name) }

    /// The text of `daily.csv`: one row per day of `result.days`, in their order.
    public func dailyCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.dailyColumns, rows: result.days)
    }
}

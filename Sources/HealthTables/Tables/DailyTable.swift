import HealthAnalysis
import HealthExport

// `daily.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportTables {
    /// The table `daily.csv`, in order. The first 19 are the documented contract; the
    /// ones after `summary_stand_hours` are appended extras.
    public static let daily = ReportTable<DailyMetrics>(
        "daily", fileName: "daily.csv", blank: { DailyMetrics(date: CivilDate(daysSince1970: 0)) },
        columns: [
            .date("date", \.date),
            .number("steps", decimals: 0, \.steps),
            .number("distance_km", decimals: 3, \.distanceKm),
            .number("flights_climbed", decimals: 0, \.flightsClimbed),
            .number("active_energy_kcal", decimals: 1, \.activeEnergyKcal),
            .number("move_kcal", decimals: 1, \.moveKcal),
            .number("move_goal_kcal", decimals: 1, \.moveGoalKcal),
            .number("exercise_min", decimals: 1, \.exerciseMinutes),
            .number("exercise_goal_min", decimals: 1, \.exerciseGoalMinutes),
            .integer("stand_hours", \.standHours),
            .number("stand_goal_hours", decimals: 1, \.standGoalHours),
            .integer("rings_closed", \.ringsClosed),
            .number("resting_heart_rate_bpm", decimals: 1, \.restingHeartRateBpm),
            .number("heart_rate_avg_bpm", decimals: 1, \.heartRateAvgBpm),
            .integer("workouts", \.workouts),
            .number("workout_min", decimals: 1, \.workoutMinutes),
            .number("summary_move_kcal", decimals: 1, \.summaryMoveKcal),
            .number("summary_exercise_min", decimals: 1, \.summaryExerciseMinutes),
            .number("summary_stand_hours", decimals: 1, \.summaryStandHours),
            // Extras.
            .number("move_min", decimals: 1, \.moveMinutes),
            .number("move_goal_min", decimals: 1, \.moveGoalMinutes),
            .number("heart_rate_min_bpm", decimals: 1, \.heartRateMinBpm),
            .number("heart_rate_max_bpm", decimals: 1, \.heartRateMaxBpm),
            .number("summary_move_min", decimals: 1, \.summaryMoveMinutes),
            .number("basal_energy_kcal", decimals: 1, \.basalEnergyKcal),
            .number("walking_heart_rate_avg_bpm", decimals: 1, \.walkingHeartRateAvgBpm),
            .number("vo2_max_ml_min_kg", decimals: 2, \.vo2MaxMlPerMinKg),
            .number("body_mass_kg", decimals: 2, \.bodyMassKg),
            .number("hrv_sdnn_ms", decimals: 1, \.hrvSdnnMs),
            .number("respiratory_rate_per_min", decimals: 1, \.respiratoryRateBreathsPerMin),
            .number("blood_oxygen_pct", decimals: 1, \.oxygenSaturationPercent),
            .number("wrist_temperature_c", decimals: 2, \.wristTemperatureC),
            .number("blood_pressure_systolic_mmhg", decimals: 0, \.bloodPressureSystolicMmHg),
            .number("blood_pressure_diastolic_mmhg", decimals: 0, \.bloodPressureDiastolicMmHg),
            .number("sleep_min", decimals: 1, \.sleepMinutes),
            .text("time_zone", \.timeZone),
        ])
}

extension ReportTables {
    /// The columns of `daily` that say which day and zone a row is, not what was measured.
    static let dailyContextColumns: Set<String> = ["date", "time_zone"]

    /// The columns of `daily` that every row fills, 0 on a day without workouts: a day has data
    /// through them only when it has a counted workout.
    static let dailyCountColumns: Set<String> = ["workouts", "workout_min"]

    /// How many of `days` have any measured value (docs/weeks.md §2 and §8): a cell of
    /// `daily.csv` other than the date and the zone, or a counted workout (what a batch's
    /// status record, `cohort/people.csv`, the terminal, report.md and `--summary` call days with
    /// data). An empty row kept inside a short run without data (docs/weeks.md §6) has none.
    ///
    /// - Complexity: O(days × columns).
    public static func daysWithData(_ days: [DailyMetrics]) -> Int {
        let measured = daily.columns.filter {
            !dailyContextColumns.contains($0.name) && !dailyCountColumns.contains($0.name)
        }
        return days.filter { day in day.workouts > 0 || measured.contains { $0.cell(day) != .null } }.count
    }
}

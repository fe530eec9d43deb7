import HealthAnalysis
import HealthExport

// `monthly.csv`: one row per calendar month of the report window, the weekly measures per month.

extension ReportTables {
    /// The table `monthly.csv`, in order.
    public static let monthly = ReportTable<MonthlyMetrics>(
        "monthly", fileName: "monthly.csv",
        columns: [
            .text("month", \.month),
            .integer("days", \.days),
            .boolean("partial", \.partial),
            .number("steps", decimals: 0, \.steps),
            .number("steps_per_day", decimals: 0, \.stepsPerDay),
            .number("distance_km", decimals: 3, \.distanceKm),
            .number("active_energy_kcal_per_day", decimals: 1, \.activeEnergyKcalPerDay),
            .number("move_kcal_per_day", decimals: 1, \.moveKcalPerDay),
            .number("exercise_min_per_day", decimals: 1, \.exerciseMinutesPerDay),
            .number("stand_hours_per_day", decimals: 1, \.standHoursPerDay),
        ] + ringAndWorkoutColumns() + [
            .number("hrv_sdnn_avg_ms", decimals: 1, \.hrvSdnnAvgMs)
        ] + sleepBodyAndActivityColumns() + [
            // Appended: the day means of the vitals, over the days with a value.
            .number("vo2_max_ml_min_kg", decimals: 2, \.vo2MaxMlPerMinKg),
            .number("blood_oxygen_pct", decimals: 1, \.oxygenSaturationPercent),
            .number("respiratory_rate_per_min", decimals: 1, \.respiratoryRateBreathsPerMin),
            .number("wrist_temperature_c", decimals: 2, \.wristTemperatureC),
            .number("blood_pressure_systolic_mmhg", decimals: 0, \.bloodPressureSystolicMmHg),
            .number("blood_pressure_diastolic_mmhg", decimals: 0, \.bloodPressureDiastolicMmHg),
        ])
}

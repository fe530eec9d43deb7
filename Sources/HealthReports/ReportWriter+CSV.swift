import HealthAnalysis
import HealthExport

// The four CSV files. Each file's header and rows come from one column list, so a header can
// never drift from its values. Decimals per column are the `decimals:` arguments below (trailing
// zeros trimmed): counts 0, km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

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
    ]

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
    ]

    /// The columns of `stand_hours.csv`, in order.
    static let standHourColumns: [CSVColumn<StandHour>] = [
        CSVColumn("date") { .date($0.date) },
        CSVColumn("hour") { .integer($0.hour) },
        CSVColumn("stood") { .boolean($0.stood) },
    ]

    /// The columns of `sources.csv`, in order. `raw_total` and `counted_total` are in the row's
    /// `unit` (a canonical unit: `count`, `kcal`, `km`, `min`, …), with 3 decimals.
    static let sourceColumns: [CSVColumn<SourceContribution>] = [
        CSVColumn("type") { .text($0.type) },
        CSVColumn("source") { .text($0.sourceName) },
        CSVColumn("source_class") { .text($0.sourceClass.rawValue) },
        CSVColumn("samples") { .integer($0.samples) },
        CSVColumn("raw_total") { .number($0.rawTotal, decimals: 3) },
        CSVColumn("counted_total") { .number($0.countedTotal, decimals: 3) },
        CSVColumn("unit") { .text($0.unit.rawValue) },
    ]

    /// The header row of `daily.csv`, as column names.
    public static var dailyCSVHeader: [String] { dailyColumns.map(\.name) }
    /// The header row of `weekly.csv`, as column names.
    public static var weeklyCSVHeader: [String] { weeklyColumns.map(\.name) }
    /// The header row of `stand_hours.csv`, as column names.
    public static var standHoursCSVHeader: [String] { standHourColumns.map(\.name) }
    /// The header row of `sources.csv`, as column names.
    public static var sourcesCSVHeader: [String] { sourceColumns.map(\.name) }

    /// The text of `daily.csv`: one row per day of `result.days`, in their order.
    public func dailyCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.dailyColumns, rows: result.days)
    }

    /// The text of `weekly.csv`: one row per week of `result.weeks`, in their order.
    public func weeklyCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.weeklyColumns, rows: result.weeks)
    }

    /// The text of `stand_hours.csv`: one row per local hour with a stand-hour record.
    public func standHoursCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.standHourColumns, rows: result.standHours)
    }

    /// The text of `sources.csv`: one row per type and source, in the order of `result.sources`.
    public func sourcesCSV(_ result: AnalysisResult) -> String {
        CSV.table(Self.sourceColumns, rows: result.sources)
    }
}

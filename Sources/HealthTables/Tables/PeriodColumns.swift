import HealthAnalysis

// The columns `weekly.csv` and `monthly.csv` share: the same names, decimals and meaning
// (`PeriodMeasures`, docs/weeks.md §2), declared once.

extension ReportTables {
    /// Ring-closed day counts, workouts and the resting heart rate, in this order.
    static func ringAndWorkoutColumns<Row: PeriodMeasures>() -> [ReportColumn<Row>] {
        [
            .integer("move_ring_closed_days", \.moveRingClosedDays),
            .integer("exercise_ring_closed_days", \.exerciseRingClosedDays),
            .integer("stand_ring_closed_days", \.standRingClosedDays),
            .integer("all_rings_closed_days", \.allRingsClosedDays),
            .integer("workouts", \.workouts),
            .number("workout_min", decimals: 1, \.workoutMinutes),
            .number("resting_heart_rate_avg_bpm", decimals: 1, \.restingHeartRateAvgBpm),
        ]
    }

    /// Sleep per night, body mass and the workouts by activity, in this order.
    static func sleepBodyAndActivityColumns<Row: PeriodMeasures>() -> [ReportColumn<Row>] {
        [
            .number("sleep_min_per_night", decimals: 1, \.sleepMinutesPerNight),
            .number("body_mass_kg", decimals: 2, \.bodyMassKg),
            .text("workouts_by_activity") { activityList($0.workoutsByActivity) },
        ]
    }

    /// `Running 2; Walking 1`: most first, then by name; empty for none.
    static func activityList(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(
            separator: "; ")
    }
}

/// The measures a week (`WeeklyMetrics`) and a calendar month (`MonthlyMetrics`) both have, with
/// the same meaning (docs/weeks.md §2): the tables declare their columns once for both.
public protocol PeriodMeasures {
    /// Days of the period on which the Move, Exercise, Stand or all three rings closed.
    var moveRingClosedDays: Int { get set }
    var exerciseRingClosedDays: Int { get set }
    var standRingClosedDays: Int { get set }
    var allRingsClosedDays: Int { get set }
    /// Workouts counted once, and their summed duration in minutes.
    var workouts: Int { get set }
    var workoutMinutes: Double { get set }
    /// Workouts counted once (duplicates left out), by readable activity name.
    var workoutsByActivity: [String: Int] { get set }
    /// The mean resting heart rate, bpm.
    var restingHeartRateAvgBpm: Double? { get set }
    /// Mean asleep minutes per night over the nights that end in the period.
    var sleepMinutesPerNight: Double? { get set }
    /// Mean body mass over the days with a value, kg.
    var bodyMassKg: Double? { get set }
}

extension WeeklyMetrics: PeriodMeasures {}
extension MonthlyMetrics: PeriodMeasures {}

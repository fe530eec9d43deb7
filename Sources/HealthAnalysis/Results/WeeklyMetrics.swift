import HealthExport

/// One week (a row of `weekly.csv`).
public struct WeeklyMetrics: Hashable, Sendable {
    /// `2025-W01` for ISO weeks, `week of 2025-01-05` for Sunday weeks.
    public var week: String
    public var weekStart: CivilDate
    /// Days of the week that have any data.
    public var days: Int
    /// True when the week is not fully inside [first data day, day before the export's local day].
    public var partial: Bool
    public var steps: Double?
    public var stepsPerDay: Double?
    public var distanceKm: Double?
    public var activeEnergyKcal: Double?
    public var activeEnergyKcalPerDay: Double?
    public var exerciseMinutes: Double?
    public var exerciseMinutesPerDay: Double?
    public var standHours: Int?
    public var moveRingClosedDays: Int
    public var exerciseRingClosedDays: Int
    public var standRingClosedDays: Int
    public var allRingsClosedDays: Int
    public var workouts: Int
    public var workoutMinutes: Double
    public var restingHeartRateAvgBpm: Double?
    /// Change against the previous week in percent; nil when either week is partial or the
    /// previous value is 0 (reference §6.4). Computed from the per-day averages (days with
    /// data), and also nil when either week has fewer than 4 days with data for the metric.
    public var stepsChangePercent: Double?
    public var activeEnergyChangePercent: Double?
    public var exerciseChangePercent: Double?
    /// Mean steps per day over this and the three previous weeks (days with data only); nil
    /// when the series has fewer than three weeks before this one or fewer than 14 of the 28
    /// days have step data.
    public var stepsPerDayRolling4Weeks: Double?
    /// The Move ring (Apple Watch active energy): total kcal and per day with data.
    public var moveKcal: Double?
    public var moveKcalPerDay: Double?
    /// Mean asleep minutes per night over the nights that end in the week.
    public var sleepMinutesPerNight: Double?
    /// Mean body mass over the days with a value, kg.
    public var bodyMassKg: Double?
    /// Workouts counted once (duplicates left out), by readable activity name.
    public var workoutsByActivity: [String: Int] = [:]

    public init(week: String, weekStart: CivilDate) {
        self.week = week
        self.weekStart = weekStart
        self.days = 0
        self.partial = false
        self.moveRingClosedDays = 0
        self.exerciseRingClosedDays = 0
        self.standRingClosedDays = 0
        self.allRingsClosedDays = 0
        self.workouts = 0
        self.workoutMinutes = 0
    }
}

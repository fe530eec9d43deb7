import HealthExport

/// One calendar month of the report window: the same measures as a week (reference §6.2),
/// over local days.
public struct MonthlyMetrics: Hashable, Sendable {
    /// `2025-10`.
    public var month: String
    /// Days of the month in the report window with any data.
    public var days: Int
    /// True when the window does not cover the whole month.
    public var partial: Bool
    public var steps: Double?
    public var stepsPerDay: Double?
    public var distanceKm: Double?
    public var activeEnergyKcalPerDay: Double?
    public var moveKcalPerDay: Double?
    public var exerciseMinutesPerDay: Double?
    public var standHoursPerDay: Double?
    public var moveRingClosedDays: Int
    public var exerciseRingClosedDays: Int
    public var standRingClosedDays: Int
    public var allRingsClosedDays: Int
    public var workouts: Int
    public var workoutMinutes: Double
    public var workoutsByActivity: [String: Int]
    public var restingHeartRateAvgBpm: Double?
    public var hrvSdnnAvgMs: Double?
    public var sleepMinutesPerNight: Double?
    public var bodyMassKg: Double?
    /// Means over the days with a value (`daily.csv`'s day values), in the units of its columns.
    public var vo2MaxMlPerMinKg: Double?
    public var oxygenSaturationPercent: Double?
    public var respiratoryRateBreathsPerMin: Double?
    public var wristTemperatureC: Double?
    public var bloodPressureSystolicMmHg: Double?
    public var bloodPressureDiastolicMmHg: Double?

    public init(month: String) {
        self.month = month
        self.days = 0
        self.partial = false
        self.moveRingClosedDays = 0
        self.exerciseRingClosedDays = 0
        self.standRingClosedDays = 0
        self.allRingsClosedDays = 0
        self.workouts = 0
        self.workoutMinutes = 0
        self.workoutsByActivity = [:]
    }
}

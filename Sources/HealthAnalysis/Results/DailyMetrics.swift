import HealthExport

/// One local day (a row of `daily.csv`).
public struct DailyMetrics: Hashable, Sendable {
    public var date: CivilDate
    /// The zone the day is a local day of (an IANA identifier, or a fixed offset `UTC+01:00`).
    public var timeZone: String?
    /// Steps, de-duplicated over all sources (priority coverage, reference §5.4).
    public var steps: Double?
    /// Walking + running distance in km, de-duplicated.
    public var distanceKm: Double?
    public var flightsClimbed: Double?
    /// Active energy in kcal, de-duplicated over all sources: the Health app's number.
    public var activeEnergyKcal: Double?
    /// Resting (basal) energy in kcal, de-duplicated over all sources. (Added by HealthAnalysis.)
    public var basalEnergyKcal: Double?
    /// The Move ring's value: active energy from Apple Watch sources only, kcal; on a day
    /// without Watch energy, the iPhone's active energy (the phone-estimated Move ring, iOS 16+).
    public var moveKcal: Double?
    /// Which source model `moveKcal` came from.
    public var moveSource: RingSourceModel?
    public var moveGoalKcal: Double?
    /// Move minutes (Move ring in time mode), when the user's ring is in time mode.
    public var moveMinutes: Double?
    public var moveGoalMinutes: Double?
    /// Exercise minutes from Apple Watch sources (reference §4.3).
    public var exerciseMinutes: Double?
    public var exerciseGoalMinutes: Double?
    /// Local hours in which any Apple Watch recorded `HKCategoryValueAppleStandHourStood`.
    public var standHours: Int?
    public var standGoalHours: Double?
    /// Rings closed (0–3) by the record-derived values against the day's goals; nil without goals.
    public var ringsClosed: Int?
    public var restingHeartRateBpm: Double?
    /// Walking heart rate average, VO2 max (mL/min·kg) and body mass (kg): once-a-day types,
    /// the highest-priority source's latest value of the day (reference §5.6).
    public var walkingHeartRateAvgBpm: Double?
    public var vo2MaxMlPerMinKg: Double?
    public var bodyMassKg: Double?
    /// Mean HRV (SDNN) of the day, ms; mean respiratory rate, breaths/min; mean blood oxygen, %
    /// (all sources, reference §5.6).
    public var hrvSdnnMs: Double?
    public var respiratoryRateBreathsPerMin: Double?
    public var oxygenSaturationPercent: Double?
    /// Sleeping wrist temperature, °C (top source's latest of the day).
    public var wristTemperatureC: Double?
    /// The day's blood-pressure reading from a correlation (top source's latest), mmHg.
    public var bloodPressureSystolicMmHg: Double?
    public var bloodPressureDiastolicMmHg: Double?
    /// Asleep minutes of the night that ends on this day (its wake-up day; naps not included),
    /// from `sleep` (reference §3.3).
    public var sleepMinutes: Double?
    public var heartRateAvgBpm: Double?
    public var heartRateMinBpm: Double?
    public var heartRateMaxBpm: Double?
    /// Workouts that started on this local day, and their summed duration (pauses excluded), min.
    public var workouts: Int
    public var workoutMinutes: Double
    /// The values of this day's `ActivitySummary`, as the Watch reported them.
    public var summaryMoveKcal: Double?
    /// The summary's move minutes (`appleMoveTime`), only when its Move ring is in time mode.
    /// (Added by HealthAnalysis.)
    public var summaryMoveMinutes: Double?
    public var summaryExerciseMinutes: Double?
    public var summaryStandHours: Double?

    public init(date: CivilDate) {
        self.date = date
        self.workouts = 0
        self.workoutMinutes = 0
    }
}

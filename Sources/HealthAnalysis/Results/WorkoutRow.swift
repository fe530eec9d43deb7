import HealthExport

/// One workout of `workouts.csv` (reference §2.5).
public struct WorkoutRow: Hashable, Sendable {
    public var start: LocalTime
    public var end: LocalTime
    /// `HKWorkoutActivityTypeRunning` as written.
    public var activityType: String
    /// The readable name (`Running`, `Functional Strength Training`); an unknown raw name as written.
    public var activity: String
    public var source: String
    /// Active time (`duration`, pauses excluded), minutes.
    public var durationMinutes: Double?
    /// end − start, minutes.
    public var elapsedMinutes: Double
    /// `WorkoutStatistics` first (the sum of its `Distance…` statistics), else `totalDistance`;
    /// nil when neither was measured. A multisport workout's legs are not added again.
    public var distanceKm: Double?
    /// The `ActiveEnergyBurned` statistic, else `totalEnergyBurned`; nil when not measured.
    public var activeEnergyKcal: Double?
    /// The `HeartRate` statistic's average and maximum; nil without one.
    public var heartRateAvgBpm: Double?
    public var heartRateMaxBpm: Double?
    /// `FileReference` paths of its routes (`/workout-routes/route_….gpx`).
    public var routeFiles: [String]
    /// `WorkoutActivity` legs (multisport, intervals).
    public var legs: Int
    /// The same session as a higher-priority source's workout (overlapping by at least half of
    /// the shorter): shown, never counted. `duplicateOf` is that workout's index in the rows.
    public var isDuplicate: Bool
    public var duplicateOf: Int?

    public init(
        start: LocalTime, end: LocalTime, activityType: String, activity: String, source: String,
        elapsedMinutes: Double
    ) {
        self.start = start
        self.end = end
        self.activityType = activityType
        self.activity = activity
        self.source = source
        self.elapsedMinutes = elapsedMinutes
        self.routeFiles = []
        self.legs = 0
        self.isDuplicate = false
    }

    /// `HKWorkoutActivityTypeFunctionalStrengthTraining` → `Functional Strength Training`; a
    /// name without the prefix is kept as written (never dropped).
    public static func readableName(_ type: String) -> String {
        let prefix = "HKWorkoutActivityType"
        guard type.hasPrefix(prefix), type.count > prefix.count else { return type }
        let name = type.dropFirst(prefix.count)
        var out = ""
        var previous: Character?
        for c in name {
            if let p = previous, c.isUppercase, p.isLowercase || p.isNumber { out.append(" ") }
            out.append(c)
            previous = c
        }
        return out
    }
}

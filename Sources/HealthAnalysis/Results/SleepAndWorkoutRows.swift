import HealthExport

/// An instant with the UTC offset of the report's zone at that instant, printed as local time
/// (`2025-10-02T06:31:00+02:00`, ISO 8601).
public struct LocalTime: Hashable, Sendable, CustomStringConvertible {
    public var secondsSince1970: Int64
    /// Seconds east of UTC in the report's zone at the instant (DST included).
    public var utcOffsetSeconds: Int

    public init(secondsSince1970: Int64, utcOffsetSeconds: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public var description: String {
        let local = secondsSince1970 + Int64(utcOffsetSeconds)
        let day = Int(floorDiv(local, 86_400))
        let sod = Int(local - Int64(day) * 86_400)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let o = abs(utcOffsetSeconds)
        return "\(CivilDate(daysSince1970: day))T\(two(sod / 3600)):\(two(sod / 60 % 60)):\(two(sod % 60))"
            + "\(utcOffsetSeconds < 0 ? "-" : "+")\(two(o / 3600)):\(two(o / 60 % 60))"
    }
}

/// One night (or the day's naps) of `sleep.csv`, by the rule of reference §3.3: the samples of
/// the highest-priority source that has asleep samples that night, the union of its asleep
/// intervals; sources are never summed. Minutes are of unions (identical or overlapping rows
/// count once).
public struct SleepNight: Hashable, Sendable {
    /// The local date on which the night ends (the wake-up day); for naps, their day.
    public var night: CivilDate
    /// A daytime nap (asleep from 10:00 and awake by 20:00 local): reported apart.
    public var isNap: Bool
    /// The source whose samples the row shows; nil when no source has asleep samples.
    public var source: String?
    /// The first asleep instant and the last one of that source.
    public var bedtime: LocalTime?
    public var wakeTime: LocalTime?
    public var asleepMinutes: Double?
    /// Stages: nil when the source records none (legacy `Asleep` / `AsleepUnspecified` only).
    public var coreMinutes: Double?
    public var deepMinutes: Double?
    public var remMinutes: Double?
    /// `AsleepUnspecified` (and the legacy `Asleep`, the same value); nil when the source has none.
    public var unspecifiedMinutes: Double?
    /// `Awake` inside the night; nil where the source records no stages and no awake samples.
    public var awakeMinutes: Double?
    /// `InBed` of the highest-priority source with InBed samples (often the iPhone); not sleep.
    public var inBedMinutes: Double?
    /// Sources with sleep samples that night (all but `source` are left out, never added).
    public var sourceCount: Int

    public init(night: CivilDate, isNap: Bool) {
        self.night = night
        self.isNap = isNap
        self.sourceCount = 0
    }
}

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

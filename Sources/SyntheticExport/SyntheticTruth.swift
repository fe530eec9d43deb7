/// The values a synthetic export really contains, known by construction.
///
/// Per-day values are what docs/deduplication.md §4 (priority coverage with time proration; ranks:
/// manual, then Apple Watch, then iPhone, then other apps) gives per LOCAL day of
/// `timeZoneIdentifier` when run over the top-level records of the export.
public struct SyntheticTruth: Sendable, Equatable {
    /// `ExportDate value` exactly as printed, e.g. `2026-04-18 12:00:00 +0200`.
    public var exportDate: String
    public var exportDateSecondsSince1970: Int64
    /// The zone's offset at the export moment, in seconds east of UTC. Every timestamp in the
    /// file is printed with it (docs/export-format.md §9).
    public var exportUTCOffsetSeconds: Int
    public var timeZoneIdentifier: String
    /// The `HealthKit Export Version` of the prolog (14, 12), `nil` without a DOCTYPE.
    public var exportVersion: Int?
    /// One entry per configured local day, in order.
    public var days: [SyntheticDayTruth]
    /// Top-level `Record` elements per `type` (children of `Correlation` not included).
    public var recordCounts: [String: Int]
    /// `Record` elements inside `Correlation` (each duplicates a top-level record).
    public var correlationChildRecordCount: Int
    public var correlationCount: Int
    public var workoutCount: Int
    public var activitySummaryCount: Int
    /// `HeartRateVariabilitySDNN` records, each with a `HeartRateVariabilityMetadataList`.
    public var hrvRecordCount: Int
    public var instantaneousBeatCount: Int
    public var metadataEntryCount: Int
    /// Distinct `sourceName`s written.
    public var sourceNames: [String]
    /// Bytes of XML written.
    public var byteCount: Int64
    /// Per day (as `days`): the time-weighted mean heart rate, docs/deduplication.md §9 (see
    /// `SyntheticExtendedTruth.heartRateWeightCapSeconds`); nil for a day without samples.
    public var heartRateTimeWeightedMeanBpm: [Double?] = []
    /// Sleep nights, naps, workouts, routes and body measures; empty without `extendedHealthData`.
    public var extended = SyntheticExtendedTruth()
    /// The zone of each day of `days` (the person's zone that day; see `SyntheticZoneChange`).
    public var dayTimeZoneIdentifiers: [String] = []

    /// All top-level records.
    public var totalRecordCount: Int { recordCounts.values.reduce(0, +) }
}

/// The true values of one local day (`[local midnight, next local midnight)` in the zone).
///
/// How each value is derived (all by the docs/deduplication.md §4 rule over the records the generator wrote;
/// see `TruthAccumulator`): cumulative types sum, per sample, `value × (seconds of the
/// sample inside the day and not covered by any sample of a higher-ranked source) /
/// duration`; zero-length samples count in full unless a higher rank covers their instant.
/// The data is shaped so that this is exact: the Watch writes a 1-minute sample for every
/// minute of a walk or workout it is worn for, and the iPhone's 5/10-minute samples of
/// those walks lie inside them (fully hidden); the iPhone-only walks (Watch not worn) count in
/// full, and the one that crosses midnight is split with values divisible so both parts are
/// whole numbers of the printed unit.
public struct SyntheticDayTruth: Sendable, Equatable {
    /// Local date `YYYY-MM-DD`.
    public var date: String
    /// The instants of local midnight starting and ending the day.
    public var startSecondsSince1970: Int64
    public var endSecondsSince1970: Int64
    /// Whole hours in the local day: 24, or 23 / 25 on DST change days (rounded down in the
    /// few zones with half-hour changes, such as Australia/Lord_Howe: use the instants there).
    public var hours: Int { Int((endSecondsSince1970 - startSecondsSince1970) / 3600) }

    /// StepCount, de-duplicated over Watch, iPhone and manual entries (always a whole number).
    public var steps: Double
    /// DistanceWalkingRunning in km, de-duplicated (Watch over iPhone over Strava).
    public var distanceKm: Double
    /// FlightsClimbed (iPhone only).
    public var flightsClimbed: Double
    /// ActiveEnergyBurned in kcal de-duplicated over all sources (what Health shows):
    /// the Watch's samples plus Strava samples of walks the Watch was not worn for; Strava
    /// samples during Watch workouts are hidden.
    public var activeEnergyKcal: Double
    /// ActiveEnergyBurned of the Apple Watch only (the Move ring).
    public var moveKcal: Double
    /// BasalEnergyBurned in kcal (Watch only).
    public var basalEnergyKcal: Double
    public var moveGoalKcal: Double
    /// AppleExerciseTime minutes (Watch, 1-minute samples of brisk walks and workouts).
    public var exerciseMinutes: Double
    public var exerciseGoalMinutes: Double
    /// AppleStandHour records with value `…Stood` whose start lies in the day.
    public var standHours: Int
    /// AppleStandHour records (Stood or Idle) in the day: the Watch's worn hours.
    public var standHourRecords: Int
    public var standGoalHours: Int
    /// AppleStandTime minutes (5-minute samples).
    public var standMinutes: Double
    /// The day's one RestingHeartRate value.
    public var restingHeartRateBpm: Double?
    /// Over all HeartRate samples whose instant lies in the day; mean is arithmetic.
    public var heartRateMinBpm: Double?
    public var heartRateMeanBpm: Double?
    public var heartRateMaxBpm: Double?
    public var heartRateSampleCount: Int
    /// HeartRateVariabilitySDNN records starting in the day.
    public var hrvRecords: Int
    /// Workouts starting in the day, and the sum of their `duration` (minutes, pauses excluded).
    public var workouts: Int
    public var workoutMinutes: Double
    /// Sleep of the night that ends (wake-up) on this day, from the Watch's stages
    /// (Core+Deep+REM minutes) and the iPhone's InBed record; `nil` when no night ends here.
    public var asleepMinutes: Double?
    public var inBedMinutes: Double?
    /// Blood-pressure correlations in the day.
    public var bloodPressureReadings: Int
    /// The `ActivitySummary` written for this day.
    public var activitySummary: SyntheticActivitySummary
    /// Records written per type identifier (`HKQuantityTypeIdentifierStepCount`) whose interval
    /// overlaps this day (an instant sample: whose instant lies in it), correlation children
    /// included. A type absent here has no data on this day: its true total of 0 means "no data",
    /// while a 0 with records is a measured 0.
    public var recordsPerType: [String: Int] = [:]

    /// True when at least one record of `typeIdentifier` overlaps this day.
    public func hasRecords(_ typeIdentifier: String) -> Bool { (recordsPerType[typeIdentifier] ?? 0) > 0 }
}

/// The attributes of one written `ActivitySummary`.
public struct SyntheticActivitySummary: Sendable, Equatable {
    public var dateComponents: String
    /// = the day's `moveKcal`, printed with at most 3 decimals (exact).
    public var activeEnergyBurned: Double
    public var activeEnergyBurnedGoal: Double
    /// Always `Cal` (1 Cal = 1 kcal).
    public var activeEnergyBurnedUnit: String
    public var appleMoveTime: Double
    public var appleMoveTimeGoal: Double
    public var appleExerciseTime: Double
    public var appleExerciseTimeGoal: Double
    public var appleStandHours: Int
    public var appleStandHoursGoal: Int
}

extension SyntheticTruth {
    /// The per-day truth as CSV (header + one row per day; empty cell for no value).
    public func csv() -> String {
        var out =
            "date,hours,steps,distance_km,flights_climbed,active_energy_kcal,move_kcal,"
            + "basal_energy_kcal,move_goal_kcal,exercise_min,exercise_goal_min,stand_hours,"
            + "stand_hour_records,stand_goal_hours,stand_min,resting_hr_bpm,hr_min_bpm,"
            + "hr_mean_bpm,hr_max_bpm,hr_samples,hrv_records,workouts,workout_min,asleep_min,"
            + "in_bed_min,blood_pressure_readings\n"
        func f(_ v: Double?) -> String { v.map { formatCSV($0) } ?? "" }
        for d in days {
            let cells: [String] = [
                d.date, String(d.hours), f(d.steps), f(d.distanceKm), f(d.flightsClimbed),
                f(d.activeEnergyKcal), f(d.moveKcal), f(d.basalEnergyKcal), f(d.moveGoalKcal),
                f(d.exerciseMinutes), f(d.exerciseGoalMinutes), String(d.standHours),
                String(d.standHourRecords), String(d.standGoalHours), f(d.standMinutes),
                f(d.restingHeartRateBpm), f(d.heartRateMinBpm), f(d.heartRateMeanBpm),
                f(d.heartRateMaxBpm), String(d.heartRateSampleCount), String(d.hrvRecords),
                String(d.workouts), f(d.workoutMinutes), f(d.asleepMinutes), f(d.inBedMinutes),
                String(d.bloodPressureReadings),
            ]
            out += cells.joined(separator: ",") + "\n"
        }
        return out
    }
}

/// Shortest round-trip text for a double, without a trailing `.0`.
func formatCSV(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}

import HealthExport

// The result of one analysis run: what the reports render. Produced by the analysis pipeline
// (reference §4, §5, §6), consumed by HealthReports. All days are local calendar days in
// `timeZone`; a value with no data is nil (rendered as an empty cell), never 0.

/// How the IANA zone used for day and hour buckets was chosen (reference §2.7).
public enum TimeZoneReason: Hashable, Sendable {
    /// Given with `--tz`.
    case option
    /// The most frequent `HKTimeZone` metadata value in the export (`count` samples carried it).
    case mostFrequentHKTimeZone(count: Int)
    /// No `HKTimeZone`: of the `candidates` IANA zones with the export's printed offset at the
    /// export instant, the one whose days agree best with the `ActivitySummary` rows.
    case activitySummaryAgreement(candidates: Int, agreeingDays: Int, comparedDays: Int)
    /// The machine's `TZ` setting.
    case environment
    /// No zone found: the fixed export-time offset of `ExportDate` (reports carry a warning,
    /// because DST is then ignored).
    case exportOffset
}

/// The zone the buckets use and why.
public struct TimeZoneChoice: Hashable, Sendable {
    /// An IANA identifier (`Europe/Berlin`), or a fixed offset such as `UTC+01:00` for `.exportOffset`.
    public var identifier: String
    public var reason: TimeZoneReason
    public init(identifier: String, reason: TimeZoneReason) {
        self.identifier = identifier
        self.reason = reason
    }
}

/// The class of a source for the default priority order (reference §2.6, §5.4).
public enum SourceClass: String, Hashable, Sendable, Comparable {
    case manual, watch, phone, other
    public static func < (a: SourceClass, b: SourceClass) -> Bool { a.order < b.order }
    var order: Int {
        switch self {
        case .manual: return 0
        case .watch: return 1
        case .phone: return 2
        case .other: return 3
        }
    }
}

/// A source with its rank in the priority order (0 = highest).
public struct RankedSource: Hashable, Sendable {
    public var name: String
    public var sourceClass: SourceClass
    public var rank: Int
    public init(name: String, sourceClass: SourceClass, rank: Int) {
        self.name = name
        self.sourceClass = sourceClass
        self.rank = rank
    }
}

/// Which weeks the weekly trends use (reference §6.1).
public enum WeekStart: String, Hashable, Sendable {
    /// ISO 8601: Monday start, labelled `2025-W01` by week-year and week number.
    case iso8601 = "monday"
    /// US-style: Sunday start, labelled by the first day (`week of 2025-01-05`).
    case sunday
}

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

/// One local hour with a stand-hour record (a row of `stand_hours.csv`).
public struct StandHour: Hashable, Sendable {
    public var date: CivilDate
    /// Local hour of day 0–23 (on the fall-back day the repeated hour appears twice).
    public var hour: Int
    public var stood: Bool
    /// The UTC offset (seconds east) of the hour: it tells the two hours of a fall-back day's
    /// repeated hour apart (`stand_hours.csv` column `utc_offset`).
    public var utcOffsetSeconds: Int
    public init(date: CivilDate, hour: Int, stood: Bool, utcOffsetSeconds: Int = 0) {
        self.date = date
        self.hour = hour
        self.stood = stood
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// What the merge did to one type and source (a row of `sources.csv`).
public struct SourceContribution: Hashable, Sendable {
    public var type: String
    public var sourceName: String
    public var sourceClass: SourceClass
    /// Samples of this type and source that touch the reported days (after exact-duplicate
    /// removal).
    public var samples: Int
    /// Plain sum of the source's samples in the period (prorated by time at its first and last
    /// local midnight).
    public var rawTotal: Double
    /// What the de-duplicated total counted from this source.
    public var countedTotal: Double
    public var unit: CanonicalUnit

    public init(
        type: String, sourceName: String, sourceClass: SourceClass, samples: Int, rawTotal: Double,
        countedTotal: Double, unit: CanonicalUnit
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceClass = sourceClass
        self.samples = samples
        self.rawTotal = rawTotal
        self.countedTotal = countedTotal
        self.unit = unit
    }
}

/// A day where the record-derived ring values and the ActivitySummary disagree beyond the
/// tolerances of reference §4.3 (exercise ±1 min, stand exact, energy ±max(1 kcal, 1 %)).
public struct SummaryDisagreement: Hashable, Sendable {
    public var date: CivilDate
    /// `move_kcal`, `exercise_min` or `stand_hours`; `move_min` for a Move ring in time mode
    /// (tolerance ±1 min, like exercise).
    public var metric: String
    public var recordValue: Double?
    public var summaryValue: Double?

    public init(date: CivilDate, metric: String, recordValue: Double?, summaryValue: Double?) {
        self.date = date
        self.metric = metric
        self.recordValue = recordValue
        self.summaryValue = summaryValue
    }
}

/// The ActivitySummary cross-check (reference §4.3, §4.4).
public struct SummaryCrossCheck: Hashable, Sendable {
    public var daysCompared: Int
    public var daysAgreeing: Int
    public var disagreements: [SummaryDisagreement]
    /// Days with an ActivitySummary but no ring records (no Watch energy, exercise or stand
    /// record): not compared, not disagreements (e.g. days before the Watch was paired).
    public var daysWithoutRingRecords = 0
    public init(daysCompared: Int = 0, daysAgreeing: Int = 0, disagreements: [SummaryDisagreement] = []) {
        self.daysCompared = daysCompared
        self.daysAgreeing = daysAgreeing
        self.disagreements = disagreements
    }
}

/// The longest run of consecutive days with all three rings closed.
public struct RingStreak: Hashable, Sendable {
    public var days: Int
    public var first: CivilDate?
    public var last: CivilDate?

    public init(days: Int = 0, first: CivilDate? = nil, last: CivilDate? = nil) {
        self.days = days
        self.first = first
        self.last = last
    }
}

/// Everything one run computes.
public struct AnalysisResult: Sendable {
    public var timeZone: TimeZoneChoice
    /// The zones of the reported days, period by period, and why (reference §2.7.1).
    public var timeZonePeriods: [TimeZonePeriod] = []
    /// Which source model each ring used, on how many days, and its ActivitySummary agreement.
    public var ringSources: [RingSourceUse] = []
    public var weekStart: WeekStart
    /// False with `--no-dedup` (plain sums).
    public var deduplicated: Bool
    /// The priority order used, highest first. Samples marked `HKWasUserEntered` rank above
    /// every source not named in `--source-order`, whatever their source (reference §5.4).
    public var sourceOrder: [RankedSource]
    /// First and last local day reported: the days with data, limited by `--from`/`--to`, or
    /// the one week of `--week last`. Nil when nothing was reported.
    public var firstDay: CivilDate?
    public var lastDay: CivilDate?
    public var exportDate: Timestamp?
    /// The reported local days, ascending: every day from `firstDay` to `lastDay`, except runs of
    /// more than `longestListedRunWithoutData` (31) days without data, which are left out and
    /// named in `notes` (issue 10). `weeks` and `months` leave out those wholly inside such a run.
    public var days: [DailyMetrics]
    public var weeks: [WeeklyMetrics]
    public var standHours: [StandHour]
    /// For each local hour 0–23: on how many days it was a stand hour, out of days with a
    /// stand-hour record for that hour.
    public var standHourProfile: [(hour: Int, stoodDays: Int, daysWithRecord: Int)]
    public var sources: [SourceContribution]
    public var crossCheck: SummaryCrossCheck
    public var longestAllRingsStreak: RingStreak
    /// Warnings and notes for the report (zone fallbacks, filler sources, dropped samples, …).
    public var notes: [String]
    /// Nights and naps in the report window, in time order (`Domains/Sleep.swift`).
    public var sleep: [SleepNight] = []
    /// Workouts in the report window, by start, duplicates included and marked (`Domains/Workouts.swift`).
    public var workouts: [WorkoutRow] = []
    /// Calendar months of the report window (`Monthly.swift`).
    public var months: [MonthlyMetrics] = []
    /// Set when the export has data but none in the window the options ask for (`--from`/`--to`
    /// outside it, `--week last` without a complete week): nothing is reported then.
    public var emptyWindow: EmptyWindow?

    /// Memberwise; every collection defaults to empty (for renderer tests and fixtures).
    public init(
        timeZone: TimeZoneChoice, weekStart: WeekStart = .iso8601, deduplicated: Bool = true,
        sourceOrder: [RankedSource] = [], firstDay: CivilDate? = nil, lastDay: CivilDate? = nil,
        exportDate: Timestamp? = nil, days: [DailyMetrics] = [], weeks: [WeeklyMetrics] = [],
        standHours: [StandHour] = [],
        standHourProfile: [(hour: Int, stoodDays: Int, daysWithRecord: Int)] = [],
        sources: [SourceContribution] = [], crossCheck: SummaryCrossCheck = SummaryCrossCheck(),
        longestAllRingsStreak: RingStreak = RingStreak(), notes: [String] = []
    ) {
        self.timeZone = timeZone
        self.weekStart = weekStart
        self.deduplicated = deduplicated
        self.sourceOrder = sourceOrder
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.exportDate = exportDate
        self.days = days
        self.weeks = weeks
        self.standHours = standHours
        self.standHourProfile = standHourProfile
        self.sources = sources
        self.crossCheck = crossCheck
        self.longestAllRingsStreak = longestAllRingsStreak
        self.notes = notes
    }
}

/// A window the options ask for that holds none of the export's data days.
public struct EmptyWindow: Hashable, Sendable, CustomStringConvertible {
    /// `--from` and `--to` (nil: the export's first or last day).
    public var from: CivilDate?
    public var to: CivilDate?
    /// True for `--week last` finding no complete week with data.
    public var lastCompleteWeek: Bool
    /// The export's first and last local day with data.
    public var dataFirstDay: CivilDate
    public var dataLastDay: CivilDate

    public init(
        from: CivilDate?, to: CivilDate?, lastCompleteWeek: Bool, dataFirstDay: CivilDate, dataLastDay: CivilDate
    ) {
        self.from = from
        self.to = to
        self.lastCompleteWeek = lastCompleteWeek
        self.dataFirstDay = dataFirstDay
        self.dataLastDay = dataLastDay
    }

    /// `no data between 2030-01-01 and 2030-12-31; the export's data runs from 2025-09-29 to
    /// 2025-12-14` (`the start` / `the end` for a side not given).
    public var description: String {
        let data = "the export's data runs from \(dataFirstDay) to \(dataLastDay)"
        if lastCompleteWeek { return "--week last: no complete week with data; \(data)" }
        return
            "no data between \(from.map(\.description) ?? "the start") and \(to.map(\.description) ?? "the end"); \(data)"
    }
}

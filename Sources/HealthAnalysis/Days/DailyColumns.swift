import HealthExport

/// Which rings a day closed: value ≥ goal and goal > 0 (docs/rings.md §3). The one ring rule:
/// `daily.csv`'s `rings_closed` and the cohort's ring-closure rates both come from it.
public struct RingsClosed: Hashable, Sendable {
    /// False when the day has no ActivitySummary goals: nothing can be closed.
    public var hasGoals = false
    public var move = false
    public var exercise = false
    public var stand = false
    /// Rings closed, 0 to 3.
    public var count: Int { (move ? 1 : 0) + (exercise ? 1 : 0) + (stand ? 1 : 0) }
    public var all: Bool { hasGoals && move && exercise && stand }
    /// True when the day has a ring value to compare with its goals, from records or from its
    /// ActivitySummary: `daily.csv`'s `rings_closed` is `count` on such a day with goals, else empty.
    public var hasRingValue = false

    init() {}

    /// The rings `day` closed, from its row alone (every input is a column of `daily.csv`).
    ///
    /// - The Move ring is in time mode when the day has a Move-minutes goal (`move_goal_min`,
    ///   set only for a summary in time mode): minutes against that goal; else kcal against
    ///   `move_goal_kcal`.
    /// - With any ring value from records (`move_kcal`, `move_min`, `exercise_min`,
    ///   `stand_hours`), the rings are those values against the goals. On a day with its
    ///   summary but no ring records (a summary-only export), the summary's own values
    ///   (`summary_*`) against the goals, as the Activity app showed them.
    /// - A goal of 0 or none closes nothing; a relative 1e-9 slack absorbs the rounding of
    ///   prorated sums (`closes(_:goal:)`).
    public init(_ day: DailyMetrics) {
        let timeMode = day.moveGoalMinutes != nil
        let moveGoal = timeMode ? day.moveGoalMinutes : day.moveGoalKcal
        hasGoals = moveGoal != nil || day.exerciseGoalMinutes != nil || day.standGoalHours != nil
        let anyRecordValue = !Self.usesSummaryValues(day)
        if anyRecordValue {
            move = Self.closes(timeMode ? day.moveMinutes : day.moveKcal, goal: moveGoal)
            exercise = Self.closes(day.exerciseMinutes, goal: day.exerciseGoalMinutes)
            stand = Self.closes(day.standHours.map(Double.init), goal: day.standGoalHours)
        } else {
            move = Self.closes(timeMode ? day.summaryMoveMinutes : day.summaryMoveKcal, goal: moveGoal)
            exercise = Self.closes(day.summaryExerciseMinutes, goal: day.exerciseGoalMinutes)
            stand = Self.closes(day.summaryStandHours, goal: day.standGoalHours)
        }
        // A summary of zeros alone (what the phone writes for a day without the Watch) is no ring
        // value: the count stays empty rather than a misleading 0.
        let anySummaryValue = [
            day.summaryMoveKcal, day.summaryMoveMinutes, day.summaryExerciseMinutes, day.summaryStandHours,
        ].contains { ($0 ?? 0) > 0 }
        hasRingValue = anyRecordValue || anySummaryValue
    }

    /// True when `day` has no ring value from records (`move_kcal`, `move_min`, `exercise_min`,
    /// `stand_hours`), so that its rings are its ActivitySummary's own values (`summary_*`)
    /// against the goals; report.md's "At a glance" lists those values apart.
    public static func usesSummaryValues(_ day: DailyMetrics) -> Bool {
        day.moveKcal == nil && day.moveMinutes == nil && day.exerciseMinutes == nil && day.standHours == nil
    }

    /// `daily.csv`'s `rings_closed`: the count on a day with goals and a ring value, else nil.
    public var countedRings: Int? { hasGoals && hasRingValue ? count : nil }

    /// value ≥ goal and goal > 0; a relative 1e-9 slack absorbs the rounding of prorated sums.
    public static func closes(_ value: Double?, goal: Double?) -> Bool {
        guard let value, let goal, goal > 0 else { return false }
        return value >= goal * (1 - 1e-9)
    }
}

/// The per-day results of `finish`, column by column, before they become `DailyMetrics` rows.
///
/// Every column is sparse: it holds the local days with data only, so its size grows with the
/// data, not with the span of its dates. `dataDays(in:)` names the days any column
/// holds; the rows are then built for the days `KeptDays` keeps.
struct DailyColumns {
    /// One day as the columns give it: its row, the rings it closed, and whether it has any data.
    struct Day {
        var metrics: DailyMetrics
        var rings: RingsClosed
        /// True when any column holds the day or it has an ActivitySummary.
        var hasData: Bool
        /// Apple stand time of the day, minutes (all sources, de-duplicated); not a column of
        /// the row, read by the trends only.
        var standMinutes: Double? = nil
        /// Walking and running speed of the day, km/h (the mean over all sources); like
        /// `standMinutes`, read by the trends only.
        var walkingSpeedKmh: Double? = nil
        var runningSpeedKmh: Double? = nil
    }

    /// De-duplicated over all sources, by fixed cumulative slot (nil: the type has no samples).
    private var all: [SparseSums?]
    /// Apple Watch sources only, by fixed cumulative slot.
    private var watch: [SparseSums?]
    /// iPhone active energy, de-duplicated among iPhone sources: the Move ring on days without
    /// Watch energy.
    private var phoneMove: SparseSums?
    /// Per day number: the plain heart-rate statistics of its 15-minute buckets.
    private var heartRate: [Int: HeartRateDay] = [:]
    /// The time-weighted mean (docs/deduplication.md §9), which replaces the plain mean where set.
    private var hrWeighted: [Int: Double] = [:]
    /// Per `OncePerDayType`, per day number.
    private var oncePerDay: [[Int: Double]]
    /// Per day number with a stand-hour record: the hours stood.
    private var standStood: [Int: Int] = [:]
    /// Per day number with a counted workout: how many, and their minutes.
    private var workouts: [Int: (count: Int, minutes: Double)] = [:]
    /// Per day number: HRV, respiratory rate, blood oxygen, wrist temperature, blood pressure.
    var vitals: [Int: DayVitals] = [:]
    /// Per wake-up day number: asleep minutes of the night (`Sleep`).
    var sleepMinutes: [Int: Double] = [:]

    /// A day's heart-rate buckets, summed.
    private struct HeartRateDay {
        var sumMilli: Int64 = 0
        var count = 0
        var min = Double.infinity
        var max = -Double.infinity
    }

    init() {
        all = Array(repeating: nil, count: CumulativeSlot.fixedCount)
        watch = Array(repeating: nil, count: CumulativeSlot.fixedCount)
        oncePerDay = Array(repeating: [:], count: OncePerDayType.allCases.count)
    }

    /// The days (ascending) in `range` that any column has a value on.
    func dataDays(in range: ClosedRange<Int>) -> [Int] {
        var days = Set<Int>()
        for column in all + watch + [phoneMove] {
            guard let column else { continue }
            let from = column.keys.lowerBound(of: range.lowerBound)
            for d in column.keys[from...] {
                if d > range.upperBound { break }
                days.insert(d)
            }
        }
        let keys =
            Array(heartRate.keys) + Array(hrWeighted.keys) + oncePerDay.flatMap(\.keys) + Array(standStood.keys)
            + Array(workouts.keys) + Array(vitals.keys) + Array(sleepMinutes.keys)
        for d in keys where range.contains(d) { days.insert(d) }
        return days.sorted()
    }

    mutating func setAll(slot: Int, _ acc: MergeAccumulator) {
        guard slot < CumulativeSlot.fixedCount else { return }
        all[slot] = acc.totals
    }

    mutating func setPhoneMove(_ acc: MergeAccumulator) { phoneMove = acc.totals }

    mutating func setWatch(slot: Int, _ acc: MergeAccumulator) {
        guard slot < CumulativeSlot.fixedCount else { return }
        watch[slot] = acc.totals
    }

    mutating func addHeartRate(day: Int, _ b: HeartRateBucket) {
        var d = heartRate[day] ?? HeartRateDay()
        d.sumMilli += b.sumMilli
        d.count += Int(b.count)
        d.min = min(d.min, b.min)
        d.max = max(d.max, b.max)
        heartRate[day] = d
    }

    mutating func setHeartRateTimeWeightedMean(day: Int, _ mean: Double) {
        hrWeighted[day] = mean
    }

    mutating func setOncePerDay(day: Int, _ type: OncePerDayType, _ value: Double) {
        oncePerDay[type.rawValue][day] = value
    }

    mutating func addStandHour(day: Int, stood: Bool) {
        standStood[day, default: 0] += stood ? 1 : 0
    }

    mutating func addWorkout(day: Int, minutes: Double) {
        workouts[day, default: (0, 0)].count += 1
        workouts[day, default: (0, 0)].minutes += minutes
    }

    private func value(_ column: SparseSums?, _ day: Int) -> Double? { column?[day] }

    /// The row of `day`, which rings it closed, and whether it has any data at all.
    func day(_ day: Int, summary: ActivitySummary?) -> Day {
        var m = DailyMetrics(date: CivilDate(daysSince1970: day))
        m.steps = value(all[CumulativeSlot.steps], day)
        m.distanceKm = value(all[CumulativeSlot.distanceWalkingRunning], day)
        m.flightsClimbed = value(all[CumulativeSlot.flightsClimbed], day)
        m.activeEnergyKcal = value(all[CumulativeSlot.activeEnergy], day)
        m.basalEnergyKcal = value(all[CumulativeSlot.basalEnergy], day)
        m.moveKcal = value(watch[CumulativeSlot.activeEnergy], day)
        if m.moveKcal != nil {
            m.moveSource = .appleWatch
        } else if let phone = value(phoneMove, day) {
            m.moveKcal = phone
            m.moveSource = .iPhone
        }
        m.moveMinutes = value(watch[CumulativeSlot.moveTime], day)
        m.exerciseMinutes = value(watch[CumulativeSlot.exerciseTime], day)
        let stood = standStood[day]
        m.standHours = stood
        m.restingHeartRateBpm = oncePerDay[OncePerDayType.restingHeartRate.rawValue][day]
        m.walkingHeartRateAvgBpm = oncePerDay[OncePerDayType.walkingHeartRateAverage.rawValue][day]
        m.vo2MaxMlPerMinKg = oncePerDay[OncePerDayType.vo2Max.rawValue][day]
        m.bodyMassKg = oncePerDay[OncePerDayType.bodyMass.rawValue][day]
        if let hr = heartRate[day], hr.count > 0 {
            m.heartRateAvgBpm = hrWeighted[day] ?? Double(hr.sumMilli) / 1000 / Double(hr.count)
            m.heartRateMinBpm = hr.min
            m.heartRateMaxBpm = hr.max
        }
        if let v = vitals[day] {
            m.hrvSdnnMs = v.hrvMs
            m.respiratoryRateBreathsPerMin = v.respiratoryRate
            m.oxygenSaturationPercent = v.oxygenSaturationPercent
            m.wristTemperatureC = v.wristTemperatureC
            m.bloodPressureSystolicMmHg = v.bloodPressureSystolic
            m.bloodPressureDiastolicMmHg = v.bloodPressureDiastolic
        }
        m.sleepMinutes = sleepMinutes[day]
        m.workouts = workouts[day]?.count ?? 0
        m.workoutMinutes = workouts[day]?.minutes ?? 0
        // The Watch writes exercise minutes only when there are some. On a day it was
        // demonstrably worn (it wrote stand-hour records or Move energy), no exercise sample
        // means 0 minutes, not "no data" (docs/weeks.md §3).
        if m.exerciseMinutes == nil, stood != nil || m.moveSource == .appleWatch { m.exerciseMinutes = 0 }
        if let s = summary {
            m.summaryMoveKcal = s.activeEnergyBurnedKcal
            m.summaryExerciseMinutes = s.appleExerciseTimeMinutes
            m.summaryStandHours = s.appleStandHours
            // A goal of 0 means "not set": an empty cell, and a ring neither closed nor open.
            func goal(_ v: Double?) -> Double? { v.flatMap { $0 > 0 ? $0 : nil } }
            m.moveGoalKcal = goal(s.activeEnergyBurnedGoalKcal)
            m.exerciseGoalMinutes = goal(s.appleExerciseTimeGoalMinutes)
            m.standGoalHours = goal(s.appleStandHoursGoal)
            if s.isMoveTimeMode {
                m.moveGoalMinutes = goal(s.appleMoveTimeGoalMinutes)
                m.summaryMoveMinutes = s.appleMoveTimeMinutes
            }
        }
        // The rings from the row alone (the one rule, which the cohort applies to daily.csv too).
        let rings = summary == nil ? RingsClosed() : RingsClosed(m)
        m.ringsClosed = rings.countedRings
        let hasData =
            m.steps != nil || m.distanceKm != nil || m.flightsClimbed != nil || m.activeEnergyKcal != nil
            || m.basalEnergyKcal != nil || m.moveKcal != nil || m.moveMinutes != nil || m.exerciseMinutes != nil
            || m.standHours != nil || m.restingHeartRateBpm != nil || m.heartRateAvgBpm != nil || m.workouts > 0
            || m.walkingHeartRateAvgBpm != nil || m.vo2MaxMlPerMinKg != nil || m.bodyMassKg != nil
            || m.hrvSdnnMs != nil || m.respiratoryRateBreathsPerMin != nil || m.oxygenSaturationPercent != nil
            || m.wristTemperatureC != nil || m.bloodPressureSystolicMmHg != nil || m.bloodPressureDiastolicMmHg != nil
            || m.sleepMinutes != nil || summary != nil
        return Day(
            metrics: m, rings: rings, hasData: hasData, standMinutes: value(all[CumulativeSlot.standTime], day),
            walkingSpeedKmh: vitals[day]?.walkingSpeedKmh, runningSpeedKmh: vitals[day]?.runningSpeedKmh)
    }
}

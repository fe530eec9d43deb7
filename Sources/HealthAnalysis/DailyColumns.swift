import HealthExport

/// Which rings a day closed (value ≥ goal and goal > 0, reference §6.2).
struct RingsClosed: Sendable {
    /// False when the day has no ActivitySummary goals: nothing can be closed.
    var hasGoals = false
    var move = false
    var exercise = false
    var stand = false
    var count: Int { (move ? 1 : 0) + (exercise ? 1 : 0) + (stand ? 1 : 0) }
    var all: Bool { hasGoals && move && exercise && stand }
}

/// The per-day results of `finish`, column by column over a span of local days, before they
/// become `DailyMetrics` rows.
struct DailyColumns {
    let span: DaySpan
    /// De-duplicated over all sources, by fixed cumulative slot (nil: the type has no samples).
    private var all: [(totals: [Double], present: [Bool])?]
    /// Apple Watch sources only, by fixed cumulative slot.
    private var watch: [(totals: [Double], present: [Bool])?]
    private var hrSumMilli: [Int64]
    private var hrCount: [Int]
    private var hrMin: [Double]
    private var hrMax: [Double]
    /// The time-weighted mean (reference §5.6), which replaces the plain mean where set.
    private var hrWeighted: [Double?]
    /// Per `OncePerDayType`, per day.
    private var oncePerDay: [[Double?]]
    private var standStood: [Int]
    private var standRecorded: [Bool]
    private var workouts: [Int]
    private var workoutMinutes: [Double]
    /// Per day number: HRV, respiratory rate, blood oxygen, wrist temperature, blood pressure.
    var vitals: [Int: DayVitals] = [:]
    /// Per wake-up day number: asleep minutes of the night (`Sleep`).
    var sleepMinutes: [Int: Double] = [:]

    init(span: DaySpan) {
        self.span = span
        all = Array(repeating: nil, count: CumulativeSlot.fixedCount)
        watch = Array(repeating: nil, count: CumulativeSlot.fixedCount)
        hrSumMilli = Array(repeating: 0, count: span.count)
        hrCount = Array(repeating: 0, count: span.count)
        hrMin = Array(repeating: .infinity, count: span.count)
        hrMax = Array(repeating: -.infinity, count: span.count)
        hrWeighted = Array(repeating: nil, count: span.count)
        oncePerDay = Array(repeating: Array(repeating: nil, count: span.count), count: OncePerDayType.allCases.count)
        standStood = Array(repeating: 0, count: span.count)
        standRecorded = Array(repeating: false, count: span.count)
        workouts = Array(repeating: 0, count: span.count)
        workoutMinutes = Array(repeating: 0, count: span.count)
    }

    mutating func setAll(slot: Int, _ acc: MergeAccumulator) {
        guard slot < CumulativeSlot.fixedCount else { return }
        all[slot] = (acc.totals, acc.present)
    }

    /// iPhone active energy, de-duplicated among iPhone sources: the Move ring on days without
    /// Watch energy.
    private var phoneMove: (totals: [Double], present: [Bool])?

    mutating func setPhoneMove(_ acc: MergeAccumulator) { phoneMove = (acc.totals, acc.present) }

    mutating func setWatch(slot: Int, _ acc: MergeAccumulator) {
        guard slot < CumulativeSlot.fixedCount else { return }
        watch[slot] = (acc.totals, acc.present)
    }

    mutating func addHeartRate(day: Int, _ b: HeartRateBucket) {
        guard let i = span.index(day) else { return }
        hrSumMilli[i] += b.sumMilli
        hrCount[i] += Int(b.count)
        hrMin[i] = min(hrMin[i], b.min)
        hrMax[i] = max(hrMax[i], b.max)
    }

    mutating func setHeartRateTimeWeightedMean(day: Int, _ mean: Double) {
        guard let i = span.index(day) else { return }
        hrWeighted[i] = mean
    }

    mutating func setOncePerDay(day: Int, _ type: OncePerDayType, _ value: Double) {
        guard let i = span.index(day) else { return }
        oncePerDay[type.rawValue][i] = value
    }

    mutating func addStandHour(day: Int, stood: Bool) {
        guard let i = span.index(day) else { return }
        standRecorded[i] = true
        if stood { standStood[i] += 1 }
    }

    mutating func addWorkout(day: Int, minutes: Double) {
        guard let i = span.index(day) else { return }
        workouts[i] += 1
        workoutMinutes[i] += minutes
    }

    private func value(_ column: (totals: [Double], present: [Bool])?, _ i: Int?) -> Double? {
        guard let column, let i, column.present[i] else { return nil }
        return column.totals[i]
    }

    /// The row of `day`, which rings it closed, and whether it has any data at all.
    func metrics(day: Int, summary: ActivitySummary?) -> (DailyMetrics, RingsClosed, Bool) {
        let i = span.index(day)
        var m = DailyMetrics(date: CivilDate(daysSince1970: day))
        m.steps = value(all[CumulativeSlot.steps], i)
        m.distanceKm = value(all[CumulativeSlot.distanceWalkingRunning], i)
        m.flightsClimbed = value(all[CumulativeSlot.flightsClimbed], i)
        m.activeEnergyKcal = value(all[CumulativeSlot.activeEnergy], i)
        m.basalEnergyKcal = value(all[CumulativeSlot.basalEnergy], i)
        m.moveKcal = value(watch[CumulativeSlot.activeEnergy], i)
        if m.moveKcal != nil {
            m.moveSource = .appleWatch
        } else if let phone = value(phoneMove, i) {
            m.moveKcal = phone
            m.moveSource = .iPhone
        }
        m.moveMinutes = value(watch[CumulativeSlot.moveTime], i)
        m.exerciseMinutes = value(watch[CumulativeSlot.exerciseTime], i)
        if let i {
            if standRecorded[i] { m.standHours = standStood[i] }
            m.restingHeartRateBpm = oncePerDay[OncePerDayType.restingHeartRate.rawValue][i]
            m.walkingHeartRateAvgBpm = oncePerDay[OncePerDayType.walkingHeartRateAverage.rawValue][i]
            m.vo2MaxMlPerMinKg = oncePerDay[OncePerDayType.vo2Max.rawValue][i]
            m.bodyMassKg = oncePerDay[OncePerDayType.bodyMass.rawValue][i]
            if hrCount[i] > 0 {
                m.heartRateAvgBpm = hrWeighted[i] ?? Double(hrSumMilli[i]) / 1000 / Double(hrCount[i])
                m.heartRateMinBpm = hrMin[i]
                m.heartRateMaxBpm = hrMax[i]
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
            m.workouts = workouts[i]
            m.workoutMinutes = workoutMinutes[i]
            // The Watch writes exercise minutes only when there are some. On a day it was
            // demonstrably worn (it wrote stand-hour records or Move energy), no exercise sample
            // means 0 minutes, not "no data" (reference §6.3).
            if m.exerciseMinutes == nil, standRecorded[i] || m.moveSource == .appleWatch { m.exerciseMinutes = 0 }
        }
        var rings = RingsClosed()
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
            let moveGoal = s.isMoveTimeMode ? m.moveGoalMinutes : m.moveGoalKcal
            rings.hasGoals = moveGoal != nil || m.exerciseGoalMinutes != nil || m.standGoalHours != nil
            rings.move = Self.closes(s.isMoveTimeMode ? m.moveMinutes : m.moveKcal, goal: moveGoal)
            rings.exercise = Self.closes(m.exerciseMinutes, goal: m.exerciseGoalMinutes)
            rings.stand = Self.closes(m.standHours.map(Double.init), goal: m.standGoalHours)
            // Without any record-derived ring value (no Watch data that day) there is nothing to
            // close: the count stays empty rather than a misleading 0.
            let anyRingValue =
                m.moveKcal != nil || m.moveMinutes != nil || m.exerciseMinutes != nil || m.standHours != nil
            if rings.hasGoals && anyRingValue { m.ringsClosed = rings.count }
        }
        let hasData =
            m.steps != nil || m.distanceKm != nil || m.flightsClimbed != nil || m.activeEnergyKcal != nil
            || m.basalEnergyKcal != nil || m.moveKcal != nil || m.moveMinutes != nil || m.exerciseMinutes != nil
            || m.standHours != nil || m.restingHeartRateBpm != nil || m.heartRateAvgBpm != nil || m.workouts > 0
            || m.walkingHeartRateAvgBpm != nil || m.vo2MaxMlPerMinKg != nil || m.bodyMassKg != nil
            || summary != nil
        return (m, rings, hasData)
    }

    /// value ≥ goal and goal > 0; a relative 1e-9 slack absorbs the rounding of prorated sums.
    static func closes(_ value: Double?, goal: Double?) -> Bool {
        guard let value, let goal, goal > 0 else { return false }
        return value >= goal * (1 - 1e-9)
    }
}

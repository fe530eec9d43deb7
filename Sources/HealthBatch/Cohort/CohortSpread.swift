import HealthAnalysis
import HealthTables

/// One person's averages that `report.md` compares across people, from their `daily.csv` and
/// `sleep.csv` read back typed (empty cells are no data and are left out of every mean).
struct PersonMeasures: Equatable {
    /// Mean of `steps` over the days with a value.
    var stepsPerDay: Double?
    /// Share of days with all three rings closed (`rings_closed` = 3) among the days with a
    /// `rings_closed` value (days with goals and ring data), 0 to 1.
    var allRingsClosed: Double?
    /// The same per ring, among those days that have the ring's goal, by the one ring rule
    /// (`RingsClosed`, docs/rings.md §3) applied to the row as the file holds it.
    var moveClosed: Double?
    var exerciseClosed: Double?
    var standClosed: Double?
    /// Mean `asleep_min` of the `night` rows of `sleep.csv`, in hours.
    var sleepHoursPerNight: Double?
    /// Mean `resting_heart_rate_bpm` over the days with a value.
    var restingHeartRateBpm: Double?

    init(days: [DailyMetrics], nights: [SleepNight]) {
        stepsPerDay = mean(days.compactMap(\.steps))
        var all: [Double] = []
        var move: [Double] = []
        var exercise: [Double] = []
        var stand: [Double] = []
        for day in days {
            guard let closed = day.ringsClosed else { continue }
            all.append(closed == 3 ? 1 : 0)
            let rings = RingsClosed(day)
            let moveGoal = day.moveGoalMinutes ?? day.moveGoalKcal
            if moveGoal != nil { move.append(rings.move ? 1 : 0) }
            if day.exerciseGoalMinutes != nil { exercise.append(rings.exercise ? 1 : 0) }
            if day.standGoalHours != nil { stand.append(rings.stand ? 1 : 0) }
        }
        allRingsClosed = mean(all)
        moveClosed = mean(move)
        exerciseClosed = mean(exercise)
        standClosed = mean(stand)
        sleepHoursPerNight = mean(nights.filter { !$0.isNap }.compactMap(\.asleepMinutes).map { $0 / 60 })
        restingHeartRateBpm = mean(days.compactMap(\.restingHeartRateBpm))
    }
}

func mean(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
}

/// Median and quartiles of the people's values: linear interpolation between the closest
/// ranks (the quantile at p of n sorted values is at position p × (n − 1), counted from 0; the
/// default of R, NumPy and DuckDB's `quantile_cont`).
struct Spread: Equatable {
    var count: Int
    var minimum: Double
    var lowerQuartile: Double
    var median: Double
    var upperQuartile: Double
    var maximum: Double

    init?(_ values: [Double]) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        func quantile(_ p: Double) -> Double {
            let position = p * Double(sorted.count - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        count = sorted.count
        minimum = sorted[0]
        lowerQuartile = quantile(0.25)
        median = quantile(0.5)
        upperQuartile = quantile(0.75)
        maximum = sorted[sorted.count - 1]
    }
}

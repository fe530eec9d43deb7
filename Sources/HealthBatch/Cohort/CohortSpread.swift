import HealthReports

/// One person's averages that `report.md` compares across people, from their `daily.csv` and
/// `sleep.csv` (empty cells are no data and are left out of every mean).
struct PersonMeasures: Equatable {
    /// Mean of `steps` over the days with a value.
    var stepsPerDay: Double?
    /// Share of days with all three rings closed (`rings_closed` = 3) among the days with a
    /// `rings_closed` value (days with goals and ring data), 0 to 1.
    var allRingsClosed: Double?
    /// The same per ring, over those days with the ring's goal: Move (`move_min` ≥
    /// `move_goal_min` in time mode, else `move_kcal` ≥ `move_goal_kcal`), Exercise, Stand.
    var moveClosed: Double?
    var exerciseClosed: Double?
    var standClosed: Double?
    /// Mean `asleep_min` of the `night` rows of `sleep.csv`, in hours.
    var sleepHoursPerNight: Double?
    /// Mean `resting_heart_rate_bpm` over the days with a value.
    var restingHeartRateBpm: Double?

    init(daily: [[String]], sleep: [[String]]) {
        let d = Columns(daily)
        stepsPerDay = mean(d.values("steps"))
        var all: [Double] = []
        var move: [Double] = []
        var exercise: [Double] = []
        var stand: [Double] = []
        for row in d.rows {
            guard let closed = d.number(row, "rings_closed") else { continue }
            all.append(closed == 3 ? 1 : 0)
            func ring(_ value: Double?, _ goal: Double?) -> Double? {
                guard let value, let goal else { return nil }
                return value >= goal ? 1 : 0
            }
            let moveTime = d.number(row, "move_goal_min") != nil
            if let m = moveTime
                ? ring(d.number(row, "move_min"), d.number(row, "move_goal_min"))
                : ring(d.number(row, "move_kcal"), d.number(row, "move_goal_kcal"))
            {
                move.append(m)
            }
            if let e = ring(d.number(row, "exercise_min"), d.number(row, "exercise_goal_min")) { exercise.append(e) }
            if let s = ring(d.number(row, "stand_hours"), d.number(row, "stand_goal_hours")) { stand.append(s) }
        }
        allRingsClosed = mean(all)
        moveClosed = mean(move)
        exerciseClosed = mean(exercise)
        standClosed = mean(stand)
        let s = Columns(sleep)
        sleepHoursPerNight = mean(
            s.rows.filter { s.text($0, "kind") == "night" }.compactMap { s.number($0, "asleep_min") }.map { $0 / 60 })
        restingHeartRateBpm = mean(d.values("resting_heart_rate_bpm"))
    }

    /// A CSV file's rows by column name.
    private struct Columns {
        var position: [String: Int] = [:]
        var rows: [[String]]

        init(_ table: [[String]]) {
            for (i, name) in (table.first ?? []).enumerated() where position[name] == nil { position[name] = i }
            rows = Array(table.dropFirst())
        }

        func text(_ row: [String], _ name: String) -> String? {
            guard let i = position[name], i < row.count, !row[i].isEmpty else { return nil }
            return row[i]
        }

        func number(_ row: [String], _ name: String) -> Double? { text(row, name).flatMap(Double.init) }

        func values(_ name: String) -> [Double] { rows.compactMap { number($0, name) } }
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

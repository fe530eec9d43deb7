import HealthExport

extension Trends {
    /// Days in the recent window and in the year window (docs/trends.md §1, as Activity Trends).
    public static let recentWindowDays = 90
    public static let yearWindowDays = 365
    /// Days of history (first day with data to `end`) before any trend is shown, as Fitness does.
    public static let minimumHistoryDays = 180
    /// The 90-day mean is steady within this fraction of the 365-day mean (docs/trends.md §2).
    public static let steadyFraction = 0.03

    /// The trends at `end` (docs/trends.md): for each `TrendMetric`, the mean of its daily value
    /// over the days with a value among the 90 days ending on `end`, and among the 365 days
    /// ending on `end`; the direction by the rule of §2.
    ///
    /// A pure function of its arguments. `rows` are daily rows (any order, any span: those
    /// outside the 365 days are ignored, so rows before a report window count as history);
    /// `standMinutes` is Apple stand time per day, minutes; `speeds` holds walking and running
    /// speed per day, km/h (`.walkingSpeed`, `.runningSpeed`; neither is a column of the rows). `historyFirst` is the first day with
    /// any data in the input: with fewer than `minimumHistoryDays` days from it to `end`, no
    /// measure has a trend (each says why).
    ///
    /// - Complexity: O(rows × metrics).
    public static func compute(
        rows: [DailyMetrics], standMinutes: [CivilDate: Double] = [:], speeds: [TrendMetric: [CivilDate: Double]] = [:],
        end: CivilDate, historyFirst: CivilDate
    ) -> Trends {
        let endDay = end.daysSince1970
        let history = endDay - historyFirst.daysSince1970 + 1
        let year = rows.filter { (endDay - yearWindowDays + 1...endDay).contains($0.date.daysSince1970) }
        // A move-time account (docs/rings.md): the latest day with a Move goal sets the unit.
        let latestGoal = year.filter { $0.moveGoalMinutes != nil || $0.moveGoalKcal != nil }
            .max { $0.date.daysSince1970 < $1.date.daysSince1970 }
        let moveTime = latestGoal?.moveGoalMinutes != nil
        var out: [Trend] = []
        for metric in TrendMetric.allCases {
            var unit: String
            var value: (DailyMetrics) -> Double?
            switch metric {
            case .move:
                unit = moveTime ? "min/day" : "kcal/day"
                value = moveTime ? { $0.moveMinutes } : { $0.moveKcal }
            case .exercise: (unit, value) = ("min/day", { $0.exerciseMinutes })
            case .standHours: (unit, value) = ("hours/day", { $0.standHours.map(Double.init) })
            case .standMinutes: (unit, value) = ("min/day", { standMinutes[$0.date] })
            case .distance: (unit, value) = ("km/day", { $0.distanceKm })
            case .flightsClimbed: (unit, value) = ("floors/day", { $0.flightsClimbed })
            case .vo2Max: (unit, value) = ("mL/(kg·min)", { $0.vo2MaxMlPerMinKg })
            case .walkingSpeed, .runningSpeed:
                let perDay = speeds[metric] ?? [:]
                (unit, value) = ("km/h", { perDay[$0.date] })
            case .restingHeartRate: (unit, value) = ("bpm", { $0.restingHeartRateBpm })
            case .hrv: (unit, value) = ("ms", { $0.hrvSdnnMs })
            case .sleep: (unit, value) = ("min/night", { $0.sleepMinutes })
            }
            var trend = Trend(metric: metric, unit: unit)
            var recentSum = 0.0
            var yearSum = 0.0
            for row in year {
                guard let v = value(row), v.isFinite else { continue }
                trend.yearDays += 1
                yearSum += v
                if row.date.daysSince1970 > endDay - recentWindowDays {
                    trend.recentDays += 1
                    recentSum += v
                }
            }
            if trend.yearDays > 0 { trend.yearMean = yearSum / Double(trend.yearDays) }
            if trend.recentDays > 0 { trend.recentMean = recentSum / Double(trend.recentDays) }
            if history < minimumHistoryDays {
                trend.whyNone =
                    "\(counted(history, "day")) of history up to \(end); trends need \(minimumHistoryDays)"
            } else if trend.yearDays == 0 {
                trend.whyNone = "no data in the 365 days up to \(end)"
            } else if trend.recentDays == 0 {
                trend.whyNone = "no data in the 90 days up to \(end)"
            } else {
                trend.direction = direction(recent: trend.recentMean!, year: trend.yearMean!)
            }
            out.append(trend)
        }
        return Trends(end: end, historyDays: history, trends: out)
    }

    /// Up when the 90-day mean is more than `steadyFraction` above the 365-day mean, down when
    /// more than that below, else steady (docs/trends.md §2).
    public static func direction(recent: Double, year: Double) -> TrendDirection {
        let band = abs(year) * steadyFraction
        if recent > year + band { return .up }
        if recent < year - band { return .down }
        return .steady
    }
}

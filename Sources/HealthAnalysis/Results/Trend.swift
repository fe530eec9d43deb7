import HealthExport

/// A measure that has a trend, in the order of the report's Trends section
/// (docs/trends.md §1): Activity Trends' own measures, then resting heart rate, HRV and sleep.
public enum TrendMetric: String, CaseIterable, Hashable, Sendable {
    /// Move: active energy (the Move ring's value), kcal a day; Move minutes for a move-time account.
    case move
    case exercise
    case standHours = "stand_hours"
    /// Apple stand time (`HKQuantityTypeIdentifierAppleStandTime`), minutes a day.
    case standMinutes = "stand_minutes"
    /// Walking + running distance, km a day.
    case distance
    case flightsClimbed = "flights_climbed"
    case vo2Max = "vo2_max"
    case walkingSpeed = "walking_speed"
    case runningSpeed = "running_speed"
    case restingHeartRate = "resting_heart_rate"
    case hrv
    /// Asleep minutes per night (nights by wake-up day, naps not included).
    case sleep

    /// The name a person reads ("Exercise").
    public var title: String {
        switch self {
        case .move: return "Move"
        case .exercise: return "Exercise"
        case .standHours: return "Stand hours"
        case .standMinutes: return "Stand minutes"
        case .distance: return "Walking + running distance"
        case .flightsClimbed: return "Flights climbed"
        case .vo2Max: return "Cardio fitness (VO2 max)"
        case .walkingSpeed: return "Walking speed"
        case .runningSpeed: return "Running speed"
        case .restingHeartRate: return "Resting heart rate"
        case .hrv: return "HRV (SDNN)"
        case .sleep: return "Sleep"
        }
    }
}

/// Up, down or steady: the 90-day mean against the 365-day mean (docs/trends.md §2).
public enum TrendDirection: String, Hashable, Sendable {
    case up, down, steady
}

/// One measure's trend at the end of the report's period (a row of `trends.csv`;
/// docs/trends.md): the mean over the days with data among the last 90 days and among the
/// last 365 days (both ending on `Trends.end`), the days with data in each, and the direction.
/// With no trend, `direction` is nil and `whyNone` says why; the means are still given where
/// there is data.
public struct Trend: Hashable, Sendable {
    public var metric: TrendMetric
    /// The unit of both means (`kcal/day`, `min/day`, `bpm`, …).
    public var unit: String
    public var recentDays: Int
    public var recentMean: Double?
    public var yearDays: Int
    public var yearMean: Double?
    public var direction: TrendDirection?
    /// Why there is no trend (nil when there is one).
    public var whyNone: String?
    /// The direction at the previous week's end (`Trends.previousEnd`), nil when there was no
    /// trend then; `changedDirection` compares the two (docs/trends.md §4).
    public var previousDirection: TrendDirection?

    /// True when the measure had a direction at the previous week's end and has another one
    /// now (steady to up, up to down, …); a trend that appears or disappears has not changed
    /// direction (docs/trends.md §4).
    public var changedDirection: Bool {
        guard let direction, let previousDirection else { return false }
        return direction != previousDirection
    }

    public init(
        metric: TrendMetric, unit: String, recentDays: Int = 0, recentMean: Double? = nil, yearDays: Int = 0,
        yearMean: Double? = nil, direction: TrendDirection? = nil, whyNone: String? = nil
    ) {
        self.metric = metric
        self.unit = unit
        self.recentDays = recentDays
        self.recentMean = recentMean
        self.yearDays = yearDays
        self.yearMean = yearMean
        self.direction = direction
        self.whyNone = whyNone
    }

    /// The relative change of the 90-day mean against the 365-day mean (0.05: 5 % higher).
    public var change: Double? {
        guard let r = recentMean, let y = yearMean, y != 0 else { return nil }
        return (r - y) / abs(y)
    }
}

/// The trends of a report (docs/trends.md): every `TrendMetric`, computed at `end`.
public struct Trends: Hashable, Sendable {
    /// The last day of the 90 and 365 days: the report period's last day.
    public var end: CivilDate
    /// Days from the input's first day with data to `end`, both included.
    public var historyDays: Int
    /// One per `TrendMetric`, in its order.
    public var trends: [Trend]

    /// The day the previous directions were computed at: a week before `end` (docs/trends.md §4).
    public var previousEnd: CivilDate { CivilDate(daysSince1970: end.daysSince1970 - Trends.previousWeekDays) }

    /// How far back the previous directions are computed: one week, what a weekly report
    /// compares with the week before (docs/trends.md §4).
    public static let previousWeekDays = 7

    public init(end: CivilDate, historyDays: Int, trends: [Trend]) {
        self.end = end
        self.historyDays = historyDays
        self.trends = trends
    }

    /// These trends with each measure's `previousDirection` taken from `previous`, the trends
    /// at `previousEnd`.
    public func withPreviousDirections(from previous: Trends) -> Trends {
        var out = self
        for k in out.trends.indices {
            out.trends[k].previousDirection = previous.trends.first { $0.metric == out.trends[k].metric }?.direction
        }
        return out
    }
}

import HealthExport

// The result of one analysis run: what the reports render. Produced by the analysis pipeline
// (docs/rings.md, docs/deduplication.md, docs/weeks.md), consumed by HealthReports. All days are local calendar days in
// `timeZone`; a value with no data is nil (rendered as an empty cell), never 0.

/// Everything one run computes.
public struct AnalysisResult: Sendable {
    public var timeZone: TimeZoneChoice
    /// The zones of the reported days, period by period, and why (docs/days-and-time-zones.md §5).
    public var timeZonePeriods: [TimeZonePeriod] = []
    /// Which source model each ring used, on how many days, and its ActivitySummary agreement.
    public var ringSources: [RingSourceUse] = []
    public var weekStart: WeekStart
    /// False with `--no-dedup` (plain sums).
    public var deduplicated: Bool
    /// The priority order used, highest first. Samples marked `HKWasUserEntered` rank above
    /// every source not named in `--source-order`, whatever their source (docs/deduplication.md §3).
    public var sourceOrder: [RankedSource]
    /// First and last local day reported: the days with data, limited by `--from`/`--to`, or
    /// the one week of `--week last`. Nil when nothing was reported.
    public var firstDay: CivilDate?
    public var lastDay: CivilDate?
    public var exportDate: Timestamp?
    /// The reported local days, ascending: every day from `firstDay` to `lastDay`, except runs of
    /// more than `longestListedRunWithoutData` (31) days without data, which are left out and
    /// named in `notes`. `weeks` and `months` leave out those wholly inside such a run.
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
    public var notes: [AnalysisNote]
    /// Nights and naps in the report window, in time order (`Domains/Sleep.swift`).
    public var sleep: [SleepNight] = []
    /// Workouts in the report window, by start, duplicates included and marked (`Domains/Workouts.swift`).
    public var workouts: [WorkoutRow] = []
    /// Calendar months of the report window (`Monthly.swift`).
    public var months: [MonthlyMetrics] = []
    /// Set when the export has data but none in the window the options ask for (`--from`/`--to`
    /// outside it, `--week last` without a complete week): nothing is reported then.
    public var emptyWindow: EmptyWindow?
    /// The trends at the report period's last day, from the whole history the input has, the
    /// days before the period included (docs/trends.md). Nil when nothing is reported.
    public var trends: Trends?

    /// Memberwise; every collection defaults to empty (for renderer tests and fixtures).
    public init(
        timeZone: TimeZoneChoice, weekStart: WeekStart = .iso8601, deduplicated: Bool = true,
        sourceOrder: [RankedSource] = [], firstDay: CivilDate? = nil, lastDay: CivilDate? = nil,
        exportDate: Timestamp? = nil, days: [DailyMetrics] = [], weeks: [WeeklyMetrics] = [],
        standHours: [StandHour] = [],
        standHourProfile: [(hour: Int, stoodDays: Int, daysWithRecord: Int)] = [],
        sources: [SourceContribution] = [], crossCheck: SummaryCrossCheck = SummaryCrossCheck(),
        longestAllRingsStreak: RingStreak = RingStreak(), notes: [AnalysisNote] = []
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

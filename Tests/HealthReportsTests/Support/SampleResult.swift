import HealthExport
import HealthReports
import HealthTables

@testable import HealthAnalysis

// A small hand-built analysis result covering what the reports render: a partial first and
// last week, nil values, fractional values, source names that need CSV quoting or Markdown
// escaping, stand hours, an ActivitySummary disagreement with a missing value, notes and
// reader diagnostics.

func date(_ text: String) -> CivilDate {
    guard let date = CivilDate(text) else { fatalError("bad date \(text)") }
    return date
}

/// A day with the usual values; `nil` arguments stay nil.
func day(
    _ text: String, steps: Double? = nil, km: Double? = nil, flights: Double? = nil,
    activeKcal: Double? = nil, moveKcal: Double? = nil, exercise: Double? = nil, stand: Int? = nil,
    rings: Int? = nil, restingHR: Double? = nil, workouts: Int = 0, workoutMinutes: Double = 0
) -> DailyMetrics {
    var d = DailyMetrics(date: date(text))
    d.steps = steps
    d.distanceKm = km
    d.flightsClimbed = flights
    d.activeEnergyKcal = activeKcal
    d.moveKcal = moveKcal
    d.exerciseMinutes = exercise
    d.standHours = stand
    d.ringsClosed = rings
    d.restingHeartRateBpm = restingHR
    d.workouts = workouts
    d.workoutMinutes = workoutMinutes
    if rings != nil {
        d.moveGoalKcal = 500
        d.exerciseGoalMinutes = 30
        d.standGoalHours = 12
    }
    return d
}

let watch = "Alice’s Apple Watch"
let phone = "Alice's iPhone"
let band = "Band \"Pro\", 2nd gen 🏃"

func makeSampleResult() -> AnalysisResult {
    var days: [DailyMetrics] = [
        day("2024-12-30", steps: 1_500),
        day(
            "2025-01-04", steps: 4_321.4, km: 3.2104, flights: 3, activeKcal: 310.26, moveKcal: 290.04,
            exercise: 12, stand: 9, rings: 0, restingHR: 58),
        day(
            "2025-01-05", steps: 12_000.5, km: 9.87654, flights: 11, activeKcal: 640, moveKcal: 612.5,
            exercise: 45.5, stand: 13, rings: 3, restingHR: 57.25, workouts: 1, workoutMinutes: 42.25),
        day(
            "2025-01-06", steps: 8_000, km: 6.1, activeKcal: 520.04, moveKcal: 505, exercise: 31, stand: 12,
            rings: 3, restingHR: 56),
        day(
            "2025-01-07", steps: 10_250, km: 7.75, flights: 0, activeKcal: 555.55, moveKcal: 540, exercise: 33,
            stand: 12, rings: 3, workouts: 2, workoutMinutes: 75.5),
        day(
            "2025-01-08", steps: 2_000, km: 1.5, activeKcal: 200, moveKcal: 180, exercise: 5, stand: 6,
            rings: 0, restingHR: 61),
        day("2025-01-09"),  // the watch was not worn: no data, not zeros
        day(
            "2025-01-10", steps: 7_500, km: 5.4, flights: 4, activeKcal: 480.5, moveKcal: 470.25, exercise: 29,
            stand: 12, rings: 1, restingHR: 59),
        day("2025-01-13", steps: 3_000),
    ]
    days[2].heartRateAvgBpm = 72.46
    days[2].heartRateMinBpm = 48
    days[2].heartRateMaxBpm = 171
    days[2].summaryMoveKcal = 612
    days[2].summaryExerciseMinutes = 46
    days[2].summaryStandHours = 13
    days[5].summaryMoveKcal = 350
    days[5].summaryExerciseMinutes = 5
    days[5].summaryStandHours = 7

    var w1 = WeeklyMetrics(week: "2025-W01", weekStart: date("2024-12-30"))
    w1.days = 3
    w1.steps = 17_821.9
    w1.stepsPerDay = 5_940.633333333334
    w1.distanceKm = 13.08694
    w1.activeEnergyKcal = 950.26
    w1.activeEnergyKcalPerDay = 475.13
    w1.exerciseMinutes = 57.5
    w1.exerciseMinutesPerDay = 28.75
    w1.standHours = 22
    w1.moveRingClosedDays = 1
    w1.exerciseRingClosedDays = 1
    w1.standRingClosedDays = 1
    w1.allRingsClosedDays = 1
    w1.workouts = 1
    w1.workoutMinutes = 42.25
    w1.restingHeartRateAvgBpm = 57.625
    w1.stepsPerDayRolling4Weeks = 5_940.633333333334

    var w2 = WeeklyMetrics(week: "2025-W02", weekStart: date("2025-01-06"))
    w2.days = 4
    w2.steps = 27_750
    w2.stepsPerDay = 6_937.5
    w2.distanceKm = 20.75
    w2.activeEnergyKcal = 1_756.09
    w2.activeEnergyKcalPerDay = 439.0225
    w2.exerciseMinutes = 98
    w2.exerciseMinutesPerDay = 24.5
    w2.standHours = 42
    w2.moveRingClosedDays = 2
    w2.exerciseRingClosedDays = 2
    w2.standRingClosedDays = 3
    w2.allRingsClosedDays = 2
    w2.workouts = 2
    w2.workoutMinutes = 75.5
    w2.restingHeartRateAvgBpm = 58.666666666666664
    w2.stepsChangePercent = 55.70730393504619
    w2.activeEnergyChangePercent = 84.8010018310778
    w2.exerciseChangePercent = 70.43478260869566
    w2.stepsPerDayRolling4Weeks = 6_510.271428571429

    var w3 = WeeklyMetrics(week: "2025-W03", weekStart: date("2025-01-13"))
    w3.days = 1
    w3.partial = true
    w3.steps = 3_000
    w3.stepsPerDay = 3_000
    w3.stepsPerDayRolling4Weeks = 6_071.4875

    let standHours: [StandHour] = [
        StandHour(date: date("2025-01-05"), hour: 8, stood: true),
        StandHour(date: date("2025-01-05"), hour: 9, stood: false),
        StandHour(date: date("2025-01-05"), hour: 10, stood: true),
        StandHour(date: date("2025-01-06"), hour: 8, stood: true),
        StandHour(date: date("2025-01-06"), hour: 9, stood: true),
        StandHour(date: date("2025-01-06"), hour: 23, stood: false),
    ]
    var profile: [(hour: Int, stoodDays: Int, daysWithRecord: Int)] = (0..<24).map { ($0, 0, 0) }
    profile[8] = (8, 2, 2)
    profile[9] = (9, 1, 2)
    profile[10] = (10, 1, 1)
    profile[23] = (23, 0, 1)

    let sources: [SourceContribution] = [
        SourceContribution(
            type: "HKQuantityTypeIdentifierStepCount", sourceName: watch, sourceClass: .watch, samples: 1_204,
            rawTotal: 40_071.9, countedTotal: 40_071.9, unit: .count),
        SourceContribution(
            type: "HKQuantityTypeIdentifierStepCount", sourceName: phone, sourceClass: .phone, samples: 873,
            rawTotal: 38_500, countedTotal: 4_000, unit: .count),
        SourceContribution(
            type: "HKQuantityTypeIdentifierActiveEnergyBurned", sourceName: watch, sourceClass: .watch,
            samples: 9_000, rawTotal: 2_597.35, countedTotal: 2_597.35, unit: .kilocalorie),
        SourceContribution(
            type: "HKQuantityTypeIdentifierActiveEnergyBurned", sourceName: band, sourceClass: .other,
            samples: 7, rawTotal: 1_200.0004, countedTotal: 109, unit: .kilocalorie),
        SourceContribution(
            type: "HKQuantityTypeIdentifierDistanceWalkingRunning", sourceName: watch, sourceClass: .watch,
            samples: 1_100, rawTotal: 33.83694, countedTotal: 33.83694, unit: .kilometre),
    ]

    let crossCheck = SummaryCrossCheck(
        daysCompared: 6, daysAgreeing: 5,
        disagreements: [
            SummaryDisagreement(date: date("2025-01-08"), metric: .standHours, recordValue: 6, summaryValue: 7),
            SummaryDisagreement(date: date("2025-01-08"), metric: .moveKcal, recordValue: 180, summaryValue: 350),
            SummaryDisagreement(date: date("2025-01-08"), metric: .exerciseMinutes, recordValue: nil, summaryValue: 5),
        ])

    return AnalysisResult(
        timeZone: TimeZoneChoice(identifier: "Europe/Berlin", reason: .hkTimeZone(samples: 10_234)),
        weekStart: .iso8601,
        deduplicated: true,
        sourceOrder: [
            RankedSource(name: "Health", sourceClass: .manual, rank: 0),
            RankedSource(name: watch, sourceClass: .watch, rank: 1),
            RankedSource(name: phone, sourceClass: .phone, rank: 2),
            RankedSource(name: band, sourceClass: .other, rank: 3),
        ],
        firstDay: date("2024-12-30"),
        lastDay: date("2025-01-13"),
        exportDate: Timestamp(secondsSince1970: 1_736_839_800, printedOffsetSeconds: 3_600),
        days: days,
        weeks: [w1, w2, w3],
        standHours: standHours,
        standHourProfile: profile,
        sources: sources,
        crossCheck: crossCheck,
        longestAllRingsStreak: RingStreak(days: 3, first: date("2025-01-05"), last: date("2025-01-07")),
        notes: [
            .info("\(band) filled 12% of 2025-01-07's steps (low-priority filler source)"),
            .info("2 samples with end before start were dropped"),
        ])
}

/// An analysis of an export with no data at all.
func makeEmptyResult() -> AnalysisResult {
    AnalysisResult(
        timeZone: TimeZoneChoice(identifier: "UTC+01:00", reason: .exportOffset),
        weekStart: .iso8601, deduplicated: true, sourceOrder: [], firstDay: nil, lastDay: nil,
        exportDate: nil, days: [], weeks: [], standHours: [], standHourProfile: [], sources: [],
        crossCheck: SummaryCrossCheck(), longestAllRingsStreak: RingStreak(days: 0, first: nil, last: nil),
        notes: [])
}

func makeSampleContext() -> ReportContext {
    ReportContext(
        inputFileName: "export.zip",
        exportDate: Timestamp(secondsSince1970: 1_736_839_800, printedOffsetSeconds: 3_600),
        exportVersion: "14", generator: "health-analyzer 0.1.0",
        diagnostics: ["3 records skipped: unknown unit 'foo' (first at line 12)"])
}

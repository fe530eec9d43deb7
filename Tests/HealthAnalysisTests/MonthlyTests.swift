import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Calendar months")
struct MonthlyTests {
    @Test func monthsSumAndAverageTheirDaysAndMarkPartialOnes() {
        // 2025-01-30 … 2025-02-01: January has 2 of its 31 days here, February 1 of 28: both partial.
        // January steps 1 000 + 3 000 = 4 000, 2 000 a day; sleep only on the 31st: 420 per night;
        // rings: the 31st closed Move and Exercise. February: 5 000 steps, one workout (Running).
        var rows = ["2025-01-30", "2025-01-31", "2025-02-01"].map { DailyMetrics(date: CivilDate($0)!) }
        (rows[0].steps, rows[1].steps, rows[2].steps) = (1_000, 3_000, 5_000)
        rows[1].sleepMinutes = 420
        rows[2].workouts = 1
        rows[2].workoutMinutes = 30
        var rings = [RingsClosed(), RingsClosed(), RingsClosed()]
        (rings[1].hasGoals, rings[1].move, rings[1].exercise) = (true, true, true)
        var run = WorkoutRow(
            start: LocalTime(
                secondsSince1970: Int64(CivilDate("2025-02-01")!.daysSince1970) * 86_400 + 3600 * 17,
                utcOffsetSeconds: 3600),
            end: LocalTime(
                secondsSince1970: Int64(CivilDate("2025-02-01")!.daysSince1970) * 86_400 + 3600 * 18,
                utcOffsetSeconds: 3600),
            activityType: "HKWorkoutActivityTypeRunning", activity: "Running", source: "Watch", elapsedMinutes: 60)
        run.durationMinutes = 30
        var copy = run
        copy.isDuplicate = true
        let months = MonthlyBuilder(rows: rows, rings: rings, hasData: [true, true, true], workouts: [run, copy])
            .build()
        #expect(months.map(\.month) == ["2025-01", "2025-02"])
        #expect(months.allSatisfy { $0.partial })
        #expect(months[0].days == 2 && months[0].steps == 4_000 && months[0].stepsPerDay == 2_000)
        #expect(months[0].sleepMinutesPerNight == 420 && months[0].moveRingClosedDays == 1)
        #expect(months[0].exerciseRingClosedDays == 1 && months[0].allRingsClosedDays == 0)
        #expect(months[1].steps == 5_000 && months[1].workouts == 1 && months[1].workoutsByActivity == ["Running": 1])
    }

    @Test func aWholeMonthIsNotPartial() {
        let rows = (1...30).map { DailyMetrics(date: CivilDate(year: 2025, month: 11, day: $0)) }
        let months = MonthlyBuilder(
            rows: rows, rings: Array(repeating: RingsClosed(), count: 30), hasData: Array(repeating: false, count: 30),
            workouts: []
        ).build()
        #expect(months.count == 1 && !months[0].partial && months[0].days == 0)
    }

    /// A month counts its days with data as its weeks do: here three days of November 2016, one
    /// with steps and two with only an ActivitySummary (no measure in the rows), are 3 days,
    /// not 1 (found on the healthkit-to-sqlite corpus export: monthly 1, weekly 3).
    @Test func daysWithOnlyAnActivitySummaryCountAsInTheWeeks() {
        var rows = (14...16).map { DailyMetrics(date: CivilDate(year: 2016, month: 11, day: $0)) }
        rows[0].steps = 120
        let months = MonthlyBuilder(
            rows: rows, rings: Array(repeating: RingsClosed(), count: 3), hasData: [true, true, true], workouts: []
        ).build()
        #expect(months.count == 1 && months[0].days == 3 && months[0].stepsPerDay == 120)
    }
}

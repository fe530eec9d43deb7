import HealthExport
import Testing

@testable import HealthAnalysis

/// Days with an ActivitySummary and no ring records (docs: rings): each ring closes when the
/// summary's own value reaches its goal, and weeks and months count those days.
@Suite("Summary-only rings")
struct SummaryOnlyRingsTests {
    /// The two summaries of the healthkit-to-sqlite corpus export, which has no ring records:
    /// 2016-11-15 exercise 68 of 30 min (closed), stand 13 of 12 h (closed), move 590.252 of
    /// 630 kcal (open) → 2 rings; 2016-11-16 exercise 39 of 30 (closed), stand 9 of 12 (open),
    /// move 323.513 of 630 (open) → 1 ring. The week 2016-W46 (Mon 11-14 to Sun 11-20): move 0,
    /// exercise 2, stand 1, all rings 0 days.
    static let summaries = [
        ActivitySummary(
            date: CivilDate("2016-11-15")!, activeEnergyBurnedKcal: 590.252, activeEnergyBurnedGoalKcal: 630,
            appleExerciseTimeMinutes: 68, appleExerciseTimeGoalMinutes: 30, appleStandHours: 13,
            appleStandHoursGoal: 12),
        ActivitySummary(
            date: CivilDate("2016-11-16")!, activeEnergyBurnedKcal: 323.513, activeEnergyBurnedGoalKcal: 630,
            appleExerciseTimeMinutes: 39, appleExerciseTimeGoalMinutes: 30, appleStandHours: 9,
            appleStandHoursGoal: 12),
    ]

    @Test func summaryOnlyDaysCloseTheRingsTheirSummaryCloses() throws {
        let r = try analyze([], summaries: Self.summaries, options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        #expect(r.day("2016-11-15")?.ringsClosed == 2)
        #expect(r.day("2016-11-16")?.ringsClosed == 1)
        let week = try #require(r.weeks.first { $0.week == "2016-W46" })
        #expect(week.moveRingClosedDays == 0)
        #expect(week.exerciseRingClosedDays == 2)
        #expect(week.standRingClosedDays == 1)
        #expect(week.allRingsClosedDays == 0)
        let month = try #require(r.months.first { $0.month == "2016-11" })
        #expect(
            [
                month.moveRingClosedDays, month.exerciseRingClosedDays, month.standRingClosedDays,
                month.allRingsClosedDays,
            ] == [0, 2, 1, 0])
    }

    @Test func aSummaryThatClosesEveryRingCountsAsAnAllRingsDay() throws {
        // 700 of 630 kcal, 30 of 30 min (a value at the goal closes it), 12 of 12 h → 3 rings.
        let s = ActivitySummary(
            date: CivilDate("2016-11-17")!, activeEnergyBurnedKcal: 700, activeEnergyBurnedGoalKcal: 630,
            appleExerciseTimeMinutes: 30, appleExerciseTimeGoalMinutes: 30, appleStandHours: 12,
            appleStandHoursGoal: 12)
        let r = try analyze([], summaries: [s], options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        #expect(r.day("2016-11-17")?.ringsClosed == 3)
        #expect(r.weeks.first?.allRingsClosedDays == 1)
    }

    @Test func aSummaryWithGoalsButNoValuesClosesNothingAndCountsNothing() throws {
        let s = ActivitySummary(
            date: CivilDate("2016-11-17")!, activeEnergyBurnedGoalKcal: 630, appleExerciseTimeGoalMinutes: 30,
            appleStandHoursGoal: 12)
        let r = try analyze([], summaries: [s], options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        #expect(r.day("2016-11-17")?.ringsClosed == nil)
        #expect(r.weeks.first?.exerciseRingClosedDays == 0)
    }
}

/// A day is a day with data when it has any of daily.csv's measures (docs: days), in weekly.csv
/// and monthly.csv as in daily.csv.
@Suite("Days with data")
struct DaysWithDataTests {
    @Test func aDayWithOnlyABloodPressureReadingCountsAsADayWithData() throws {
        // One reading, 2025-03-05 08:00 UTC, 121/79 mmHg: the only data of the export. Its week
        // 2025-W10 and its month 2025-03 have 1 day with data, and the month's means are the
        // reading itself.
        func reading(_ type: String, _ value: Double) -> Record {
            var r = sample(.health, 1_741_161_600, 1_741_161_600, value, type: type, nested: true)
            r.value = .quantity(
                Quantity(value: value, unit: .millimetreOfMercury, originalValue: value, originalUnit: "mmHg"))
            return r
        }
        let t = Timestamp(secondsSince1970: 1_741_161_600)
        var batch = ExportBatch()
        batch.correlations = [
            Correlation(
                type: "HKCorrelationTypeIdentifierBloodPressure",
                attributes: SampleAttributes(sourceName: TestSource.health.name, startDate: t, endDate: t),
                records: [
                    reading("HKQuantityTypeIdentifierBloodPressureSystolic", 121),
                    reading("HKQuantityTypeIdentifierBloodPressureDiastolic", 79),
                ])
        ]
        let analyzer = Analyzer(options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        analyzer.consume(batch)
        let r = try analyzer.finish(exportDate: nil, timeZoneCounts: [:], environmentTimeZone: nil)
        #expect(r.day("2025-03-05")?.bloodPressureSystolicMmHg == 121)
        #expect(r.weeks.map(\.week) == ["2025-W10"])
        #expect(r.weeks.first?.days == 1)
        #expect(r.months.first?.days == 1)
        #expect(r.months.first?.bloodPressureSystolicMmHg == 121)
        #expect(r.months.first?.bloodPressureDiastolicMmHg == 79)
    }
}

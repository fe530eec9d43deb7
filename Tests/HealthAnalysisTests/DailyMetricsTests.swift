import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Daily metrics")
struct DailyMetricsTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    /// 2025-02-03: Watch energy 10:00–10:10 = 300 kcal and iPhone-app energy 10:05–10:25 = 200
    /// (10/min); Watch exercise 40 × 1 min; 9 stood hours on the Watch.
    /// activeEnergy = Watch 300 + app's uncovered 10:10–10:25 (150) = 450; moveKcal (Watch only) = 300.
    func ringDay() -> [Record] {
        var records = [
            sample(.watch, utc, "2025-02-03 10:00", "2025-02-03 10:10", 300, type: T.activeEnergy),
            sample(.app, utc, "2025-02-03 10:05", "2025-02-03 10:25", 200, type: T.activeEnergy),
        ]
        let t = utc.t("2025-02-03 11:00")
        records += (0..<40).map { k in sample(.watch, t + Int64(k) * 60, t + Int64(k + 1) * 60, 1, type: T.exercise) }
        records += (8..<17).map { h in standHour(.watch, utc.t("2025-02-03 00:00") + Int64(h) * 3600) }
        return records
    }

    @Test func moveRingUsesWatchEnergyWhileActiveEnergyMergesAllSources() throws {
        let r = try analyze(ringDay(), options: options)
        let d = try #require(r.day("2025-02-03"))
        #expect(close(d.activeEnergyKcal, 450))
        #expect(close(d.moveKcal, 300))
        #expect(close(d.exerciseMinutes, 40))
        #expect(d.standHours == 9)
    }

    @Test(arguments: [
        // goals (move kcal, exercise min, stand h) → rings closed by 300 kcal / 40 min / 9 h
        (300.0, 30.0, 9.0, 3),  // all exactly met or exceeded
        (301.0, 30.0, 9.0, 2),  // move short by 1 kcal
        (300.0, 41.0, 10.0, 1),
        (0.0, 0.0, 0.0, nil),  // a goal of 0 is "not set": no ring closed or open, an empty count
    ])
    func ringsClosedCompareRecordValuesWithTheSummaryGoals(move: Double, exercise: Double, stand: Double, closed: Int?)
        throws
    {
        let r = try analyze(
            ringDay(),
            summaries: [
                summary(
                    "2025-02-03", moveKcal: 300, moveGoal: move, exercise: 40, exerciseGoal: exercise, stand: 9,
                    standGoal: stand)
            ],
            options: options)
        let d = try #require(r.day("2025-02-03"))
        #expect(d.ringsClosed == closed)
        #expect(d.moveGoalKcal == (move > 0 ? move : nil))
        #expect(d.summaryMoveKcal == 300)
    }

    @Test func moveRingInTimeModeUsesMoveMinutes() throws {
        // Time mode (appleMoveTimeGoal 30 > 0): 35 Watch move minutes ≥ 30 closes Move even
        // though the energy goal is 0.
        let t = utc.t("2025-02-03 09:00")
        let records = (0..<35).map { k in sample(.watch, t + Int64(k) * 60, t + Int64(k + 1) * 60, 1, type: T.moveTime)
        }
        let r = try analyze(
            records,
            summaries: [
                summary(
                    "2025-02-03", moveKcal: 0, moveGoal: 0, exercise: 0, exerciseGoal: 30, stand: 0, standGoal: 12,
                    moveMinutes: 35, moveMinutesGoal: 30)
            ],
            options: options)
        let d = try #require(r.day("2025-02-03"))
        #expect(d.moveMinutes == 35)
        #expect(d.moveGoalMinutes == 30)
        #expect(d.summaryMoveMinutes == 35)
        #expect(d.ringsClosed == 1)
        #expect(r.crossCheck.disagreements.isEmpty)
    }

    @Test func dayWithoutSummaryHasNoRingCount() throws {
        let r = try analyze(ringDay(), options: options)
        #expect(r.day("2025-02-03")?.ringsClosed == nil)
        #expect(r.day("2025-02-03")?.moveGoalKcal == nil)
    }

    @Test func valuesWithoutDataAreNilNotZero() throws {
        // Only a heart rate on 02-03 and only steps on 02-05: 02-04 is a row with no data at all.
        let r = try analyze(
            [
                sample(.watch, utc.t("2025-02-03 08:00"), utc.t("2025-02-03 08:00"), 61, type: T.heartRate),
                sample(.phone, utc, "2025-02-05 10:00", "2025-02-05 10:10", 0),
            ], options: options)
        #expect(r.days.map(\.date) == [day("2025-02-03"), day("2025-02-04"), day("2025-02-05")])
        let d = try #require(r.day("2025-02-03"))
        #expect(d.steps == nil && d.activeEnergyKcal == nil && d.standHours == nil && d.exerciseMinutes == nil)
        #expect(r.day("2025-02-04")?.heartRateAvgBpm == nil)
        #expect(r.day("2025-02-05")?.steps == 0)  // a zero-valued sample is data
    }

    @Test func restingHeartRateIsTheTopSourcesLatestValueOfTheDay() throws {
        // Watch 55 at 07:00 and 58 at 09:00; an app 50 at 10:00 (lower priority) → 58.
        let r = try analyze(
            [
                sample(.watch, utc.t("2025-02-03 07:00"), utc.t("2025-02-03 07:00"), 55, type: T.restingHeartRate),
                sample(.watch, utc.t("2025-02-03 09:00"), utc.t("2025-02-03 09:00"), 58, type: T.restingHeartRate),
                sample(.app, utc.t("2025-02-03 10:00"), utc.t("2025-02-03 10:00"), 50, type: T.restingHeartRate),
            ], options: options)
        #expect(r.day("2025-02-03")?.restingHeartRateBpm == 58)
    }

    @Test func vo2MaxAndBodyMassAreOnceADayTypesTooWithManualEntriesFirst() throws {
        // Body mass: a smart scale (other app) 72.4 at 07:00 and 72.0 at 20:00, and a manual
        // entry 71.5 at 08:00. Manual ranks first, so the day's value is 71.5 although the scale
        // wrote later. VO2 max: the Watch 41.2 at 18:00 beats an app's 45.0 at 19:00.
        let r = try analyze(
            [
                sample(.app, utc.t("2025-02-03 07:00"), utc.t("2025-02-03 07:00"), 72.4, type: T.bodyMass),
                sample(.app, utc.t("2025-02-03 20:00"), utc.t("2025-02-03 20:00"), 72.0, type: T.bodyMass),
                sample(
                    .app, utc.t("2025-02-03 08:00"), utc.t("2025-02-03 08:00"), 71.5, type: T.bodyMass, manual: true),
                sample(.watch, utc.t("2025-02-03 18:00"), utc.t("2025-02-03 18:00"), 41.2, type: T.vo2Max),
                sample(.app, utc.t("2025-02-03 19:00"), utc.t("2025-02-03 19:00"), 45.0, type: T.vo2Max),
                sample(.app, utc.t("2025-02-04 07:00"), utc.t("2025-02-04 07:00"), 72.2, type: T.bodyMass),
            ], options: options)
        #expect(r.day("2025-02-03")?.bodyMassKg == 71.5)
        #expect(r.day("2025-02-03")?.vo2MaxMlPerMinKg == 41.2)
        #expect(r.day("2025-02-04")?.bodyMassKg == 72.2)
        #expect(r.day("2025-02-04")?.vo2MaxMlPerMinKg == nil)
    }

    @Test func workoutsCountOnTheLocalDayTheyStartAndTheSameSessionFromTwoSourcesOnce() throws {
        // Tokyo (UTC+9): a Watch walk 23:30–00:30 local (45 min without pauses) starts on
        // 02-03; a running app's copy 23:31–00:29 is the same session (overlap ≥ half) → one
        // workout of 45 min. A second Watch workout 10:00–10:20 on 02-04 without a duration
        // counts its 20 minutes.
        let tokyo = Clock(zone: "Asia/Tokyo")
        let r = try analyze(
            [sample(.watch, tokyo, "2025-02-03 12:00", "2025-02-03 12:10", 100)],
            workouts: [
                workout(.watch, tokyo.t("2025-02-03 23:30"), tokyo.t("2025-02-04 00:30"), minutes: 45),
                workout(.app, tokyo.t("2025-02-03 23:31"), tokyo.t("2025-02-04 00:29"), minutes: 58),
                workout(.watch, tokyo.t("2025-02-04 10:00"), tokyo.t("2025-02-04 10:20"), minutes: nil),
            ],
            options: AnalysisOptions(timeZoneIdentifier: "Asia/Tokyo"))
        #expect(r.day("2025-02-03")?.workouts == 1)
        #expect(r.day("2025-02-03")?.workoutMinutes == 45)
        #expect(r.day("2025-02-04")?.workouts == 1)
        #expect(close(r.day("2025-02-04")?.workoutMinutes, 20))
    }

    @Test func workoutDeduplicationComparesEveryOverlappingCandidate() throws {
        // Three sources, sorted by priority Watch > iPhone > app:
        // Watch A 10:00–10:30 (30 min) and Watch B 10:40–11:40 (60 min);
        // iPhone 10:35–11:35 overlaps B by 55 of 60 min → duplicate;
        // app 10:05–10:25 lies inside A → duplicate; app 12:00–12:10 overlaps nothing → counted;
        // app 10:28–10:42 overlaps A by 2 and B by 2 of its 14 min → counted.
        // → 4 workouts: 30 + 60 + 10 + 14 = 114 min.
        let r = try analyze(
            [sample(.watch, utc, "2025-02-03 09:00", "2025-02-03 09:01", 1)],
            workouts: [
                workout(.app, utc.t("2025-02-03 10:05"), utc.t("2025-02-03 10:25"), minutes: 20),
                workout(.watch, utc.t("2025-02-03 10:40"), utc.t("2025-02-03 11:40"), minutes: 60),
                workout(.phone, utc.t("2025-02-03 10:35"), utc.t("2025-02-03 11:35"), minutes: 60),
                workout(.app, utc.t("2025-02-03 12:00"), utc.t("2025-02-03 12:10"), minutes: 10),
                workout(.watch, utc.t("2025-02-03 10:00"), utc.t("2025-02-03 10:30"), minutes: 30),
                workout(.app, utc.t("2025-02-03 10:28"), utc.t("2025-02-03 10:42"), minutes: 14),
            ],
            options: options)
        #expect(r.day("2025-02-03")?.workouts == 4)
        #expect(r.day("2025-02-03")?.workoutMinutes == 114)
        var o = options
        o.deduplicate = false
        let plain = try analyze(
            [],
            workouts: [
                workout(.watch, utc.t("2025-02-03 10:00"), utc.t("2025-02-03 10:30"), minutes: 30),
                workout(.app, utc.t("2025-02-03 10:05"), utc.t("2025-02-03 10:25"), minutes: 20),
                workout(.app, utc.t("2025-02-03 10:05"), utc.t("2025-02-03 10:25"), minutes: 20),
            ], options: o)
        // --no-dedup keeps overlapping sessions of different sources; the exact copy still goes.
        #expect(plain.day("2025-02-03")?.workouts == 2)
    }

    @Test func symbolTablesAndNamesGiveTheSameResult() throws {
        // The reader sets typeSymbol/sourceSymbol; hand-built records leave them -1.
        var withSymbols = InvariantsTests.mixed
        let types = Array(Set(withSymbols.map(\.type))).sorted()
        let names = Array(Set(withSymbols.map(\.sourceName))).sorted()
        for i in withSymbols.indices {
            withSymbols[i].typeSymbol = Int32(types.firstIndex(of: withSymbols[i].type)!)
            withSymbols[i].sourceSymbol = Int32(names.firstIndex(of: withSymbols[i].sourceName)!)
        }
        let a = try analyze(InvariantsTests.mixed, options: options)
        let b = try analyze(withSymbols, options: options)
        #expect(a.days == b.days)
        #expect(a.sources == b.sources)
    }
}

@Suite("ActivitySummary cross-check and streaks")
struct CrossCheckTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    /// Watch energy 500 kcal, exercise 30 min, 10 stand hours on 2025-02-03.
    func records() -> [Record] {
        var r = [sample(.watch, utc, "2025-02-03 10:00", "2025-02-03 10:30", 500, type: T.activeEnergy)]
        let t = utc.t("2025-02-03 11:00")
        r += (0..<30).map { k in sample(.watch, t + Int64(k) * 60, t + Int64(k + 1) * 60, 1, type: T.exercise) }
        r += (8..<18).map { h in standHour(.watch, utc.t("2025-02-03 00:00") + Int64(h) * 3600) }
        return r
    }

    @Test(arguments: [
        // summary (energy, exercise, stand) → disagreeing metrics
        (504.9, 31.0, 10.0, [SummaryDisagreement.Metric]()),  // energy within 1 % (5 kcal), exercise within 1 min
        (506.0, 30.0, 10.0, [.moveKcal]),  // 6 kcal > 1 % of 506 (5.06)
        (500.0, 32.0, 10.0, [.exerciseMinutes]),
        (500.0, 30.0, 11.0, [.standHours]),  // stand must be exact
        (80.5, 30.0, 10.0, [.moveKcal]),
    ])
    func disagreementsBeyondTheTolerancesAreListed(
        energy: Double, exercise: Double, stand: Double, metrics: [SummaryDisagreement.Metric]
    )
        throws
    {
        let r = try analyze(
            records(),
            summaries: [
                summary(
                    "2025-02-03", moveKcal: energy, moveGoal: 400, exercise: exercise, exerciseGoal: 30, stand: stand,
                    standGoal: 12)
            ],
            options: options)
        #expect(r.crossCheck.daysCompared == 1)
        #expect(r.crossCheck.daysAgreeing == (metrics.isEmpty ? 1 : 0))
        #expect(r.crossCheck.disagreements.map(\.metric) == metrics)
    }

    @Test func smallEnergyTolerateOneKilocalorie() throws {
        // 1 % of 50 is 0.5, but the tolerance is max(1 kcal, 1 %): 50 vs 50.9 agrees.
        let r = try analyze(
            [sample(.watch, utc, "2025-02-03 10:00", "2025-02-03 10:30", 50, type: T.activeEnergy)],
            summaries: [summary("2025-02-03", moveKcal: 50.9, moveGoal: 400)], options: options)
        #expect(r.crossCheck.disagreements.isEmpty)
        #expect(r.crossCheck.daysAgreeing == 1)
    }

    @Test func summaryOfZerosBeforeTheWatchWasWornIsCountedApart() throws {
        let r = try analyze(
            records(),
            summaries: [
                summary(
                    "2025-02-01", moveKcal: 0, moveGoal: 400, exercise: 0, exerciseGoal: 30, stand: 0, standGoal: 12)
            ],
            options: options)
        // No ring record that day (the Watch wrote nothing): the day is counted apart, neither
        // agreeing nor disagreeing, and the count is "no data", not 0 rings closed.
        #expect(r.crossCheck.daysCompared == 0 && r.crossCheck.daysWithoutRingRecords == 1)
        #expect(r.crossCheck.disagreements.isEmpty)
        #expect(r.day("2025-02-01")?.ringsClosed == nil)
    }

    @Test func longestStreakOfAllRingsClosed() throws {
        // Rings closed on 02-03, 02-04, 02-05 (goals 1/1/1 met), not on 02-06 (goal 2 kcal
        // unmet), again on 02-07 → longest streak 3 days, 02-03 … 02-05.
        var records: [Record] = []
        var summaries: [ActivitySummary] = []
        for d in 3...7 {
            let date = "2025-02-0\(d)"
            records.append(sample(.watch, utc, "\(date) 10:00", "\(date) 10:01", 1, type: T.activeEnergy))
            records.append(sample(.watch, utc, "\(date) 10:00", "\(date) 10:01", 1, type: T.exercise))
            records.append(standHour(.watch, utc, "\(date) 10:00"))
            summaries.append(
                summary(
                    date, moveKcal: 1, moveGoal: d == 6 ? 2 : 1, exercise: 1, exerciseGoal: 1, stand: 1, standGoal: 1))
        }
        let r = try analyze(records, summaries: summaries, options: options)
        #expect(r.longestAllRingsStreak == RingStreak(days: 3, first: day("2025-02-03"), last: day("2025-02-05")))
        #expect(r.day("2025-02-06")?.ringsClosed == 2)
    }
}

import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Workout rows (docs/export-format.md §7.7)")
struct WorkoutRowsTests {
    let berlin = Clock(zone: "Europe/Berlin")
    let options = AnalysisOptions(timeZoneIdentifier: "Europe/Berlin")
    static let strava = TestSource(name: "Strava")

    func make(
        _ source: TestSource, _ start: String, _ end: String, type: String = "HKWorkoutActivityTypeRunning",
        minutes: Double? = nil, totalKm: Double? = nil, totalKcal: Double? = nil, statistics: [WorkoutStatistics] = [],
        activities: [WorkoutActivity] = [], routes: [String] = []
    ) -> Workout {
        let s = berlin.ts(start)
        let e = berlin.ts(end)
        return Workout(
            activityType: type, durationMinutes: minutes, totalDistanceKm: totalKm, totalEnergyBurnedKcal: totalKcal,
            attributes: SampleAttributes(sourceName: source.name, device: source.device, startDate: s, endDate: e),
            statistics: statistics,
            activities: activities,
            routes: routes.isEmpty
                ? []
                : [
                    WorkoutRoute(
                        attributes: SampleAttributes(sourceName: source.name, startDate: s, endDate: e),
                        filePaths: routes)
                ])
    }

    func stat(_ type: String, sum: Double? = nil, average: Double? = nil, maximum: Double? = nil, _ unit: CanonicalUnit)
        -> WorkoutStatistics
    {
        WorkoutStatistics(
            type: "HKQuantityTypeIdentifier" + type, startDate: berlin.ts("2025-06-01 18:00"),
            endDate: berlin.ts("2025-06-01 18:45"), sum: sum, average: average, maximum: maximum, unit: unit)
    }

    @Test func statisticsComeFirstAndTheOldTotalsAreTheFallback() throws {
        // The first run has both: statistics 5.2 km / 400 kcal win over the attributes 5.0 / 380.
        // The second (an older export) has the attributes only: 7.5 km / 520 kcal.
        let r = try analyze(
            [],
            workouts: [
                make(
                    .watch, "2025-06-01 18:00", "2025-06-01 18:45", minutes: 40, totalKm: 5.0, totalKcal: 380,
                    statistics: [
                        stat("DistanceWalkingRunning", sum: 5.2, .kilometre),
                        stat("ActiveEnergyBurned", sum: 400, .kilocalorie),
                        stat("HeartRate", average: 151.5, maximum: 172, .countPerMinute),
                    ]),
                make(.watch, "2025-06-03 07:00", "2025-06-03 08:00", minutes: 58, totalKm: 7.5, totalKcal: 520),
            ], options: options)
        #expect(r.workouts.count == 2)
        let a = r.workouts[0]
        #expect(a.distanceKm == 5.2 && a.activeEnergyKcal == 400)
        #expect(a.heartRateAvgBpm == 151.5 && a.heartRateMaxBpm == 172)
        // Paused: 40 active minutes of 45 elapsed.
        #expect(a.durationMinutes == 40 && a.elapsedMinutes == 45)
        #expect(a.start.description == "2025-06-01T18:00:00+02:00" && a.activity == "Running")
        let b = r.workouts[1]
        #expect(b.distanceKm == 7.5 && b.activeEnergyKcal == 520 && b.heartRateAvgBpm == nil)
    }

    @Test func aMultisportWorkoutsLegsAreNotAddedAgain() throws {
        // Parent statistics 10 km / 700 kcal; legs of 4 + 6 km. The row says 10 km, not 20.
        let leg1 = WorkoutActivity(
            startDate: berlin.ts("2025-06-01 18:00"), statistics: [stat("DistanceCycling", sum: 4, .kilometre)])
        let leg2 = WorkoutActivity(
            startDate: berlin.ts("2025-06-01 18:20"), statistics: [stat("DistanceWalkingRunning", sum: 6, .kilometre)])
        let r = try analyze(
            [],
            workouts: [
                make(
                    .watch, "2025-06-01 18:00", "2025-06-01 18:45", type: "HKWorkoutActivityTypeSwimBikeRun",
                    minutes: 45,
                    statistics: [
                        stat("DistanceCycling", sum: 4, .kilometre), stat("DistanceWalkingRunning", sum: 6, .kilometre),
                        stat("ActiveEnergyBurned", sum: 700, .kilocalorie),
                    ], activities: [leg1, leg2])
            ], options: options)
        let w = try #require(r.workouts.first)
        #expect(w.distanceKm == 10 && w.activeEnergyKcal == 700 && w.legs == 2 && w.activity == "Swim Bike Run")
    }

    @Test func aSessionDuplicatedByAnAppIsShownButCountedOnce() throws {
        // The Watch 18:00–18:45 and Strava 18:00:20–18:44:45 (overlap 44:25 ≥ half of the shorter
        // 44:25): Strava's row is a duplicate of the Watch's; the day has 1 workout of 40 min.
        let r = try analyze(
            [],
            workouts: [
                make(
                    Self.strava, "2025-06-01 18:00:20", "2025-06-01 18:44:45", minutes: 41, totalKm: 6.1, totalKcal: 390
                ),
                make(.watch, "2025-06-01 18:00", "2025-06-01 18:45", minutes: 40),
            ], options: options)
        #expect(r.workouts.map(\.source) == ["Alex’s Apple Watch", "Strava"])
        #expect(!r.workouts[0].isDuplicate && r.workouts[1].isDuplicate && r.workouts[1].duplicateOf == 0)
        #expect(r.day("2025-06-01")?.workouts == 1 && r.day("2025-06-01")?.workoutMinutes == 40)
        // Without de-duplication both count.
        let plain = try analyze(
            [],
            workouts: [
                make(Self.strava, "2025-06-01 18:00:20", "2025-06-01 18:44:45", minutes: 41),
                make(.watch, "2025-06-01 18:00", "2025-06-01 18:45", minutes: 40),
            ], options: AnalysisOptions(timeZoneIdentifier: "Europe/Berlin", deduplicate: false))
        #expect(plain.workouts.allSatisfy { !$0.isDuplicate } && plain.day("2025-06-01")?.workouts == 2)
    }

    @Test func withoutADurationThePausesComeFromTheEvents() throws {
        // 18:00–18:45 (45 min elapsed), no duration attribute: paused 18:10:00–18:12:30 (2.5 min)
        // and motion-paused 18:30:00–18:31:00 (1 min) → 45 − 3.5 = 41.5 active minutes.
        var w = make(.watch, "2025-06-01 18:00", "2025-06-01 18:45")
        w.events = [
            WorkoutEvent(type: "HKWorkoutEventTypePause", date: berlin.ts("2025-06-01 18:10")),
            WorkoutEvent(type: "HKWorkoutEventTypeResume", date: berlin.ts("2025-06-01 18:12:30")),
            WorkoutEvent(type: "HKWorkoutEventTypeLap", date: berlin.ts("2025-06-01 18:20")),
            WorkoutEvent(type: "HKWorkoutEventTypeMotionPaused", date: berlin.ts("2025-06-01 18:30")),
            WorkoutEvent(type: "HKWorkoutEventTypeMotionResumed", date: berlin.ts("2025-06-01 18:31")),
        ]
        let r = try analyze([], workouts: [w], options: options)
        #expect(r.workouts.first?.durationMinutes == 41.5 && r.workouts.first?.elapsedMinutes == 45)
        // Neither a duration nor events: the active time is unknown (empty), not the elapsed time.
        let bare = try analyze([], workouts: [make(.watch, "2025-06-01 18:00", "2025-06-01 18:45")], options: options)
        #expect(bare.workouts.first?.durationMinutes == nil)
    }

    @Test func whatWasNotMeasuredIsEmptyNotZero() throws {
        let r = try analyze(
            [],
            workouts: [
                make(
                    .watch, "2025-06-02 12:00", "2025-06-02 12:30",
                    type: "HKWorkoutActivityTypeFunctionalStrengthTraining",
                    minutes: 30, statistics: [stat("ActiveEnergyBurned", sum: 180, .kilocalorie)])
            ], options: options)
        let w = try #require(r.workouts.first)
        #expect(w.distanceKm == nil && w.heartRateAvgBpm == nil && w.activeEnergyKcal == 180)
        #expect(w.activity == "Functional Strength Training" && w.routeFiles.isEmpty)
    }

    @Test func routesAndUnknownActivityTypesAreKept() throws {
        let r = try analyze(
            [],
            workouts: [
                make(
                    .watch, "2025-06-02 07:00", "2025-06-02 07:30", type: "HKWorkoutActivityTypeUnderwaterHockey",
                    minutes: 30, routes: ["/workout-routes/route_2025-06-02_7.00am.gpx"]),
                make(.watch, "2025-06-03 07:00", "2025-06-03 07:30", type: "Zumba3000", minutes: 30),
            ], options: options)
        #expect(r.workouts.map(\.activity) == ["Underwater Hockey", "Zumba3000"])
        #expect(r.workouts[0].routeFiles == ["/workout-routes/route_2025-06-02_7.00am.gpx"])
    }
}

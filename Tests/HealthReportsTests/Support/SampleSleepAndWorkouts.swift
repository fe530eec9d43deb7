import HealthExport
import HealthReports

@testable import HealthAnalysis

// The sample result with nights, a nap and workouts (hand-built rows, as the analysis would give
// them): a staged Watch night, an app's night without stages, a nap; a run with a route in the
// export, its duplicate from a phone app, a walk whose route file is missing, strength training
// without distance. Zone: Europe/Berlin in January (+01:00).

func berlin(_ epoch: Int64) -> LocalTime { LocalTime(secondsSince1970: epoch, utcOffsetSeconds: 3600) }

/// 2025-01-05 00:00 +01:00.
let jan5: Int64 = 1_736_031_600

func makeSleepAndWorkoutResult() -> AnalysisResult {
    var result = makeSampleResult()
    var night = SleepNight(night: date("2025-01-05"), isNap: false)
    night.source = watch
    night.bedtime = berlin(jan5 - 3600 + 120)
    night.wakeTime = berlin(jan5 + 6 * 3600 + 1800)
    (night.asleepMinutes, night.coreMinutes, night.deepMinutes, night.remMinutes) = (418.5, 250, 80.5, 88)
    (night.awakeMinutes, night.inBedMinutes, night.sourceCount) = (6.25, 455, 2)
    var app = SleepNight(night: date("2025-01-06"), isNap: false)
    app.source = band
    app.bedtime = berlin(jan5 + 86_400 - 1800)
    app.wakeTime = berlin(jan5 + 86_400 + 7 * 3600)
    (app.asleepMinutes, app.unspecifiedMinutes, app.sourceCount) = (444, 444, 1)
    var nap = SleepNight(night: date("2025-01-06"), isNap: true)
    nap.source = watch
    nap.bedtime = berlin(jan5 + 86_400 + 14 * 3600)
    nap.wakeTime = berlin(jan5 + 86_400 + 14 * 3600 + 2100)
    (nap.asleepMinutes, nap.coreMinutes, nap.deepMinutes, nap.remMinutes, nap.awakeMinutes, nap.sourceCount) = (
        35, 35, 0, 0, 0, 1
    )
    result.sleep = [night, app, nap]

    let runStart = jan5 + 18 * 3600
    var run = WorkoutRow(
        start: berlin(runStart), end: berlin(runStart + 2700), activityType: "HKWorkoutActivityTypeRunning",
        activity: "Running", source: watch, elapsedMinutes: 45)
    (run.durationMinutes, run.distanceKm, run.activeEnergyKcal) = (42.25, 7.4321, 512.34)
    (run.heartRateAvgBpm, run.heartRateMaxBpm) = (151.25, 172)
    run.routeFiles = ["/workout-routes/route_2025-01-05_6.00pm.gpx"]
    var copy = WorkoutRow(
        start: berlin(runStart + 20), end: berlin(runStart + 2685), activityType: "HKWorkoutActivityTypeRunning",
        activity: "Running", source: band, elapsedMinutes: 44.4166)
    (copy.durationMinutes, copy.distanceKm, copy.activeEnergyKcal) = (41.9, 7.5, 470)
    (copy.isDuplicate, copy.duplicateOf) = (true, 0)
    let walkStart = jan5 + 2 * 86_400 + 12 * 3600
    var walk = WorkoutRow(
        start: berlin(walkStart), end: berlin(walkStart + 1800), activityType: "HKWorkoutActivityTypeWalking",
        activity: "Walking", source: watch, elapsedMinutes: 30)
    (walk.durationMinutes, walk.distanceKm, walk.activeEnergyKcal) = (30, 2.5, 150)
    walk.routeFiles = ["/workout-routes/route_2025-01-07_12.00pm.gpx"]
    var strength = WorkoutRow(
        start: berlin(walkStart + 6 * 3600), end: berlin(walkStart + 6 * 3600 + 1500),
        activityType: "HKWorkoutActivityTypeFunctionalStrengthTraining", activity: "Functional Strength Training",
        source: watch, elapsedMinutes: 25)
    (strength.durationMinutes, strength.activeEnergyKcal) = (25, 160)
    result.workouts = [run, copy, walk, strength]
    return result
}

/// The route index of that export: the run's GPX is there, the walk's is missing.
func makeSampleRoutes() -> RouteFileIndex {
    RouteFileIndex(
        files: [
            "/workout-routes/route_2025-01-05_6.00pm.gpx": .success(
                RouteSummary(pointCount: 270, distanceKm: 7.3912, elevationGainM: 41.26))
        ], location: "export.zip")
}

import Testing

@testable import SyntheticExport

@Suite("Extended health data (sleep sources, workouts, routes, body measures)")
struct ExtendedDataTests {
    static let config = SyntheticExportConfiguration(
        firstDay: "2025-09-29", days: 35, timeZoneIdentifier: "Europe/Berlin", extendedHealthData: true)
    static let export = SyntheticExport.makeExport(config)
    static var xml: String { String(decoding: export.bytes, as: UTF8.self) }

    @Test func theDefaultConfigurationWritesNoneOfIt() {
        let (bytes, truth) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(firstDay: "2025-09-29", days: 14, timeZoneIdentifier: "Europe/Berlin"))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            !text.contains("sourceName=\"AutoSleep") && !text.contains("<WorkoutActivity uuid")
                && !text.contains("type=\"HKQuantityTypeIdentifierRespiratoryRate"))
        #expect(truth.extended == SyntheticExtendedTruth())
        #expect(truth.recordCounts["HKQuantityTypeIdentifierBodyMass"] == nil)
        // The time-weighted heart rate is always known.
        #expect(truth.heartRateTimeWeightedMeanBpm.count == 14)
    }

    @Test func nightsComeFromTheTopSourceWithAsleepSamples() throws {
        let sleep = Self.export.truth.extended.sleep
        // Day 4's night (the Watch on the charger, wake-up 2025-10-04): AutoSleep's legacy values.
        let charger = try #require(sleep.first { $0.night == "2025-10-04" && !$0.isNap })
        #expect(charger.source == "AutoSleep")
        #expect(charger.coreMinutes == nil && charger.deepMinutes == nil && charger.awakeMinutes == nil)
        // Two intervals with a 6-minute gap: asleep = the InBed span − 25 − 6 − 5 minutes, rounded
        // to the minute at the midpoint.
        #expect(charger.unspecifiedMinutes == charger.asleepMinutes)
        #expect(charger.inBedMinutes! - charger.asleepMinutes >= 36 - 1)
        #expect(charger.inBedMinutes! - charger.asleepMinutes <= 36 + 1)
        // Day 7's night has AutoSleep beside the Watch: the Watch (higher priority) wins.
        let both = try #require(sleep.first { $0.night == "2025-10-07" && !$0.isNap })
        #expect(both.source == "Alex\u{2019}s Apple Watch")
        #expect(both.asleepMinutes == both.coreMinutes! + both.deepMinutes! + both.remMinutes!)
        #expect(Self.xml.contains("HKCategoryValueSleepAnalysisAsleep\""))
    }

    @Test func napsAreTheirOwnRows() throws {
        // Index 5 (Saturday 2025-10-04): a 35-minute Watch nap at 14:10.
        let nap = try #require(Self.export.truth.extended.sleep.first { $0.isNap })
        #expect(nap.night == "2025-10-04" && nap.asleepMinutes == 35 && nap.coreMinutes == 35)
        #expect(Self.export.truth.extended.sleep.filter(\.isNap).count == 5)  // indices 5, 12, 19, 26, 33
    }

    @Test func workoutsCoverEveryShape() {
        let workouts = Self.export.truth.extended.workouts
        #expect(workouts.contains { $0.legCount == 2 && $0.activityType == "HKWorkoutActivityTypeSwimBikeRun" })
        #expect(workouts.contains { $0.isDuplicate && $0.source == "Strava" })
        #expect(workouts.contains { $0.routeFile != nil && !$0.routeInZip })
        #expect(workouts.contains { $0.routeInZip })
        #expect(workouts.contains { $0.distanceKm == nil })  // strength training
        #expect(workouts.allSatisfy { $0.durationMinutes <= $0.elapsedMinutes })
        // Every route in the zip is referenced by exactly one workout.
        let referenced = Set(workouts.filter(\.routeInZip).compactMap(\.routeFile))
        #expect(Set(Self.export.truth.extended.routes.map(\.fileName)) == referenced)
    }

    @Test func routeFilesHoldWhatTheTruthSays() throws {
        let route = try #require(Self.export.truth.extended.routes.first)
        let text = String(decoding: route.gpx, as: UTF8.self)
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == route.pointCount)
        // Points every 10 s at 3 m/s (running) or 1.5 m/s: about 30 or 15 m apart.
        let perPoint = route.distanceKm * 1000 / Double(route.pointCount - 1)
        #expect(perPoint > 14 && perPoint < 31)
    }

    @Test func bodyMeasuresArePerDay() {
        let v = Self.export.truth.extended.vitals
        #expect(v.count == 35)
        #expect(v[0].bodyMassKg != nil && v[1].bodyMassKg == nil && v[3].bodyMassKg != nil)
        #expect(v.filter { $0.respiratoryRateMean != nil }.count >= 30)
        #expect(v.compactMap(\.oxygenSaturationMeanPercent).allSatisfy { $0 >= 93 && $0 <= 99 })
        #expect(v[3].bloodPressureSystolic != nil)  // index 3: a blood-pressure reading (i % 9 == 3)
    }
}

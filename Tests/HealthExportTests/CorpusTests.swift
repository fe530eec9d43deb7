import Foundation
import HealthExport
import Testing

/// The public sample exports in `../shared/corpus` (other projects' test data, read where they
/// are; see ../shared/corpus/SOURCES.md). Every count below was read off the files by hand.
@Suite(
    "Public sample exports",
    .enabled(if: corpusAvailable, "../shared/corpus is not beside this clone; corpus tests skipped"))
struct CorpusTests {
    @Test func healthkitToSQLiteHandMadeExport() throws {
        let r = try readAll(.path(corpus("healthkit-to-sqlite/tests/export.xml")))
        // 2019-07-19 10:36:11 -0700 = 17:36:11 UTC = 1 563 557 771.
        #expect(r.summary.exportDate?.secondsSince1970 == 1_563_557_771)
        #expect(r.summary.exportVersion == nil)  // no DOCTYPE
        #expect(r.summary.me?.dateOfBirth == "1990-02-02")
        #expect(
            r.records.map(\.type) == ["HKQuantityTypeIdentifierBodyMassIndex", "HKQuantityTypeIdentifierHeartRate"])
        let bmi = r.records[0]
        #expect(bmi.quantity?.value == 22.5312)
        #expect(bmi.metadata.count == 5)
        #expect(
            bmi.metadata.value(for: "Withings Link")
                == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")
        #expect(!bmi.wasUserEntered)  // HKWasUserEntered="0"
        let hr = r.records[1]
        #expect(hr.quantity?.value == 72)
        #expect(hr.device?.manufacturer == "Apple")
        #expect(hr.device?.hardware == "Watch2,4")
        #expect(r.workouts.count == 1)
        let w = r.workouts[0]
        #expect(w.activityType == "HKWorkoutActivityTypeRunning")
        #expect(w.durationMinutes == 5.19412346680959)
        #expect(w.totalDistanceKm == 0.4971749504535062 * 1.609344)  // the old attributes, in miles
        #expect(w.totalEnergyBurnedKcal == 48.74499999999999)
        #expect(w.timeZoneIdentifier == "America/Los_Angeles")
        #expect(w.routes.count == 1)
        #expect(w.routes[0].sourceName == "Simon\u{2019}s iPhone")
        #expect(w.routes[0].locations.count == 2)  // the legacy inline route
        #expect(w.routes[0].locations[0].latitude == 37.7777)
        #expect(w.routes[0].locations[0].speed == 2.48034)
        #expect(r.activitySummaries.map(\.date.description) == ["2016-11-15", "2016-11-16"])
        #expect(r.activitySummaries[0].activeEnergyBurnedKcal == 590.252)
        #expect(r.activitySummaries[0].appleExerciseTimeMinutes == 68)
        #expect(r.activitySummaries[0].appleStandHours == 13)
        #expect(r.activitySummaries[0].appleMoveTimeMinutes == nil)
        #expect(r.summary.diagnostics.isEmpty)
    }

    @Test func healthkitToSQLiteUnzippedFolderWithARouteFile() throws {
        // The folder holding apple_health_export/ is given, as a user who unzipped would.
        let r = try readAll(.path(corpus("healthkit-to-sqlite/tests/zip_contents")))
        #expect(r.summary.inputName.hasSuffix("zip_contents/apple_health_export/export.xml"))
        #expect(r.records.count == 2)
        #expect(r.workouts.first?.routes.first?.filePaths == ["/workout-routes/route_2019-06-11_3.00pm.gpx"])
        #expect(r.workouts.first?.routes.first?.locations.isEmpty == true)
        #expect(r.activitySummaries.count == 2)
    }

    @Test func appleHealthParserModernExcerpt() throws {
        let r = try readAll(.path(corpus("apple-health-parser/tests/data/export.xml")))
        // 2024-06-01 08:10:05 +0200 = 06:10:05 UTC = 1 717 222 205.
        #expect(r.summary.exportDate?.secondsSince1970 == 1_717_222_205)
        #expect(r.summary.locale == "en_NL")
        #expect(r.summary.me?.cardioFitnessMedicationsUse == "None")
        var byType: [String: Int] = [:]
        for rec in r.records { byType[rec.type, default: 0] += 1 }
        #expect(
            byType == [
                "HKQuantityTypeIdentifierHeartRate": 2, "HKQuantityTypeIdentifierActiveEnergyBurned": 2,
                "HKQuantityTypeIdentifierAppleExerciseTime": 1, "HKQuantityTypeIdentifierAppleStandTime": 1,
                "HKCategoryTypeIdentifierSleepAnalysis": 2,
            ])
        #expect(r.records.filter { $0.sourceName == "Alexandre's Apple Watch" }.count == 7)
        #expect(r.records.filter { $0.sourceName == "Alexandre's iPhone" }.count == 1)
        let energy = r.records.filter { $0.type == "HKQuantityTypeIdentifierActiveEnergyBurned" }.compactMap {
            $0.quantity?.value
        }
        #expect(energy == [0.12, 0.08])
        let stand = r.records.first { $0.type == "HKQuantityTypeIdentifierAppleStandTime" }
        #expect(stand?.quantity?.value == 2)
        #expect(stand?.device == nil)
        let sleep = r.records.filter { $0.type == "HKCategoryTypeIdentifierSleepAnalysis" }.compactMap(\.categoryValue)
        #expect(sleep == [.sleepAnalysis(.inBed), .sleepAnalysis(.asleepCore)])
        #expect(r.summary.timeZoneCounts == ["Europe/Amsterdam": 2])
        #expect(r.records[0].device?.model == "Watch")
        #expect(r.records[0].metadata == [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0")])
    }

    @Test func appleHealthParserMacRezippedArchive() throws {
        // The zip holds apple_health_export/, .DS_Store and __MACOSX/._* entries (re-zipped on a Mac).
        let zip = try readAll(.path(corpus("apple-health-parser/tests/data/export.zip")))
        let xml = try readAll(.path(corpus("apple-health-parser/tests/data/export.xml")))
        #expect(zip.summary.inputName.hasSuffix("export.zip:apple_health_export/export.xml"))
        #expect(zip.dump == xml.dump)
        #expect(zip.records.count == 8)
    }

    @Test func alekSiRussianExport() throws {
        let r = try readAll(.path(corpus("aleksi-applehealth/testdata/testdata.xml")), chunkSize: 1)
        #expect(r.summary.locale == "ru_RU")
        // 2019-12-26 08:20:53 +0300 = 05:20:53 UTC = 1 577 337 653.
        #expect(r.summary.exportDate?.secondsSince1970 == 1_577_337_653)
        #expect(r.summary.me?.biologicalSex == "HKBiologicalSexFemale")
        #expect(r.records.count == 2)
        #expect(r.records[0].type == "HKQuantityTypeIdentifierHeight")
        #expect(r.records[0].quantity?.value == 168 * 0.00001)  // cm → km, the canonical length
        #expect(r.records[0].quantity?.originalUnit == "cm")
        #expect(r.records[0].metadata.value(for: "Original Source") == "MyWatch")
        #expect(r.records[1].sourceName == "Здоровье")
        #expect(r.records[1].quantity?.value == 65)
        #expect(r.records[1].wasUserEntered)
    }
}

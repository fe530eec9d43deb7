import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Source classes and priority")
struct SourcePriorityTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    @Test func namesWithNoBreakSpacesAreClassifiedLikeTheirPlainSpelling() {
        // Real exports write "Apple\u{00A0}Watch"; without a device string only the name tells.
        #expect(SourceFacts(name: "Apple\u{00A0}Watch").sourceClass == .watch)
        #expect(SourceFacts(name: "Alex\u{2019}s Apple\u{202F}Watch").sourceClass == .watch)
        #expect(SourceFacts(name: "Apple Watcher").sourceClass == .other)
    }

    @Test func iPhoneWalkBeforeTheWatchIsPutOnIsKept() throws {
        // 07:00–07:30 only the iPhone (2 000); 07:30–08:00 both: iPhone 1 500, Watch 1 600
        // in 1-minute samples of 53⅓. The Watch wins where it has data:
        // 2 000 + 1 600 = 3 600.
        var records = [
            sample(.phone, utc, "2025-02-03 07:00", "2025-02-03 07:30", 2000),
            sample(.phone, utc, "2025-02-03 07:30", "2025-02-03 08:00", 1500),
        ]
        let t = utc.t("2025-02-03 07:30")
        records += (0..<30).map { k in sample(.watch, t + Int64(k) * 60, t + Int64(k + 1) * 60, 1600.0 / 30) }
        let r = try analyze(records, options: options)
        #expect(close(r.day("2025-02-03")?.steps, 3600, tolerance: 1e-3))
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.countedTotal, 2000, tolerance: 1e-3))
    }

    @Test func watchAndIPhoneOverTheSameWalkCountOnce() throws {
        // Watch 10:00–10:30 in 1-minute samples of 100 (3 000); the iPhone saw the same walk
        // as 950 + 1 020 + 980 = 2 950 in three 10-minute samples. Counted once: 3 000.
        let t = utc.t("2025-02-03 10:00")
        var records = (0..<30).map { k in sample(.watch, t + Int64(k) * 60, t + Int64(k + 1) * 60, 100) }
        records += [
            sample(.phone, utc, "2025-02-03 10:00", "2025-02-03 10:10", 950),
            sample(.phone, utc, "2025-02-03 10:10", "2025-02-03 10:20", 1020),
            sample(.phone, utc, "2025-02-03 10:20", "2025-02-03 10:30", 980),
        ]
        let r = try analyze(records, options: options)
        #expect(close(r.day("2025-02-03")?.steps, 3000))
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.countedTotal, 0))
        #expect(r.contribution(T.steps, TestSource.phone.name)?.samples == 3)
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.rawTotal, 2950))
    }

    @Test func defaultOrderIsManualThenWatchThenPhoneThenNewestOtherSourceFirst() throws {
        // Others: "Strava" first saved 2023, "Garmin" 2021, "Zepp" 2021 (tie → by name), and
        // "Old App" without creation dates (last).
        let y2021 = utc.t("2021-06-01 00:00")
        let y2023 = utc.t("2023-06-01 00:00")
        let sources = [
            TestSource(name: "Zepp", creation: y2021), TestSource(name: "Old App"),
            TestSource(name: "Garmin", creation: y2021), TestSource(name: "Strava", creation: y2023),
            .phone, .watch, .health,
        ]
        let records = sources.map { sample($0, utc, "2025-02-03 10:00", "2025-02-03 10:10", 10) }
        let r = try analyze(records, options: options)
        #expect(
            r.sourceOrder.map(\.name) == [
                "Health", TestSource.watch.name, TestSource.phone.name, "Strava", "Garmin", "Zepp", "Old App",
            ])
        #expect(r.sourceOrder.map(\.sourceClass) == [.manual, .watch, .phone, .other, .other, .other, .other])
        #expect(r.sourceOrder.map(\.rank) == Array(0..<7))
    }

    @Test func sourceOrderOptionPutsTheNamedSourcesFirstAndKeepsTheRest() throws {
        let records = [TestSource.health, .watch, .phone, .app].map {
            sample($0, utc, "2025-02-03 10:00", "2025-02-03 10:10", 10)
        }
        var o = options
        o.sourceOrder = ["Pedometer++", " \(TestSource.phone.name)", "Fitbit"]
        let r = try analyze(records, options: o)
        #expect(r.sourceOrder.map(\.name) == ["Pedometer++", TestSource.phone.name, "Health", TestSource.watch.name])
        #expect(r.noteTexts.contains { $0.contains("\"Fitbit\"") })
        // All four cover 10:00–10:10; the app ranks first now: 10.
        #expect(close(r.day("2025-02-03")?.steps, 10))
        #expect(close(r.contribution(T.steps, "Pedometer++")?.countedTotal, 10))
    }

    @Test func manualEntryOfAThirdPartyAppRanksAboveTheWatch() throws {
        // Pedometer++ 10:00–10:10 = 700 flagged HKWasUserEntered; Watch 10:00–10:10 = 300.
        // Manual samples rank first (docs/deduplication.md §3): 700.
        let r = try analyze(
            [
                sample(.app, utc, "2025-02-03 10:00", "2025-02-03 10:10", 700, manual: true),
                sample(.watch, utc, "2025-02-03 10:00", "2025-02-03 10:10", 300),
            ], options: options)
        #expect(close(r.day("2025-02-03")?.steps, 700))
    }

    @Test(arguments: [
        (TestSource(name: "Alex’s Apple Watch"), SourceClass.watch),  // name only
        (TestSource(name: "Montre", device: TestSource.watchDevice), .watch),  // device only
        (TestSource(name: "Telefon", device: TestSource.phoneDevice), .phone),
        (TestSource(name: "iPhone"), .phone),
        (TestSource(name: "Health"), .manual),
        (TestSource(name: "Withings", device: Device(name: "Body+", manufacturer: "Withings")), .other),
    ])
    func sourceClassComesFromDeviceOrName(source: TestSource, expected: SourceClass) throws {
        let r = try analyze([sample(source, utc, "2025-02-03 10:00", "2025-02-03 10:10", 10)], options: options)
        #expect(r.sourceOrder.first?.sourceClass == expected)
    }

    @Test func phoneDeviceSourceWritingStandRecordsStaysAPhone() throws {
        // Device evidence beats the stand-hour heuristic: the phone's stand records are not a
        // Watch's, so they do not count as stand hours and its energy is not Watch Move-ring
        // energy; on this day without Watch data it is the phone-estimated Move ring (iOS 16+).
        let r = try analyze(
            [
                standHour(.phone, utc, "2025-02-03 10:00"),
                sample(.phone, utc, "2025-02-03 10:00", "2025-02-03 10:10", 50, type: T.activeEnergy),
            ], options: options)
        #expect(r.sourceOrder.first?.sourceClass == .phone)
        #expect(r.day("2025-02-03")?.standHours == nil)
        #expect(r.day("2025-02-03")?.moveKcal == 50 && r.day("2025-02-03")?.moveSource == .iPhone)
        #expect(r.day("2025-02-03")?.activeEnergyKcal == 50)
    }

    @Test func localizedWatchIsRecognizedByItsStandHourRecords() throws {
        // "Apple Watch de Alex" (no device string) writes stand hours and exercise minutes:
        // only an Apple Watch writes AppleStandHour, so its exercise counts for the ring.
        let watch = TestSource(name: "Apple Watch de Alex")
        let r = try analyze(
            [
                standHour(watch, utc, "2025-02-03 10:00"),
                sample(watch, utc, "2025-02-03 10:00", "2025-02-03 10:01", 1, type: T.exercise),
            ], options: options)
        #expect(r.sourceOrder.first?.sourceClass == .watch)
        #expect(r.day("2025-02-03")?.exerciseMinutes == 1)
        #expect(r.day("2025-02-03")?.standHours == 1)
    }
}

@Suite("Correlation children")
struct CorrelationTests {
    @Test func recordsNestedInACorrelationAreIgnored() throws {
        // A food correlation's children duplicate top-level records (Apple's DTD comment): the
        // nested copy of the 250 kcal and a nested heart rate must not count.
        let utc = Clock(zone: "UTC")
        let r = try analyze(
            [
                sample(.app, utc, "2025-02-03 12:00", "2025-02-03 12:00", 250, type: T.activeEnergy),
                sample(.app, utc, "2025-02-03 12:00", "2025-02-03 12:00", 250, type: T.activeEnergy, nested: true),
                sample(.app, utc, "2025-02-03 12:00", "2025-02-03 12:00", 200, type: T.heartRate, nested: true),
            ], options: AnalysisOptions(timeZoneIdentifier: "UTC", removeExactDuplicates: false))
        #expect(r.day("2025-02-03")?.activeEnergyKcal == 250)
        #expect(r.day("2025-02-03")?.heartRateMaxBpm == nil)
    }
}

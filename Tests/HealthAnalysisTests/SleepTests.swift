import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// A `SleepAnalysis` record between two local wall-clock times.
func sleep(_ source: TestSource, _ clock: Clock, _ start: String, _ end: String, _ stage: SleepStage) -> Record {
    Record(
        type: "HKCategoryTypeIdentifierSleepAnalysis", value: .category(.sleepAnalysis(stage)),
        sourceName: source.name, device: source.device, startDate: clock.ts(start), endDate: clock.ts(end))
}

@Suite("Sleep per night (docs/sleep-and-workouts.md §2)")
struct SleepTests {
    let berlin = Clock(zone: "Europe/Berlin")
    let options = AnalysisOptions(timeZoneIdentifier: "Europe/Berlin")
    static let autoSleep = TestSource(name: "AutoSleep")

    func nights(_ records: [Record], options: AnalysisOptions? = nil) throws -> [SleepNight] {
        try analyze(records, options: options ?? self.options).sleep
    }

    @Test func aNightAcrossMidnightIsFiledUnderTheWakeUpDate() throws {
        // Core 23:30–01:00 (90), Deep 01:00–02:00 (60), REM 02:00–02:30 (30), Awake 02:30–02:35 (5),
        // Core 02:35–06:30 (235): asleep 90 + 60 + 30 + 235 = 415 min, core 325, awake 5 (not sleep).
        let n = try nights([
            sleep(.watch, berlin, "2025-03-10 23:30", "2025-03-11 01:00", .asleepCore),
            sleep(.watch, berlin, "2025-03-11 01:00", "2025-03-11 02:00", .asleepDeep),
            sleep(.watch, berlin, "2025-03-11 02:00", "2025-03-11 02:30", .asleepREM),
            sleep(.watch, berlin, "2025-03-11 02:30", "2025-03-11 02:35", .awake),
            sleep(.watch, berlin, "2025-03-11 02:35", "2025-03-11 06:30", .asleepCore),
        ])
        #expect(n.count == 1)
        let night = try #require(n.first)
        #expect(night.night == day("2025-03-11") && !night.isNap)
        #expect(night.source == "Alex’s Apple Watch")
        #expect(night.asleepMinutes == 415 && night.coreMinutes == 325 && night.deepMinutes == 60)
        #expect(night.remMinutes == 30 && night.awakeMinutes == 5)
        #expect(night.unspecifiedMinutes == nil && night.inBedMinutes == nil)
        #expect(night.bedtime?.description == "2025-03-10T23:30:00+01:00")
        #expect(night.wakeTime?.description == "2025-03-11T06:30:00+01:00")
    }

    @Test func aNightAcrossTheSpringChangeHasItsRealLength() throws {
        // Berlin 2025-03-30: 02:00 CET jumps to 03:00 CEST. InBed 23:00 → 07:00 is 8 wall-clock
        // hours but 7 real ones = 420 min; Core 23:30 → 06:30 is 6 real hours = 360 min.
        let n = try nights([
            sleep(.phone, berlin, "2025-03-29 23:00", "2025-03-30 07:00", .inBed),
            sleep(.watch, berlin, "2025-03-29 23:30", "2025-03-30 06:30", .asleepCore),
        ])
        let night = try #require(n.first)
        #expect(night.night == day("2025-03-30"))
        #expect(night.asleepMinutes == 360 && night.inBedMinutes == 420)
        #expect(night.bedtime?.description == "2025-03-29T23:30:00+01:00")
        #expect(night.wakeTime?.description == "2025-03-30T06:30:00+02:00")
        #expect(night.sourceCount == 2)
    }

    @Test func twoSourcesOnOneNightAreNeverAdded() throws {
        // The Watch: Core 23:00–03:00 (240) + REM 03:00–06:00 (180) = 420. AutoSleep (an app, lower
        // priority): legacy Asleep 22:45–06:15 = 450. Summing would give 870; the Watch's 420 counts.
        let records = [
            sleep(.watch, berlin, "2025-05-01 23:00", "2025-05-02 03:00", .asleepCore),
            sleep(.watch, berlin, "2025-05-02 03:00", "2025-05-02 06:00", .asleepREM),
            sleep(Self.autoSleep, berlin, "2025-05-01 22:45", "2025-05-02 06:15", .asleepUnspecified),
        ]
        let watch = try #require(try nights(records).first)
        #expect(watch.source == "Alex’s Apple Watch" && watch.asleepMinutes == 420)
        #expect(watch.unspecifiedMinutes == nil && watch.sourceCount == 2)
        // With AutoSleep first in the order, its night counts: 450 min, no stages (empty cells).
        var preferApp = options
        preferApp.sourceOrder = ["AutoSleep"]
        let app = try #require(try nights(records, options: preferApp).first)
        #expect(app.source == "AutoSleep" && app.asleepMinutes == 450 && app.unspecifiedMinutes == 450)
        #expect(app.coreMinutes == nil && app.deepMinutes == nil && app.remMinutes == nil && app.awakeMinutes == nil)
    }

    @Test func theTopSourceWithAsleepSamplesWinsEvenIfAnotherRanksHigherWithInBedOnly() throws {
        // The iPhone (rank above apps) writes only InBed 23:00–07:00; the app's legacy Asleep
        // 23:20–06:40 (440 min) is the night. InBed 480 is shown apart.
        let n = try nights([
            sleep(.phone, berlin, "2025-05-03 23:00", "2025-05-04 07:00", .inBed),
            sleep(Self.autoSleep, berlin, "2025-05-03 23:20", "2025-05-04 06:40", .asleepUnspecified),
        ])
        let night = try #require(n.first)
        #expect(night.source == "AutoSleep" && night.asleepMinutes == 440 && night.inBedMinutes == 480)
    }

    @Test func identicalRowsCountOnceAndOverlapsAreAUnion() throws {
        // Core 23:00–02:00 twice (identical rows: once) and Core 01:00–05:00 overlapping it by an
        // hour: the union 23:00–05:00 = 360 min, not 180 + 180 + 240 = 600.
        let n = try nights([
            sleep(.watch, berlin, "2025-06-01 23:00", "2025-06-02 02:00", .asleepCore),
            sleep(.watch, berlin, "2025-06-01 23:00", "2025-06-02 02:00", .asleepCore),
            sleep(.watch, berlin, "2025-06-02 01:00", "2025-06-02 05:00", .asleepCore),
        ])
        #expect(n.first?.asleepMinutes == 360 && n.first?.coreMinutes == 360)
    }

    @Test func aDaytimeNapIsItsOwnRowAndNotAddedToTheNight() throws {
        // Night to 2025-06-03 06:00 (Core 22:30–06:00 = 450); nap 14:10–14:45 (35) on 06-03.
        let n = try nights([
            sleep(.watch, berlin, "2025-06-02 22:30", "2025-06-03 06:00", .asleepCore),
            sleep(.watch, berlin, "2025-06-03 14:10", "2025-06-03 14:45", .asleepCore),
        ])
        #expect(n.count == 2)
        #expect(n[0].night == day("2025-06-03") && !n[0].isNap && n[0].asleepMinutes == 450)
        #expect(n[1].night == day("2025-06-03") && n[1].isNap && n[1].asleepMinutes == 35)
    }

    @Test func aWakeUpInTheNightOfMoreThanAnHourStaysOneNight() throws {
        // Asleep 23:00–01:00 (120), awake and out of bed for 90 minutes, asleep 02:30–07:00 (270):
        // two episodes ending on 06-05, one night of 390 min from 23:00 to 07:00.
        let n = try nights([
            sleep(.watch, berlin, "2025-06-04 23:00", "2025-06-05 01:00", .asleepCore),
            sleep(.watch, berlin, "2025-06-05 02:30", "2025-06-05 07:00", .asleepCore),
        ])
        #expect(n.count == 1 && n[0].asleepMinutes == 390)
        #expect(n[0].bedtime?.description == "2025-06-04T23:00:00+02:00")
    }
}

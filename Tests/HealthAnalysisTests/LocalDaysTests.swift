import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Local days and hours")
struct LocalDaysTests {
    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Asia/Tehran", "Australia/Lord_Howe",
        "Asia/Kathmandu", "Europe/Moscow", "UTC", "Pacific/Chatham", "America/Havana",
    ])
    func startOfDayMatchesFoundationForEveryDayOfTenYears(zone: String) {
        // Oracle: Foundation's Calendar.startOfDay for noon of each date (2015–2024). Sao Paulo
        // (until 2018) switched at midnight: such a day starts at 01:00.
        let tz = TimeZone(identifier: zone)!
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        let first = CivilDate(year: 2015, month: 1, day: 1).daysSince1970
        let last = CivilDate(year: 2024, month: 12, day: 31).daysSince1970
        let calendar = LocalCalendar(
            timeZone: tz, covering: (Int64(first) * 86_400 - 3 * 86_400)...(Int64(last) * 86_400 + 3 * 86_400))
        var mismatches: [String] = []
        for d in first...last {
            let date = CivilDate(daysSince1970: d)
            var c = DateComponents()
            (c.year, c.month, c.day, c.hour) = (date.year, date.month, date.day, 12)
            let noon = cal.date(from: c)!
            let expected = Int64(cal.startOfDay(for: noon).timeIntervalSince1970)
            if calendar.startOfDay(d) != expected { mismatches.append(date.description) }
            if calendar.dayNumber(expected) != d { mismatches.append("dayNumber \(date)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: [
        ("Europe/Berlin", "2024-03-31", 23), ("Europe/Berlin", "2024-10-27", 25),
        ("America/New_York", "2024-03-10", 23), ("America/New_York", "2024-11-03", 25),
        ("America/New_York", "2024-07-04", 24),
    ])
    func dstDaysAreTwentyThreeOrTwentyFiveHoursLong(zone: String, date: String, hours: Int) {
        let tz = TimeZone(identifier: zone)!
        let d = day(date).daysSince1970
        let calendar = LocalCalendar(timeZone: tz, covering: (Int64(d - 3) * 86_400)...(Int64(d + 3) * 86_400))
        #expect(calendar.startOfDay(d + 1) - calendar.startOfDay(d) == Int64(hours) * 3600)
    }

    @Test func theExportTimeOffsetTrapIsAvoided() throws {
        // An export made in winter prints every timestamp at +0100 (docs/export-format.md §9). A sample at
        // 00:30 CEST on 2025-07-02 is 22:30 UTC on 07-01 and prints as "2025-07-01 23:30 +0100":
        // the printed date is 07-01, the true local date in Europe/Paris is 07-02.
        let t = Clock(zone: "Europe/Paris").t("2025-07-02 00:30")
        let r = try analyze(
            [sample(.watch, t, t + 600, 400, printedOffset: 3600)],
            options: AnalysisOptions(timeZoneIdentifier: "Europe/Paris"))
        #expect(r.days.map(\.date) == [day("2025-07-02")])
        #expect(close(r.day("2025-07-02")?.steps, 400))
    }

    @Test func printedOffsetsDoNotChangeTheResult() throws {
        let t = Clock(zone: "UTC").t("2025-07-01 22:50")
        let a = try analyze(
            [sample(.watch, t, t + 1200, 400, printedOffset: 0)],
            options: AnalysisOptions(timeZoneIdentifier: "Asia/Tokyo"))
        let b = try analyze(
            [sample(.watch, t, t + 1200, 400, printedOffset: -25_200)],
            options: AnalysisOptions(timeZoneIdentifier: "Asia/Tokyo"))
        #expect(a.days == b.days)
    }

    @Test func sampleCrossingMidnightInNewYorkIsSplitAtLocalMidnight() throws {
        // 23:45–00:15 EST = 30 min, 300 steps → 150 on each local day (not split at UTC midnight,
        // which is 19:00 local).
        let ny = Clock(zone: "America/New_York")
        let r = try analyze(
            [sample(.phone, ny, "2025-01-14 23:45", "2025-01-15 00:15", 300)],
            options: AnalysisOptions(timeZoneIdentifier: "America/New_York"))
        #expect(close(r.day("2025-01-14")?.steps, 150))
        #expect(close(r.day("2025-01-15")?.steps, 150))
    }

    @Test func quarterHourZoneBucketsHeartRateAtLocalMidnight() throws {
        // Asia/Kathmandu is UTC+05:45. 23:50 (70 bpm) and 23:59 (90) belong to 03-10; 00:05 (50)
        // to 03-11: the 15-minute UTC buckets line up with local midnight. Time-weighted mean
        // (docs/deduplication.md §9): 70 weighs the 540 s to 23:59, 90 the 360 s to 00:05 (a sample weighs the
        // time to the next one, on its own day) → (540 × 70 + 360 × 90) / 900 = 78; 03-11 has 50 alone.
        let k = Clock(zone: "Asia/Kathmandu")
        func hr(_ time: String, _ bpm: Double) -> Record {
            sample(.watch, k.t(time), k.t(time), bpm, type: T.heartRate)
        }
        let r = try analyze(
            [hr("2025-03-10 23:50", 70), hr("2025-03-10 23:59", 90), hr("2025-03-11 00:05", 50)],
            options: AnalysisOptions(timeZoneIdentifier: "Asia/Kathmandu"))
        #expect(close(r.day("2025-03-10")?.heartRateAvgBpm, 78))
        #expect(close(r.day("2025-03-10")?.heartRateMinBpm, 70))
        #expect(close(r.day("2025-03-10")?.heartRateMaxBpm, 90))
        #expect(close(r.day("2025-03-11")?.heartRateAvgBpm, 50))
    }

    @Test func hourBucketsOfAFallBackDayKeepTheRepeatedHourApart() {
        // Berlin 2024-10-27: 02:00–03:00 happens twice (CEST, then CET). A sample over
        // 01:30 CEST – 02:30 CET (= 2 h: 23:30Z–01:30Z) of 120 splits 30/60/30 over the local
        // hours 01:00, 02:00 (CEST), 02:00 (CET).
        let start = Clock(zone: "UTC").t("2024-10-26 23:30")
        let end = Clock(zone: "UTC").t("2024-10-27 01:30")
        let hours = mergeIntoHours(
            [(source: 0, start: start, end: end, value: 120, manual: false)], zone: "Europe/Berlin")
        let utc = Clock(zone: "UTC")
        #expect(hours.count == 3)
        #expect(close(hours[utc.t("2024-10-26 23:00")], 30))  // 01:00 CEST
        #expect(close(hours[utc.t("2024-10-27 00:00")], 60))  // 02:00 CEST
        #expect(close(hours[utc.t("2024-10-27 01:00")], 30))  // 02:00 CET
    }

    @Test func thirtyMinuteDSTShiftEndsTheHourAtTheTransition() {
        // Australia/Lord_Howe springs forward 30 minutes at 02:00 local (+10:30 → +11:00) on
        // 2024-10-06; 02:00 local = 2024-10-05 15:30Z. The local hour 01:00 is a full hour,
        // the hour 02:30–03:00 local is half an hour long.
        let tz = TimeZone(identifier: "Australia/Lord_Howe")!
        let utc = Clock(zone: "UTC")
        let transition = utc.t("2024-10-05 15:30")
        let calendar = LocalCalendar(timeZone: tz, covering: (transition - 86_400 * 3)...(transition + 86_400 * 3))
        #expect(calendar.endOfHour(transition - 1) == transition)
        #expect(calendar.startOfHour(transition - 1) == transition - 3600)
        #expect(calendar.startOfHour(transition + 60) == transition)  // local 02:31 → hour began at 02:30
        #expect(calendar.endOfHour(transition + 60) == transition + 1800)  // local 03:00
        #expect(calendar.hourOfDay(transition) == 2)
    }
}

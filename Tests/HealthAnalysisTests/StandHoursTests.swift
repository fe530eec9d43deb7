import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Stand hours")
struct StandHoursTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    @Test func twoWatchesWritingTheSameHourCountItOnce() throws {
        // Hour 10: both watches Stood; hour 11: only the old watch Stood; hour 12: Idle on one
        // watch. → 2 stand hours, 3 hours with a record.
        let r = try analyze(
            [
                standHour(.watch, utc, "2025-02-03 10:00"), standHour(.watch2, utc, "2025-02-03 10:00"),
                standHour(.watch2, utc, "2025-02-03 11:00"), standHour(.watch, utc, "2025-02-03 12:00", stood: false),
            ], options: options)
        #expect(r.day("2025-02-03")?.standHours == 2)
        #expect(r.standHours.map(\.hour) == [10, 11, 12])
        #expect(r.standHours.map(\.stood) == [true, true, false])
    }

    @Test func stoodOnOneWatchAndIdleOnTheOtherIsStood() throws {
        let r = try analyze(
            [standHour(.watch, utc, "2025-02-03 10:00", stood: false), standHour(.watch2, utc, "2025-02-03 10:00")],
            options: options)
        #expect(r.day("2025-02-03")?.standHours == 1)
        #expect(r.standHours == [StandHour(date: day("2025-02-03"), hour: 10, stood: true, utcOffsetSeconds: 0)])
    }

    @Test(arguments: [
        ("2025-02-03 10:59:59", "2025-02-03", 10),
        ("2025-02-03 11:00:00", "2025-02-03", 11),
        ("2025-02-03 23:59:59", "2025-02-03", 23),
        ("2025-02-04 00:00:00", "2025-02-04", 0),
    ])
    func standHourBelongsToTheLocalHourItStartsIn(start: String, date: String, hour: Int) throws {
        let r = try analyze([standHour(.watch, utc, start)], options: options)
        #expect(r.standHours == [StandHour(date: day(date), hour: hour, stood: true)])
        #expect(r.day(date)?.standHours == 1)
    }

    @Test func idleOnlyDayHasZeroStandHoursAndADayWithoutRecordsHasNone() throws {
        let r = try analyze(
            [
                standHour(.watch, utc, "2025-02-03 10:00", stood: false),
                sample(.phone, utc, "2025-02-04 10:00", "2025-02-04 10:10", 10),
            ], options: options)
        #expect(r.day("2025-02-03")?.standHours == 0)
        #expect(r.day("2025-02-04")?.standHours == nil)
    }

    @Test func repeatedFallBackHourIsTwoStandHoursWithOneLabel() throws {
        // Berlin 2024-10-27: 02:00 CEST = 00:00Z and 02:00 CET = 01:00Z. Both stood → 2 stand
        // hours that day, two rows labelled hour 2; the profile counts the day once for hour 2.
        let utc = Clock(zone: "UTC")
        let r = try analyze(
            [standHour(.watch, utc.t("2024-10-27 00:00")), standHour(.watch, utc.t("2024-10-27 01:00"))],
            options: AnalysisOptions(timeZoneIdentifier: "Europe/Berlin"))
        #expect(r.day("2024-10-27")?.standHours == 2)
        #expect(r.standHours.map(\.hour) == [2, 2])
        let two = try #require(r.standHourProfile.first { $0.hour == 2 })
        #expect(two.stoodDays == 1 && two.daysWithRecord == 1)
    }

    @Test func profileCountsStoodDaysPerLocalHour() throws {
        // Hour 9: stood on 2 of 3 days; hour 10: idle on its only day.
        let r = try analyze(
            [
                standHour(.watch, utc, "2025-02-03 09:00"), standHour(.watch, utc, "2025-02-04 09:00"),
                standHour(.watch, utc, "2025-02-05 09:00", stood: false),
                standHour(.watch, utc, "2025-02-05 10:00", stood: false),
            ], options: options)
        #expect(r.standHourProfile.count == 24)
        #expect(r.standHourProfile[9].stoodDays == 2 && r.standHourProfile[9].daysWithRecord == 3)
        #expect(r.standHourProfile[10].stoodDays == 0 && r.standHourProfile[10].daysWithRecord == 1)
        #expect(r.standHourProfile[11].daysWithRecord == 0)
    }
}

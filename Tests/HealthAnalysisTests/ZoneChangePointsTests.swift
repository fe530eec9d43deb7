import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// The change-point search for exports without `HKTimeZone` (docs/days-and-time-zones.md §6.1),
/// on two candidates, Europe/Berlin (+02:00 in May 2024) and Asia/Tokyo (+09:00).
@Suite("Zone change points")
struct ZoneChangePointsTests {
    static let range: ClosedRange<Int64> =
        Clock(zone: "UTC").t("2024-04-25 00:00")...Clock(zone: "UTC").t("2024-05-25 00:00")
    static let berlin = Clock(zone: "Europe/Berlin")

    static func search() -> ZoneChangePoints {
        ZoneChangePoints(
            candidates: ["Europe/Berlin", "Asia/Tokyo"].map {
                .init(ids: [$0], calendar: LocalCalendar(timeZone: TimeZone(identifier: $0)!, covering: range))
            })
    }

    static func day(_ text: String) -> Int { CivilDate(text)!.daysSince1970 }

    @Test func twoOddDaysAtTheStartDoNotMakeAPeriod() throws {
        // 20 days, 10 exercise minutes at 12:00 Berlin each (19:00 Tokyo, the same date) and a
        // summary of 10 on each day; but on 05-01 5 more minutes at 23:30 Berlin (06:30 Tokyo on
        // 05-02) and summaries of 10 on 05-01 and 15 on 05-02. Berlin gives 05-01 15 and 05-02
        // 10: both disagree; Tokyo agrees on both. Tokyo for 05-01 … 05-02 and Berlin from 05-03
        // gains 2 days for one change (2.5): less. The export (05-21 12:00 Berlin, +02:00) rules
        // Tokyo out at the end. One period, Berlin: 18 of 20 days agree.
        var s = Self.search()
        for d in 1...20 {
            let date = "2024-05-\(d < 10 ? "0" : "")\(d)"
            let noon = Self.berlin.t("\(date) 12:00")
            s.rings.addExercise(start: noon, end: noon + 600, minutes: 10)
            s.summaries[Self.day(date)] = ActivitySummary(
                date: CivilDate(date)!, appleExerciseTimeMinutes: date == "2024-05-02" ? 15 : 10)
        }
        let late = Self.berlin.t("2024-05-01 23:30")
        s.rings.addExercise(start: late, end: late + 300, minutes: 5)
        s.anchors = [.init(instant: Self.berlin.t("2024-05-21 12:00"), offset: 7_200)]
        let periods = try #require(s.search())
        #expect(periods.map(\.candidate) == [0])
        #expect(periods.first?.agreeing == 18)
        #expect(periods.first?.compared == 20)
        // A third such pair of days (05-03 and 05-04) and a fourth (05-05, 05-06) together make
        // Tokyo's period worth it: 6 days gained for one change. Tokyo 05-01 … 05-06.
        for d in [3, 5] {
            let t = Self.berlin.t("2024-05-0\(d) 23:30")
            s.rings.addExercise(start: t, end: t + 300, minutes: 5)
            s.summaries[Self.day("2024-05-0\(d + 1)")] = ActivitySummary(
                date: CivilDate("2024-05-0\(d + 1)")!, appleExerciseTimeMinutes: 15)
        }
        let moved = try #require(s.search())
        #expect(moved.map(\.candidate) == [1, 0])
        #expect(moved.map(\.firstDay) == [Self.day("2024-05-01"), Self.day("2024-05-07")])
        #expect(moved.first?.agreeing == 6)
    }

    @Test func exportsMadeInTwoZonesPlaceTheChangeAfterTheEarlierExport() throws {
        // No ring data or beats: the exports alone. One made 2024-05-05 12:00 Berlin (+02:00),
        // one 2024-05-15 12:00 Tokyo (+09:00): Berlin up to the first export's day (05-05),
        // Tokyo from the next day on, the earliest change the evidence allows.
        var s = Self.search()
        s.anchors = [
            .init(instant: Self.berlin.t("2024-05-05 12:00"), offset: 7_200),
            .init(instant: Clock(zone: "Asia/Tokyo").t("2024-05-15 12:00"), offset: 32_400),
        ]
        let periods = try #require(s.search())
        #expect(periods.map(\.candidate) == [0, 1])
        #expect(periods.map(\.firstDay) == [Self.day("2024-05-05"), Self.day("2024-05-06")])
        #expect(periods.map(\.lastDay) == [Self.day("2024-05-05"), Self.day("2024-05-15")])
        // With the Tokyo export printed at Berlin's offset instead, no candidate has both and
        // Tokyo's: one period, Berlin.
        s.anchors[1].offset = 7_200
        #expect(try #require(s.search()).map(\.candidate) == [0])
    }
}

import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// One rule for partial weeks and months (`CompleteDays`, docs/weeks.md §3).
@Suite("Partial weeks and months")
struct PartialWeeksTests {
    static let utc = Clock(zone: "UTC")

    /// 1,000 steps at noon on every day from `first` to `last` of December 2021.
    static func december(_ first: Int, _ last: Int) -> [Record] {
        (first...last).map { d in
            let date = "2021-12-\(d < 10 ? "0" : "")\(d)"
            return sample(.phone, utc, "\(date) 12:00", "\(date) 12:30", 1_000)
        }
    }

    /// Data from Wednesday 2021-12-01 to Thursday 2021-12-30, exported on 2022-01-10. ISO weeks:
    /// W48 (Nov 29 to Dec 5) starts before the period: partial; W49 to W51 (Dec 6 to 26) whole;
    /// W52 (Dec 27 to Jan 2) has 4 of its 7 days in the period (27 to 30): partial, as December
    /// is (the period ends on the 30th). Before, W52 was complete: its end, Jan 2, is before the
    /// export's day, and only the export's day limited the weeks while the rows limited months.
    @Test func aWeekRunningPastThePeriodsEndIsPartialAsTheMonthIs() throws {
        let r = try analyze(
            Self.december(1, 30), options: AnalysisOptions(timeZoneIdentifier: "UTC"),
            exportDate: Self.utc.ts("2022-01-10 09:00"))
        #expect(r.lastDay == day("2021-12-30"))
        #expect(r.weeks.map(\.week) == ["2021-W48", "2021-W49", "2021-W50", "2021-W51", "2021-W52"])
        #expect(r.weeks.map(\.partial) == [true, false, false, false, true])
        #expect(r.weeks.last?.days == 4)
        #expect(r.months.map(\.month) == ["2021-12"] && r.months[0].partial)
        // W52's change against W51 is not shown: a partial week is never compared.
        #expect(r.weeks.last?.stepsChangePercent == nil)
    }

    /// Data on every day of December 2021, the export made on Friday 2021-12-31 at 18:00: the
    /// export's own day is still running, so December (1 to 31) is partial, as W52 (Dec 27 to
    /// Jan 2) is. Before, December was complete: the rows reached the 31st.
    @Test func theExportsOwnDayMakesItsMonthPartialAsItsWeek() throws {
        let r = try analyze(
            Self.december(1, 31), options: AnalysisOptions(timeZoneIdentifier: "UTC"),
            exportDate: Self.utc.ts("2021-12-31 18:00"))
        #expect(r.months.map(\.partial) == [true])
        #expect(r.weeks.last?.week == "2021-W52" && r.weeks.last?.partial == true)
        #expect(r.weeks[1].partial == false)
    }

    /// A whole month whose last day is before the export's day is complete: November 2021 with
    /// data on every day, exported on 2021-12-05.
    @Test func aWholeMonthBeforeTheExportsDayIsComplete() throws {
        let records = (1...30).map { d in
            let date = "2021-11-\(d < 10 ? "0" : "")\(d)"
            return sample(.phone, Self.utc, "\(date) 12:00", "\(date) 12:30", 1_000)
        }
        let r = try analyze(
            records, options: AnalysisOptions(timeZoneIdentifier: "UTC"), exportDate: Self.utc.ts("2021-12-05 09:00"))
        #expect(r.months.map(\.partial) == [false])
    }
}

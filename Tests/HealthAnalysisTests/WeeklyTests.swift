import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

@Suite("Weekly trends")
struct WeeklyTests {
    static let utc = Clock(zone: "UTC")

    @Test(arguments: [
        ("2024-12-30", "2025-W01"), ("2021-01-03", "2020-W53"), ("2020-12-31", "2020-W53"),
        ("2026-01-01", "2026-W01"), ("2019-12-30", "2020-W01"), ("2027-01-03", "2026-W53"),
        ("2025-01-05", "2025-W01"), ("2025-01-06", "2025-W02"), ("2016-01-03", "2015-W53"),
    ])
    func isoWeekLabelUsesTheWeekYear(date: String, label: String) {
        let start = WeekStart.iso8601.startOfWeek(containing: day(date))
        #expect(start.mondayBasedWeekday == 0)
        #expect(WeekStart.iso8601.label(weekStarting: start) == label)
    }

    @Test func isoWeeksMatchFoundationForEveryDayFrom2015To2030() {
        var cal = Calendar(identifier: .iso8601)
        cal.timeZone = TimeZone(identifier: "UTC")!
        var mismatches: [String] = []
        for n in CivilDate(year: 2015, month: 1, day: 1)
            .daysSince1970...CivilDate(year: 2030, month: 12, day: 31).daysSince1970
        {
            let d = CivilDate(daysSince1970: n)
            let date = Date(timeIntervalSince1970: Double(n) * 86_400 + 43_200)
            let c = cal.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            if d.isoWeek != (c.yearForWeekOfYear!, c.weekOfYear!) { mismatches.append(d.description) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: [("2025-01-05", "2025-01-05"), ("2025-01-11", "2025-01-05"), ("2025-01-01", "2024-12-29")])
    func sundayWeeksStartOnSundayAndAreLabelledByTheirFirstDay(date: String, sunday: String) {
        let start = WeekStart.sunday.startOfWeek(containing: day(date))
        #expect(start == day(sunday))
        #expect(WeekStart.sunday.label(weekStarting: start) == "week of \(sunday)")
    }

    /// January 2025 in UTC, one iPhone sample per day at noon, exported Saturday 2025-02-01:
    /// 01-01…05 (Wed–Sun) 800/day; W02 (01-06…12) 1 000/day; W03 1 500/day; W04 1 200/day
    /// but nothing on 01-22; 01-27…31 2 000/day.
    static func january() -> [Record] {
        (1...31).compactMap { d -> Record? in
            let date = day("2025-01-01").adding(days: d - 1).description
            let steps: Double
            switch d {
            case 1...5: steps = 800
            case 6...12: steps = 1000
            case 13...19: steps = 1500
            case 22: return nil
            case 20...26: steps = 1200
            default: steps = 2000
            }
            return sample(.phone, utc, "\(date) 12:00", "\(date) 12:10", steps)
        }
    }
    static let exported = utc.ts("2025-02-01 10:00")

    @Test func weeksSumDaysAverageOverDaysWithDataAndMarkPartialWeeks() throws {
        let r = try analyze(
            Self.january(), options: AnalysisOptions(timeZoneIdentifier: "UTC"), exportDate: Self.exported)
        #expect(r.weeks.map(\.week) == ["2025-W01", "2025-W02", "2025-W03", "2025-W04", "2025-W05"])
        // W01 starts 2024-12-30, before the first data day; W05 ends 02-02, after the last
        // complete day 01-31 → partial.
        #expect(r.weeks.map(\.partial) == [true, false, false, false, true])
        #expect(r.weeks.map(\.days) == [5, 7, 7, 6, 5])
        #expect(r.weeks.map(\.steps) == [4000, 7000, 10500, 7200, 10000])
        #expect(r.weeks.map(\.stepsPerDay) == [800, 1000, 1500, 1200, 2000])
        // Week over week on per-day averages, only between full weeks:
        // W03 (1500 − 1000)/1000 = +50 %; W04 (1200 − 1500)/1500 = −20 %.
        #expect(r.weeks[0].stepsChangePercent == nil)
        #expect(r.weeks[1].stepsChangePercent == nil)  // previous week partial
        #expect(close(r.weeks[2].stepsChangePercent, 50))
        #expect(close(r.weeks[3].stepsChangePercent, -20))
        #expect(r.weeks[4].stepsChangePercent == nil)  // this week partial
        // Rolling 4 weeks: W04 = (4000 + 7000 + 10500 + 7200) / (5 + 7 + 7 + 6) = 28700/25 = 1148;
        // W05 = (7000 + 10500 + 7200 + 10000) / 25 = 1388.
        #expect(r.weeks[2].stepsPerDayRolling4Weeks == nil)
        #expect(close(r.weeks[3].stepsPerDayRolling4Weeks, 1148))
        #expect(close(r.weeks[4].stepsPerDayRolling4Weeks, 1388))
    }

    @Test func sundayWeeksAreBuiltFromTheSameDays() throws {
        // Sunday weeks: 12-29…01-04 (4 days), 01-05…11, 01-12…18, 01-19…25, 01-26…02-01.
        // Week of 01-05: 800 (01-05) + 6 × 1000 = 6 800.
        let r = try analyze(
            Self.january(), options: AnalysisOptions(timeZoneIdentifier: "UTC", weekStart: .sunday),
            exportDate: Self.exported)
        #expect(
            r.weeks.map(\.week) == [
                "week of 2024-12-29", "week of 2025-01-05", "week of 2025-01-12", "week of 2025-01-19",
                "week of 2025-01-26",
            ])
        #expect(r.weeks[1].steps == 6800)
        #expect(r.weeks.map(\.partial) == [true, false, false, false, true])
    }

    @Test func lastCompleteWeekOnlyReportsOneWeekWithItsComparisons() throws {
        // The last complete day is 01-31 (the export's day 02-01 is incomplete); the week of
        // 01-31 ends 02-02, so the last complete ISO week is W04 (01-20…26).
        let r = try analyze(
            Self.january(), options: AnalysisOptions(timeZoneIdentifier: "UTC", lastCompleteWeekOnly: true),
            exportDate: Self.exported)
        #expect(r.weeks.map(\.week) == ["2025-W04"])
        #expect(r.days.map(\.date) == (20...26).map { day("2025-01-\($0)") })
        #expect(r.firstDay == day("2025-01-20") && r.lastDay == day("2025-01-26"))
        #expect(close(r.weeks[0].stepsChangePercent, -20))
        #expect(close(r.weeks[0].stepsPerDayRolling4Weeks, 1148))
        #expect(r.sources.first?.samples == 6)
    }

    @Test func fromAndToLimitTheReportedDays() throws {
        // 01-08…01-14: 5 × 1000 + 2 × 1500 = 8 000 steps over 7 days; weeks W02 and W03 are cut
        // by the range → partial; the sources count only the 7 days.
        let r = try analyze(
            Self.january(),
            options: AnalysisOptions(timeZoneIdentifier: "UTC", from: day("2025-01-08"), to: day("2025-01-14")),
            exportDate: Self.exported)
        #expect(r.days.count == 7)
        #expect(r.days.compactMap(\.steps).reduce(0, +) == 8000)
        #expect(r.weeks.map(\.week) == ["2025-W02", "2025-W03"])
        #expect(r.weeks.allSatisfy { $0.partial })
        #expect(r.sources.first?.rawTotal == 8000)
        #expect(r.sources.first?.samples == 7)
    }

    @Test func emptyRangeIsAnError() {
        #expect(throws: AnalysisError.emptyDateRange(from: day("2025-01-10"), to: day("2025-01-09"))) {
            try analyze(Self.january(), options: AnalysisOptions(from: day("2025-01-10"), to: day("2025-01-09")))
        }
    }

    @Test func weeklyRingCountsWorkoutsAndRestingHeartRate() throws {
        // W02 of 2025: all rings closed on 01-06 and 01-07, only Move on 01-08; resting HR 50
        // and 54 → 52; one 30-minute workout.
        var records: [Record] = []
        var summaries: [ActivitySummary] = []
        for (d, all) in [(6, true), (7, true), (8, false)] {
            let date = "2025-01-0\(d)"
            records.append(sample(.watch, Self.utc, "\(date) 10:00", "\(date) 10:01", 10, type: T.activeEnergy))
            records.append(sample(.watch, Self.utc, "\(date) 10:00", "\(date) 10:01", 1, type: T.exercise))
            records.append(standHour(.watch, Self.utc, "\(date) 10:00"))
            summaries.append(
                summary(
                    date, moveKcal: 10, moveGoal: 10, exercise: 1, exerciseGoal: all ? 1 : 5, stand: 1,
                    standGoal: all ? 1 : 5))
        }
        records.append(
            sample(.watch, Self.utc.t("2025-01-06 07:00"), Self.utc.t("2025-01-06 07:00"), 50, type: T.restingHeartRate)
        )
        records.append(
            sample(.watch, Self.utc.t("2025-01-07 07:00"), Self.utc.t("2025-01-07 07:00"), 54, type: T.restingHeartRate)
        )
        let r = try analyze(
            records,
            workouts: [workout(.watch, Self.utc.t("2025-01-07 18:00"), Self.utc.t("2025-01-07 18:40"), minutes: 30)],
            summaries: summaries, options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        let w = try #require(r.weeks.first)
        #expect(w.week == "2025-W02")
        #expect(w.moveRingClosedDays == 3 && w.exerciseRingClosedDays == 2 && w.standRingClosedDays == 2)
        #expect(w.allRingsClosedDays == 2)
        #expect(w.workouts == 1 && w.workoutMinutes == 30)
        #expect(w.restingHeartRateAvgBpm == 52)
        #expect(w.standHours == 3)
        #expect(w.exerciseMinutes == 3 && w.exerciseMinutesPerDay == 1)
    }
}

@Suite("Time zone choice")
struct TimeZoneChoiceTests {
    static let records = [sample(.watch, Clock(zone: "UTC"), "2025-07-01 22:30", "2025-07-01 22:40", 100)]

    @Test func optionWinsOverHKTimeZoneAndEnvironment() throws {
        let r = try analyze(
            Self.records, options: AnalysisOptions(timeZoneIdentifier: "Asia/Tokyo"),
            timeZoneCounts: ["Europe/Paris": 10], environmentTimeZone: "America/New_York")
        #expect(r.timeZone == TimeZoneChoice(identifier: "Asia/Tokyo", reason: .option))
        #expect(r.days.map(\.date) == [day("2025-07-02")])  // 22:30Z = 07:30 JST next day
    }

    @Test func mostFrequentHKTimeZoneComesNextTiesByName() throws {
        let r = try analyze(
            Self.records, options: AnalysisOptions(),
            timeZoneCounts: ["Europe/Paris": 7, "America/New_York": 7, "Asia/Tokyo": 2, "Mars/Olympus": 99],
            environmentTimeZone: "UTC")
        #expect(r.timeZone == TimeZoneChoice(identifier: "America/New_York", reason: .hkTimeZone(samples: 7)))
        #expect(r.noteTexts.contains { $0.contains("Mars/Olympus") })
        #expect(r.days.map(\.date) == [day("2025-07-01")])  // 18:30 EDT
    }

    @Test(arguments: ["Europe/Paris", ":Europe/Paris", "/usr/share/zoneinfo/Europe/Paris"])
    func environmentZoneComesThird(tz: String) throws {
        let r = try analyze(Self.records, options: AnalysisOptions(), environmentTimeZone: tz)
        #expect(r.timeZone == TimeZoneChoice(identifier: "Europe/Paris", reason: .environment))
        #expect(r.days.map(\.date) == [day("2025-07-02")])  // 00:30 CEST
    }

    @Test func exportOffsetIsTheLastResortWithAWarning() throws {
        // ExportDate printed at -0400 in July; the data is from January, when the zones with
        // -0400 in July differ (New York -0500, Caracas -0400, Santiago -0300) and nothing in
        // the export tells them apart: the fixed offset UTC-04:00 buckets 22:30Z as 18:30 on 01-15.
        let january = [sample(.watch, Clock(zone: "UTC"), "2025-01-15 22:30", "2025-01-15 22:40", 100)]
        let exportDate = Timestamp(
            secondsSince1970: Clock(zone: "UTC").t("2025-07-05 12:00"), printedOffsetSeconds: -14_400)
        let r = try analyze(january, options: AnalysisOptions(), exportDate: exportDate)
        #expect(r.timeZone == TimeZoneChoice(identifier: "UTC-04:00", reason: .exportOffset))
        #expect(r.warningTexts.contains { $0.contains("UTC-04:00") })
        #expect(r.days.map(\.date) == [day("2025-01-15")])
    }

    @Test func invalidZoneOptionThrowsAClearError() throws {
        #expect(throws: AnalysisError.invalidTimeZone("Mars/Olympus", suggestion: nil)) {
            try analyze(Self.records, options: AnalysisOptions(timeZoneIdentifier: "Mars/Olympus"))
        }
        let error = AnalysisError.invalidTimeZone(
            "europe/berlin", suggestion: TimeZone.suggestion(for: "europe/berlin"))
        #expect(
            error.description
                == "unknown time zone 'europe/berlin': expected an IANA zone name such as Europe/Berlin (did you mean Europe/Berlin?)"
        )
        #expect(throws: error) { try AnalysisOptions(timeZoneIdentifier: "europe/berlin").validate() }
    }
}

@Suite("Storage")
struct StorageTests {
    @Test func cumulativeSampleTakesSixteenBytes() {
        #expect(MemoryLayout<CumulativeSample>.size == 16)
        #expect(MemoryLayout<CumulativeSample>.stride == 16)
    }

    @Test func emptyInputGivesAnEmptyResultWithANote() throws {
        let r = try analyze([], options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        #expect(r.days.isEmpty && r.weeks.isEmpty)
        #expect(r.noteTexts.contains { $0.hasPrefix("No activity data") })
    }
}

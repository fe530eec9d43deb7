import Foundation
import HealthReports
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// The report's cost grows with the data, not with the span of its dates. Runs of more
/// than 31 days without data are left out of the rows (`KeptDays`), with a note each.
@Suite("Days without data far apart")
struct SparseDaysTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    func steps(_ date: String, _ value: Double = 100) -> Record {
        sample(.phone, utc, "\(date) 10:00", "\(date) 10:05", value)
    }

    func dates(_ r: AnalysisResult) -> [String] { r.days.map(\.date.description) }

    // MARK: The kept-day set

    /// 1900-01-01 is day −25 567 and 2025-06-01 day 20 240 (days since 1970). With data on
    /// both, the run between them, 1900-01-02 … 2025-05-31, is 20 240 − (−25 567) − 1 = 45 806
    /// days: left out. The set holds the 2 data days, not 45 808.
    @Test func twoDaysACenturyApartKeepTwoDays() {
        let first = day("1900-01-01").daysSince1970
        let last = day("2025-06-01").daysSince1970
        #expect(first == -25_567 && last == 20_240)
        let kept = KeptDays(range: first...last, anchors: [last, first])
        #expect(kept.days == [first, last])
        #expect(kept.gaps == [(first + 1)...(last - 1)])
        #expect(kept.gaps.first?.count == 45_806)
        #expect(kept.index(first) == 0 && kept.index(last) == 1 && kept.index(first + 1) == nil)
    }

    /// Anchors 0 and 32: the run 1 … 31 is 31 days, listed (33 days kept). Anchors 0 and 33: the
    /// run 1 … 32 is 32 days, left out (2 days kept).
    @Test func aRunOf31DaysIsListedAndOf32IsLeftOut() {
        let listed = KeptDays(range: 0...32, anchors: [0, 32])
        #expect(listed.days == Array(0...32) && listed.gaps.isEmpty)
        let leftOut = KeptDays(range: 0...33, anchors: [0, 33])
        #expect(leftOut.days == [0, 33] && leftOut.gaps == [1...32])
    }

    /// Runs at the edges of the range count too: 0 … 39 (40 days) before the anchor 40 and
    /// 41 … 100 (60 days) after it are left out; 31 days before one and 31 after are listed.
    @Test func runsAtTheEdgesFollowTheSameRule() {
        let far = KeptDays(range: 0...100, anchors: [40])
        #expect(far.days == [40] && far.gaps == [0...39, 41...100])
        let near = KeptDays(range: 0...62, anchors: [31, 500, -3])
        #expect(near.days == Array(0...62) && near.gaps.isEmpty)
        // Bounded by the anchors: at most 32 days per anchor plus one trailing run of 31.
        let many = KeptDays(range: 0...1_000_000, anchors: Array(stride(from: 0, to: 1_000_000, by: 50_000)))
        #expect(many.days.count == 20 && many.gaps.count == 20)
    }

    /// 23 anchors 40 days apart: 22 runs of 39 days. The first 20 are named one by one, the last
    /// 2 (days 801 … 839 and 841 … 879, 78 days) in one note.
    @Test func runsPastTheTwentiethShareOneNote() {
        let kept = KeptDays(range: 0...880, anchors: Array(stride(from: 0, through: 880, by: 40)))
        #expect(kept.gaps.count == 22 && kept.days.count == 23)
        let notes = kept.gapNotes(report: 0...880).map(\.text)
        #expect(notes.count == 21)
        #expect(notes[0].hasPrefix("No data from 1970-01-02 to 1970-02-09 (39 days): "))
        #expect(
            notes[20]
                == "No data in 2 more runs of more than 31 days between \(CivilDate(daysSince1970: 801)) and "
                + "\(CivilDate(daysSince1970: 879)) (78 days in all): they are left out too.")
    }

    /// The sparse sums: a sweep over two days 45 806 days apart holds two entries.
    @Test func sparseSumsHoldTheDaysWithData() {
        var sums = SparseSums()
        sums.add(20_240, 1)
        sums.add(-25_567, 2)
        sums.add(20_240, 3)
        sums.add(0, 0)  // a zero is data
        #expect(sums.keys == [-25_567, 0, 20_240] && sums.sums == [2, 0, 4])
        #expect(sums[0] == 0 && sums[1] == nil && sums[20_240] == 4)
    }

    // MARK: The analysis

    /// The issue's file: a stand hour on 1900-01-01 and 100 steps on 2025-06-01. Rows: the two
    /// data days; the 45 806 days between are one note. 1900-01-01 is a Monday (1900-W01) and
    /// 2025-06-01 a Sunday (2025-W22, Mon 05-26 … Sun 06-01): two weeks, and two months.
    @Test func theIssuesFileHasTwoRowsTwoWeeksTwoMonthsAndANote() throws {
        let r = try analyze(
            [standHour(.watch, utc, "1900-01-01 10:00"), steps("2025-06-01")], options: options,
            exportDate: utc.ts("2025-06-10 12:00"))
        #expect(dates(r) == ["1900-01-01", "2025-06-01"])
        #expect(r.days[0].standHours == 1 && r.days[1].steps == 100)
        #expect(r.firstDay == day("1900-01-01") && r.lastDay == day("2025-06-01"))
        #expect(r.weeks.map(\.week) == ["1900-W01", "2025-W22"])
        #expect(r.weeks.map(\.days) == [1, 1])
        #expect(r.months.map(\.month) == ["1900-01", "2025-06"])
        let gapNotes = r.noteTexts.filter { $0.hasPrefix("No data from") }
        #expect(
            gapNotes == [
                "No data from 1900-01-02 to 2025-05-31 (45,806 days): runs of more than 31 days without data are "
                    + "left out of daily.csv, weekly.csv, monthly.csv and the charts."
            ])
    }

    /// 2025-01-01 and 2025-02-02: the run Jan 2 … Feb 1 is 31 days, listed: 33 rows, no note.
    /// 2025-01-01 and 2025-02-03: Jan 2 … Feb 2 is 32 days, left out: 2 rows and a note.
    @Test func aGapOf31DaysKeepsItsRowsAndOf32IsLeftOut() throws {
        let listed = try analyze([steps("2025-01-01"), steps("2025-02-02")], options: options)
        #expect(listed.days.count == 33)
        #expect(listed.days.first?.date == day("2025-01-01") && listed.days.last?.date == day("2025-02-02"))
        #expect(listed.days[1...31].allSatisfy { $0.steps == nil })
        #expect(!listed.noteTexts.contains { $0.hasPrefix("No data from") })
        let leftOut = try analyze([steps("2025-01-01"), steps("2025-02-03")], options: options)
        #expect(dates(leftOut) == ["2025-01-01", "2025-02-03"])
        #expect(leftOut.noteTexts.contains { $0.hasPrefix("No data from 2025-01-02 to 2025-02-02 (32 days): ") })
    }

    /// A day with only a sleep or only an HRV value is a day with data: it is listed, and it
    /// splits the run. Data 2025-01-01, a night ending 2025-01-25 (sleep only), 2025-02-20: runs
    /// Jan 2 … Jan 24 (23 days) and Jan 26 … Feb 19 (25 days), both listed: 51 rows.
    @Test func aDayWithOnlySleepSplitsTheRun() throws {
        let night = Record(
            type: "HKCategoryTypeIdentifierSleepAnalysis", value: .category(.sleepAnalysis(.asleepCore)),
            sourceName: TestSource.watch.name, device: TestSource.watch.device,
            startDate: utc.ts("2025-01-24 23:00"), endDate: utc.ts("2025-01-25 06:00"))
        let r = try analyze([steps("2025-01-01"), night, steps("2025-02-20")], options: options)
        #expect(r.days.count == 51)
        #expect(r.day("2025-01-25")?.sleepMinutes == 420)
        #expect(!r.noteTexts.contains { $0.hasPrefix("No data from") })
    }

    /// ISO weeks around a left-out run. 1,000 steps a day on 2025-W02 (Mon Jan 6 … Sun Jan 12),
    /// 5,000 a day on Mon Jan 13 … Fri Jan 17 (W03), then nothing until Wed Feb 19: the run
    /// Sat Jan 18 … Tue Feb 18 is 32 days, left out, and with it W04 … W07 (Jan 20 … Feb 16).
    /// Then 1,000 a day from Feb 19 to Sun Mar 9 (W08 from Wednesday, W09, W10).
    /// * W03 and W08 hold the run's edges and stay, with their own days only (5 each).
    /// * W08's change: its previous week, W07, is left out (no data): nil, not W03's −80 %.
    /// * W09's change: (1000 − 1000) / 1000 = 0 %.
    /// * Rolling 4 weeks at W10: W07 … W10, i.e. 5 + 7 + 7 = 19 step days ≥ 14, 19,000 / 19 =
    ///   1,000 (W03, four places back in the list, is not one of them). At W09 (W06 … W09):
    ///   5 + 7 = 12 < 14: nil.
    @Test func weeksInsideARunAreLeftOutAndTheEdgeWeeksStay() throws {
        var records: [Record] = []
        func daily(_ from: String, _ count: Int, _ value: Double) {
            for k in 0..<count { records.append(steps(day(from).adding(days: k).description, value)) }
        }
        daily("2025-01-06", 7, 1000)
        daily("2025-01-13", 5, 5000)
        daily("2025-02-19", 19, 1000)
        let r = try analyze(records, options: options, exportDate: utc.ts("2025-03-12 12:00"))
        #expect(r.days.count == 7 + 5 + 19)
        #expect(r.weeks.map(\.week) == ["2025-W02", "2025-W03", "2025-W08", "2025-W09", "2025-W10"])
        #expect(r.weeks.map(\.days) == [7, 5, 5, 7, 7])
        #expect(r.weeks.map(\.partial) == [false, false, false, false, false])
        #expect(r.weeks[1].stepsChangePercent == 400)  // (5000 − 1000) / 1000
        #expect(r.weeks[2].stepsChangePercent == nil)
        #expect(r.weeks[3].stepsChangePercent == 0)
        #expect(r.weeks[3].stepsPerDayRolling4Weeks == nil)
        #expect(r.weeks[4].stepsPerDayRolling4Weeks == 1000)
        #expect(r.noteTexts.contains { $0.hasPrefix("No data from 2025-01-18 to 2025-02-18 (32 days): ") })
        // Sunday weeks: Jan 13 … 17 is in the week of Jan 12, Feb 19 in the week of Feb 16;
        // the weeks of Jan 19, 26, Feb 2 and 9 lie inside the run.
        var sunday = options
        sunday.weekStart = .sunday
        let s = try analyze(records, options: sunday, exportDate: utc.ts("2025-03-12 12:00"))
        #expect(
            s.weeks.map(\.week) == [
                "week of 2025-01-05", "week of 2025-01-12", "week of 2025-02-16", "week of 2025-02-23",
                "week of 2025-03-02", "week of 2025-03-09",
            ])
    }

    /// Months inside a run are left out: data on 2025-01-01 and 2025-04-15; February and March
    /// lie inside the run Jan 2 … Apr 14. January stays (not partial: the period starts on the
    /// 1st), April stays (partial: the period ends on the 15th), as in a listing of every day.
    @Test func monthsInsideARunAreLeftOut() throws {
        let r = try analyze([steps("2025-01-01"), steps("2025-04-15", 50)], options: options)
        #expect(r.months.map(\.month) == ["2025-01", "2025-04"])
        #expect(r.months.map(\.partial) == [false, true])
        #expect(r.months.map(\.steps) == [100, 50])
    }

    /// `--week last` whose week lies inside a run without data: data on 2025-01-01 only, exported
    /// Tue 2025-06-10: the last complete week is 2025-W23 (Jun 2 … 8), without data. It is an
    /// empty window (docs/weeks.md §7): nothing reported, so a cron job keeps last week's report
    /// (it listed 7 empty rows).
    @Test func theWeekOfWeekLastInsideARunIsAnEmptyWindow() throws {
        var last = options
        last.lastCompleteWeekOnly = true
        let r = try analyze([steps("2025-01-01")], options: last, exportDate: utc.ts("2025-06-10 12:00"))
        #expect(r.emptyWindow?.week == CivilDate("2025-06-02")!...CivilDate("2025-06-08")!)
        #expect(dates(r).isEmpty && r.weeks.isEmpty)
    }

    /// A streak of all rings closed ends at a left-out run: two closed days 40 days apart are
    /// two streaks of 1, not one of 2.
    @Test func aStreakEndsAtALeftOutRun() throws {
        var records: [Record] = []
        var summaries: [ActivitySummary] = []
        for date in ["2025-01-01", "2025-02-10"] {
            records.append(sample(.watch, utc, "\(date) 10:00", "\(date) 10:10", 300, type: T.activeEnergy))
            records.append(sample(.watch, utc, "\(date) 11:00", "\(date) 11:40", 40, type: T.exercise))
            records.append(standHour(.watch, utc, "\(date) 12:00"))
            summaries.append(
                summary(date, moveKcal: 300, moveGoal: 300, exercise: 40, exerciseGoal: 30, stand: 1, standGoal: 1))
        }
        let r = try analyze(records, summaries: summaries, options: options)
        #expect(dates(r) == ["2025-01-01", "2025-02-10"])
        #expect(r.days.map(\.ringsClosed) == [3, 3])
        #expect(r.longestAllRingsStreak.days == 1)
    }

    /// A cumulative sample is prorated over every day it covers (docs/deduplication.md §4), so its length is
    /// capped: 31 days (2 678 400 s) is kept, one second more is dropped with a note naming its
    /// line. 3,100 steps over 2025-01-01 10:00 … 2025-02-01 10:00 (UTC) are 100 a day: 14 h of
    /// Jan 1 (14/24 × 100 = 58.33), 100 on Jan 2 … 31, and 10 h of Feb 1 (41.67): 32 rows.
    @Test func cumulativeSamplesLongerThan31DaysAreDroppedWithTheirLine() throws {
        let start = utc.t("2025-01-01 10:00")
        var kept = sample(.phone, start, start + 31 * 86_400, 3100)
        kept.line = 7
        var long = sample(.phone, start, start + 31 * 86_400 + 1, 5000, type: T.distance)
        long.line = 9
        let r = try analyze([kept, long], options: options)
        #expect(r.days.count == 32)
        #expect(close(r.day("2025-01-01")?.steps, 100 * 14 / 24.0))
        #expect(close(r.day("2025-01-15")?.steps, 100))
        #expect(close(r.day("2025-02-01")?.steps, 100 * 10 / 24.0))
        #expect(r.days.allSatisfy { $0.distanceKm == nil })
        #expect(r.noteTexts.contains("Dropped 1 cumulative sample longer than 31 days (first at line 9)."))
    }

    /// A change of zone whose candidate first days span 94 years: the candidates are scored run
    /// by run (only the days with ring data in between split them), with the same result as in
    /// `ZoneTimelineTests.ringAgreementPlacesAChangeInsideAGapWithoutZoneSamples`, whose ring
    /// data and summaries this repeats: 10 exercise minutes at 03:00 Berlin time on 2024-03-19
    /// … 23. First days up to 03-19 agree on 5 days; the latest of them, 03-19, is chosen.
    @Test func aZoneChangeDecadesWideIsPlacedByTheSameRule() {
        let timeline = ZoneTimelineTests.losAngelesToBerlin(
            range: Clock(zone: "UTC").t("1930-03-01 00:00")...Clock(zone: "UTC").t("2024-04-20 00:00"),
            lastLosAngelesNoon: "1930-03-15 12:00"
        ).build()
        #expect(timeline.periods.map(\.identifier) == ["America/Los_Angeles", "Europe/Berlin"])
        #expect(timeline.periods[1].firstDay == CivilDate("2024-03-19")!.daysSince1970)
        #expect(
            timeline.periods[1].changeText
                == "the change lies between 1930-03-16 and 2024-03-24; 2024-03-19 agrees best with the "
                + "ActivitySummary (5 of 5 days around it)")
    }
}

import HealthExport
import HealthTables
import Testing

@testable import HealthAnalysis
@testable import HealthReports

/// Counts that agree across report.md, report.html, report.json and `--summary`: the two kinds
/// of night (docs/sleep-and-workouts.md §6) and the period's days (docs/weeks.md §8).
@Suite("Counts that agree")
struct CountsAgreeTests {
    static func night(_ date: String, asleep: Double?, inBed: Double?) -> SleepNight {
        var n = SleepNight(night: CivilDate(date)!, isNap: false)
        n.asleepMinutes = asleep
        n.inBedMinutes = inBed
        if asleep != nil {
            n.source = "Watch"
            n.unspecifiedMinutes = asleep
        }
        n.sourceCount = 1
        return n
    }

    static func texts(_ r: AnalysisResult) -> (md: String, html: String, json: String, summary: String) {
        let w = ReportWriter()
        let c = makeSampleContext()
        return (
            w.markdownReport(r, context: c), w.text(of: .html, for: r, context: c), w.reportJSON(r, context: c),
            w.summaryText(r, context: c)
        )
    }

    /// An iPhone with a sleep schedule and no Watch: three nights of time in bed only, 480, 450
    /// and 510 min, mean 1,440 / 3 = 480 min = 8 h 00 min. Before: "No sleep records".
    @Test func nightsInBedOnlyAreReportedAsTimeInBed() {
        var r = makeSampleResult()
        r.sleep = [
            Self.night("2025-01-05", asleep: nil, inBed: 480), Self.night("2025-01-06", asleep: nil, inBed: 450),
            Self.night("2025-01-07", asleep: nil, inBed: 510),
        ]
        let t = Self.texts(r)
        #expect(!t.md.contains("No sleep records"))
        #expect(t.md.contains("| In bed | 3 | 8 h 00 min |"))
        #expect(!t.md.contains("| Asleep |"))
        #expect(t.md.contains("No night has asleep records: the nights above are time in bed only"))
        #expect(t.html.contains("8 h 00 min") && !t.html.contains("No sleep records"))
        #expect(
            t.json.contains(
                "\"sleep_nights\": {\"asleep_nights\": 0, \"asleep_mean_min\": null, \"in_bed_nights\": 3, "
                    + "\"in_bed_mean_min\": 480.000, \"in_bed_only_nights\": 3}"))
        #expect(
            t.summary.contains(
                "\nSleep: no night with asleep records\n  in bed 8 h 00 min a night over 3 nights (3 in bed only)\n"))
    }

    /// Both kinds: nights A (asleep 420, in bed 480), B (asleep 400, in bed 450) and C (in bed
    /// 500 only). Asleep: 2 nights, (420 + 400) / 2 = 410 min = 6 h 50 min. In bed: 3 nights,
    /// (480 + 450 + 500) / 3 = 476.67 min, shown 7 h 57 min. Before: "Nights 2" and in bed
    /// (480 + 450) / 2 = 465 = 7 h 45 min, averaged over the asleep nights only; C unmentioned.
    @Test func eachKindOfNightIsCountedAndAveragedOverItsOwnNights() {
        var r = makeSampleResult()
        r.sleep = [
            Self.night("2025-01-05", asleep: 420, inBed: 480), Self.night("2025-01-06", asleep: 400, inBed: 450),
            Self.night("2025-01-07", asleep: nil, inBed: 500),
        ]
        let t = Self.texts(r)
        #expect(t.md.contains("| Asleep | 2 | 6 h 50 min |"))
        #expect(t.md.contains("| In bed | 3 | 7 h 57 min |"))
        #expect(t.md.contains("1 night of the 3 in bed has no asleep records (in bed only)"))
        #expect(t.html.contains("6 h 50 min") && t.html.contains("7 h 57 min"))
        #expect(
            t.json.contains(
                "\"sleep_nights\": {\"asleep_nights\": 2, \"asleep_mean_min\": 410.000, \"in_bed_nights\": 3, "
                    + "\"in_bed_mean_min\": 476.667, \"in_bed_only_nights\": 1}"))
        #expect(
            t.summary.contains(
                "\nSleep: asleep 6 h 50 min a night over 2 nights\n  in bed 7 h 57 min a night over 3 nights (1 in bed only)\n"
            ))
    }

    /// Four days with steps, 2016-11-14, 2017-03-01, 2017-09-01 and 2018-09-10: the period runs
    /// 2016-11-14 to 2018-09-10, 365 days to 2017-11-14 and 300 more to 2018-09-10, so 665 + 1 =
    /// 666 days in it, 4 with data. Before: report.md said "(666 days)", the terminal "4 days".
    @Test func thePeriodsDaysAreCountedOneWayEverywhere() {
        var r = makeSampleResult()
        r.firstDay = CivilDate("2016-11-14")
        r.lastDay = CivilDate("2018-09-10")
        r.days = ["2016-11-14", "2017-03-01", "2017-09-01", "2018-09-10"].map {
            var d = DailyMetrics(date: CivilDate($0)!)
            d.steps = 1_000
            return d
        }
        r.weeks = []
        r.months = []
        let days = PeriodDays(r)
        #expect(days.inPeriod == 666 && days.withData == 4)
        let t = Self.texts(r)
        #expect(t.md.contains("2016-11-14 to 2018-09-10 (666 days in the period, 4 with data)"))
        #expect(t.html.contains("2016-11-14 to 2018-09-10 (666 days in the period, 4 with data)"))
        #expect(t.json.contains("\"days\": 666, \"days_with_data\": 4}"))
        #expect(t.summary.contains("\n666 days in the period, 4 with data\n"))
    }

    /// Two summary-only days (an ActivitySummary, no ring records): 2025-01-06 Move 420 of 400
    /// kcal, Exercise 35 of 30 min, Stand 10 of 12 h; 2025-01-07 Move 380 of 400, Exercise 41 of
    /// 30, Stand 12 of 12. Closed: Move 1 (the 6th), Exercise 2, Stand 1 (the 7th), all three 0.
    /// At a glance lists the summary's values: Exercise (35 + 41) / 2 = 38 min, Move (420 +
    /// 380) / 2 = 400 kcal, Stand (10 + 12) / 2 = 11.0 h. Before: "Activity rings" said Exercise
    /// closed on 2 of 2 days while "At a glance" said no day had Exercise data.
    @Test func ringsAndAtAGlanceAgreeOnSummaryOnlyDays() throws {
        var r = makeSampleResult()
        r.days = [("2025-01-06", 420.0, 35.0, 10.0), ("2025-01-07", 380, 41, 12)].map { date, move, exercise, stand in
            var d = DailyMetrics(date: CivilDate(date)!)
            (d.summaryMoveKcal, d.summaryExerciseMinutes, d.summaryStandHours) = (move, exercise, stand)
            (d.moveGoalKcal, d.exerciseGoalMinutes, d.standGoalHours) = (400, 30, 12)
            d.ringsClosed = RingsClosed(d).countedRings
            return d
        }
        #expect(r.days.map(\.ringsClosed) == [2, 2])
        r.firstDay = CivilDate("2025-01-06")
        r.lastDay = CivilDate("2025-01-07")
        var week = WeeklyMetrics(week: "2025-W02", weekStart: CivilDate("2025-01-06")!)
        (week.days, week.moveRingClosedDays, week.exerciseRingClosedDays, week.standRingClosedDays) = (2, 1, 2, 1)
        r.weeks = [week]
        r.months = []
        r.sleep = []
        let t = Self.texts(r)
        let glance = try #require(t.md.range(of: "## At a glance\n"))
        let rings = try #require(t.md.range(of: "## Activity rings\n"))
        let glanceText = String(t.md[glance.upperBound...])
        #expect(t.md.contains("| Exercise, ActivitySummary (min) | 2 | 38 | 35 | 41 |"))
        #expect(t.md.contains("| Move, ActivitySummary (kcal) | 2 | 400 | 380 | 420 |"))
        #expect(t.md.contains("| Stand hours, ActivitySummary | 2 | 11.0 | 10.0 | 12.0 |"))
        #expect(!glanceText.prefix(2_000).contains("No day has data for: Active energy (kcal), Move"))
        #expect(
            t.md.contains(
                "No day has data for: Steps, Distance (km), Flights climbed, Active energy (kcal), "
                    + "Resting heart rate (bpm)."))
        #expect(t.md.contains("the summary's own values on the 2 days without ring records"))
        #expect(
            t.md[rings.upperBound...].contains(
                "Of 2 days with ring goals (no ring records on any of them: the rings are the ActivitySummary's own "
                    + "values against its goals):"))
        #expect(t.md.contains("| Exercise | 2 | 100% |"))
    }
}

import HealthExport
import Testing

@testable import HealthAnalysis

/// Activity Trends (docs/trends.md): the mean over the days with data among the last 90 and the
/// last 365 days, the days in each, the direction, and the 180-day minimum.
@Suite("Trends")
struct TrendsTests {
    static let end = CivilDate("2024-12-31")!

    /// 200 days ending 2024-12-31 (2024-06-15 to 2024-12-31): the last 90 start on 2024-10-03
    /// (Oct 3 + 28 = Oct 31, + 30 = Nov 30, + 31 = Dec 31: 89 days after Oct 3).
    /// - Exercise: 20 min on each of the first 110 days, 50 min on each of the last 90.
    /// - Sleep: 480 min on 10 of the first 110 days, 420 min on 30 of the last 90.
    /// - Resting heart rate: 60 bpm every day.
    /// - One row 366 days before the end (2023-12-31) with 1,000 exercise minutes: outside the
    ///   365 days, ignored.
    static func rows() -> [DailyMetrics] {
        var rows: [DailyMetrics] = []
        let endDay = end.daysSince1970
        for i in 0..<200 {
            var m = DailyMetrics(date: CivilDate(daysSince1970: endDay - 199 + i))
            let recent = i >= 110
            m.exerciseMinutes = recent ? 50 : 20
            if recent ? (i - 110) % 3 == 0 : i % 11 == 0 { m.sleepMinutes = recent ? 420 : 480 }
            m.restingHeartRateBpm = 60
            rows.append(m)
        }
        var old = DailyMetrics(date: CivilDate(daysSince1970: endDay - 365))
        old.exerciseMinutes = 1000
        rows.append(old)
        return rows
    }

    @Test func meansOverTheDaysWithDataInEachWindow() throws {
        let t = Trends.compute(rows: Self.rows(), end: Self.end, historyFirst: CivilDate("2024-06-15")!)
        #expect(t.historyDays == 200)
        #expect(t.trends.map(\.metric) == TrendMetric.allCases)
        // Exercise: year = (110 × 20 + 90 × 50) / 200 = (2,200 + 4,500) / 200 = 33.5 min over
        // 200 days; last 90 days: 50 min over 90 days. 50 > 33.5 × 1.03 = 34.505: up.
        let exercise = try #require(t.trends.first { $0.metric == .exercise })
        #expect(exercise.unit == "min/day")
        #expect(exercise.yearDays == 200 && exercise.recentDays == 90)
        #expect(close(exercise.yearMean, 33.5) && close(exercise.recentMean, 50))
        #expect(exercise.direction == .up && exercise.whyNone == nil)
        // Sleep: i % 11 == 0 for i in 0..<110 gives 10 nights (0, 11, …, 99) at 480; (i − 110) % 3
        // == 0 for i in 110..<200 gives 30 nights at 420. Year = (4,800 + 12,600) / 40 = 435 over
        // 40 nights; last 90 days = 420 over 30. 420 < 435 × 0.97 = 421.95: down.
        let sleep = try #require(t.trends.first { $0.metric == .sleep })
        #expect(sleep.yearDays == 40 && sleep.recentDays == 30)
        #expect(close(sleep.yearMean, 435) && close(sleep.recentMean, 420))
        #expect(sleep.direction == .down)
        // Resting heart rate: 60 in both: steady.
        let rhr = try #require(t.trends.first { $0.metric == .restingHeartRate })
        #expect(rhr.direction == .steady && rhr.yearDays == 200)
        // No stand time and no speeds: no trend, and why.
        let stand = try #require(t.trends.first { $0.metric == .standMinutes })
        #expect(stand.direction == nil && stand.whyNone == "no data in the 365 days up to 2024-12-31")
        #expect(
            t.trends.first { $0.metric == .walkingSpeed }?.whyNone == "no data in the 365 days up to 2024-12-31")
    }

    @Test func noTrendBefore180DaysOfHistory() throws {
        let endDay = Self.end.daysSince1970
        // 2024-07-05 to 2024-12-31: 179 days, one short of the minimum.
        let short = Trends.compute(
            rows: Self.rows(), end: Self.end, historyFirst: CivilDate(daysSince1970: endDay - 178))
        #expect(short.historyDays == 179)
        #expect(short.trends.allSatisfy { $0.direction == nil })
        let exercise = try #require(short.trends.first { $0.metric == .exercise })
        #expect(exercise.whyNone == "179 days of history up to 2024-12-31; trends need 180")
        // The means are still given.
        #expect(close(exercise.recentMean, 50))
        // 180 days: the trend is shown.
        let enough = Trends.compute(
            rows: Self.rows(), end: Self.end, historyFirst: CivilDate(daysSince1970: endDay - 179))
        #expect(enough.trends.first { $0.metric == .exercise }?.direction == .up)
    }

    /// A window's trends are computed at its end from the days before it too: 365 days of
    /// Watch exercise, 2024-01-02 to 2024-12-31 (UTC), 30 min a day on the first 275 days and
    /// 45 on the last 90 (from 2024-10-03). `--from 2024-12-25 --to 2024-12-31` reports 7 days,
    /// but the trend has 90 and 365 days: year = (275 × 30 + 90 × 45) / 365 = (8,250 + 4,050) /
    /// 365 = 33.6986… min, last 90 days = 45 min: up. With `--to 2024-10-02` the trend ends there:
    /// 275 days of history (2024-01-02 to 2024-10-02: 30 + 29 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 2),
    /// all at 30 min: steady.
    @Test func aWindowsTrendsUseTheDaysBeforeIt() throws {
        let clock = Clock(zone: "UTC")
        let first = CivilDate("2024-01-02")!.daysSince1970
        var records: [Record] = []
        for d in first...Self.end.daysSince1970 {
            let minutes: Double = d >= CivilDate("2024-10-03")!.daysSince1970 ? 45 : 30
            let t = clock.midnight(CivilDate(daysSince1970: d).description) + 8 * 3600
            records.append(sample(.watch, t, t + Int64(minutes) * 60, minutes, type: T.exercise))
        }
        let r = try analyze(
            records,
            options: AnalysisOptions(timeZoneIdentifier: "UTC", from: day("2024-12-25"), to: day("2024-12-31")))
        #expect(r.days.count == 7)
        let t = try #require(r.trends)
        #expect(t.end == Self.end && t.historyDays == 365)
        let exercise = try #require(t.trends.first { $0.metric == .exercise })
        #expect(exercise.recentDays == 90 && exercise.yearDays == 365)
        #expect(close(exercise.recentMean, 45) && close(exercise.yearMean, 12_300.0 / 365))
        #expect(exercise.direction == .up)

        let earlier = try analyze(
            records,
            options: AnalysisOptions(timeZoneIdentifier: "UTC", from: day("2024-09-01"), to: day("2024-10-02")))
        let e = try #require(earlier.trends?.trends.first { $0.metric == .exercise })
        #expect(earlier.trends?.historyDays == 275)
        #expect(e.yearDays == 275 && close(e.yearMean, 30) && e.direction == .steady)
    }

    /// Walking and running speed (docs/trends.md §1), read from `WalkingSpeed` and
    /// `RunningSpeed` samples: 200 days ending 2024-12-31 (from 2024-06-15), walking speed two
    /// samples a day from two sources, 4.0 and 5.0 km/h (day mean 4.5) on the first 110 days and
    /// 5.0 and 6.0 (day mean 5.5) on the last 90; running speed on the last day only, 3.6 m/s
    /// (written in m/s: 12.96 km/h); one walking sample of 30 km/h, implausible, is dropped.
    /// Walking: year = (110 × 4.5 + 90 × 5.5) / 200 = (495 + 495) / 200 = 4.95 km/h, last 90 days
    /// 5.5 > 4.95 × 1.03 = 5.0985: up. Running: 12.96 both: steady.
    @Test func walkingAndRunningSpeedHaveTrendsInKilometresPerHour() throws {
        let clock = Clock(zone: "UTC")
        var records: [Record] = []
        func speed(
            _ source: TestSource, _ t: Int64, _ value: Double, _ type: String, unit: CanonicalUnit, _ written: String
        ) -> Record {
            Record(
                type: type,
                value: .quantity(Quantity(value: value, unit: unit, originalValue: value, originalUnit: written)),
                sourceName: source.name, device: source.device, startDate: Timestamp(secondsSince1970: t),
                endDate: Timestamp(secondsSince1970: t + 60))
        }
        let walking = "HKQuantityTypeIdentifierWalkingSpeed"
        let running = "HKQuantityTypeIdentifierRunningSpeed"
        let endDay = Self.end.daysSince1970
        for i in 0..<200 {
            let d = endDay - 199 + i
            let t = clock.midnight(CivilDate(daysSince1970: d).description) + 9 * 3600
            let base: Double = i >= 110 ? 5 : 4
            records.append(speed(.watch, t, base, walking, unit: .kilometrePerHour, "km/hr"))
            records.append(speed(.phone, t + 600, base + 1, walking, unit: .kilometrePerHour, "km/hr"))
        }
        let last = clock.midnight("2024-12-31") + 18 * 3600
        records.append(speed(.watch, last, 3.6 * 3.6, running, unit: .kilometrePerHour, "m/s"))
        records.append(speed(.watch, last + 60, 30, walking, unit: .kilometrePerHour, "km/hr"))
        let r = try analyze(records, options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        let t = try #require(r.trends)
        let walk = try #require(t.trends.first { $0.metric == .walkingSpeed })
        #expect(walk.unit == "km/h" && walk.yearDays == 200 && walk.recentDays == 90)
        #expect(close(walk.yearMean, 4.95) && close(walk.recentMean, 5.5))
        #expect(walk.direction == .up)
        let run = try #require(t.trends.first { $0.metric == .runningSpeed })
        #expect(run.yearDays == 1 && close(run.yearMean, 12.96) && run.direction == .steady)
    }

    /// Changed direction (docs/trends.md §4): Watch exercise on every day of 2024 (366 days,
    /// UTC), 30 min a day except the last 7 (Dec 25 to 31) at 100 min; resting heart rate 55 bpm
    /// on Dec 29 to 31 only.
    /// - At 2024-12-31: the 365 days are Jan 2 to Dec 31, (358 × 30 + 7 × 100) / 365 = 11,440 /
    ///   365 = 31.342 min; the 90 days (Oct 3 to Dec 31), (83 × 30 + 7 × 100) / 90 = 3,190 / 90 =
    ///   35.444 min > 31.342 × 1.03 = 32.282: up.
    /// - At 2024-12-24 (a week before): every day 30 min: steady. So exercise changed direction.
    /// - Resting heart rate: steady at Dec 31 (55 in both), no data up to Dec 24: no previous
    ///   direction, so it gained a trend but did not change direction.
    @Test func aTrendChangedDirectionWhenItsDirectionAWeekBeforeDiffers() throws {
        let clock = Clock(zone: "UTC")
        var records: [Record] = []
        let first = CivilDate("2024-01-01")!.daysSince1970
        for d in first...Self.end.daysSince1970 {
            let minutes: Double = d >= CivilDate("2024-12-25")!.daysSince1970 ? 100 : 30
            let t = clock.midnight(CivilDate(daysSince1970: d).description) + 8 * 3600
            records.append(sample(.watch, t, t + Int64(minutes) * 60, minutes, type: T.exercise))
            if d >= CivilDate("2024-12-29")!.daysSince1970 {
                records.append(sample(.watch, t, t + 60, 55, type: T.restingHeartRate))
            }
        }
        let r = try analyze(records, options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        let t = try #require(r.trends)
        #expect(t.end == Self.end && t.previousEnd == day("2024-12-24"))
        let exercise = try #require(t.trends.first { $0.metric == .exercise })
        #expect(close(exercise.yearMean, 11_440.0 / 365) && close(exercise.recentMean, 3_190.0 / 90))
        #expect(exercise.direction == .up && exercise.previousDirection == .steady && exercise.changedDirection)
        let rhr = try #require(t.trends.first { $0.metric == .restingHeartRate })
        #expect(rhr.direction == .steady && rhr.previousDirection == nil && !rhr.changedDirection)
        #expect(t.trends.filter(\.changedDirection).map(\.metric) == [.exercise])
    }
}

/// `--week last` whose week has no data is an empty window (docs/weeks.md §7).
@Suite("Empty last week")
struct EmptyLastWeekTests {
    /// Steps on 2024-12-02 (Mon) to 2024-12-04, export on 2024-12-18 (Wed) 12:00 UTC: the last
    /// complete ISO week is 2024-12-09 (Mon) to 2024-12-15 (Sun), which has no record.
    @Test func aLastWeekWithoutDataIsAnEmptyWindow() throws {
        let clock = Clock(zone: "UTC")
        let records = ["2024-12-02", "2024-12-03", "2024-12-04"].map { d in
            sample(.watch, clock.t(d + " 09:00"), clock.t(d + " 09:10"), 500)
        }
        let r = try analyze(
            records, options: AnalysisOptions(timeZoneIdentifier: "UTC", lastCompleteWeekOnly: true),
            exportDate: clock.ts("2024-12-18 12:00"))
        let empty = try #require(r.emptyWindow)
        #expect(empty.week == day("2024-12-09")...day("2024-12-15"))
        #expect(
            empty.description
                == "--week last: no data in the last complete week, 2024-12-09 to 2024-12-15; "
                + "the export's data runs from 2024-12-02 to 2024-12-04")
        #expect(r.days.isEmpty)
    }
}

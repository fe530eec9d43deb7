import Foundation
import HealthReports
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// The zone timeline's pure pieces (docs/days-and-time-zones.md §5): evidence, the calendar of a timeline, and
/// where the builder puts a change. Instants come from Foundation's Calendar (`Clock`), an
/// oracle independent of `LocalCalendar`.
@Suite("Zone timeline")
struct ZoneTimelineTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let range: ClosedRange<Int64> =
        Clock(zone: "UTC").t(
            "2024-02-20 00:00")...Clock(zone: "UTC").t(
            "2024-04-20 00:00")

    static func timeline(_ a: TimeZone, then b: TimeZone, firstDay: String) -> ZoneTimeline {
        let x = CivilDate(firstDay)!.daysSince1970
        let start = LocalCalendar(timeZone: b, covering: range).startOfDay(x)
        return ZoneTimeline(periods: [
            .init(
                identifier: a.identifier, timeZone: a, fixedOffset: 0, start: .min, firstDay: nil,
                reason: .hkTimeZone(samples: 1)),
            .init(
                identifier: b.identifier, timeZone: b, fixedOffset: 0, start: start, firstDay: x,
                reason: .hkTimeZone(samples: 1)),
        ])
    }

    @Test func goingEastTheLastDayInTheOldZoneIsShorter() {
        // LA (PDT, -7) to Berlin (CET, +1) on 2024-03-21: Berlin's midnight starting 03-21 is
        // 2024-03-20 23:00Z = 16:00 PDT on 03-20, so 03-20 runs 00:00 PDT (07:00Z) to 23:00Z: 16 h.
        let cal = Self.timeline(Self.la, then: Self.berlin, firstDay: "2024-03-21").calendar(covering: Self.range)
        let d20 = CivilDate("2024-03-20")!.daysSince1970
        #expect(cal.startOfDay(d20) == Clock(zone: "UTC").t("2024-03-20 07:00"))
        #expect(cal.startOfDay(d20 + 1) == Clock(zone: "UTC").t("2024-03-20 23:00"))
        #expect(cal.startOfDay(d20 + 2) == Clock(zone: "UTC").t("2024-03-21 23:00"))
        // 15:59 PDT is still 03-20; 16:00 PDT is 00:00 CET on 03-21.
        #expect(cal.dayNumber(Clock(zone: "UTC").t("2024-03-20 22:59")) == d20)
        #expect(cal.dayNumber(Clock(zone: "UTC").t("2024-03-20 23:00")) == d20 + 1)
    }

    @Test func goingWestTheFirstDayInTheNewZoneIsLonger() {
        // Berlin (CET) to LA (PDT) on 2024-03-21: the day starts at Berlin's midnight (03-20
        // 23:00Z) and ends at LA's midnight starting 03-22 (03-22 07:00Z): 32 h. Between Berlin's
        // midnight and LA's (03-21 07:00Z) the clock still shows Berlin time, date 03-21.
        let cal = Self.timeline(Self.berlin, then: Self.la, firstDay: "2024-03-21").calendar(covering: Self.range)
        let d21 = CivilDate("2024-03-21")!.daysSince1970
        #expect(cal.startOfDay(d21) == Clock(zone: "UTC").t("2024-03-20 23:00"))
        #expect(cal.startOfDay(d21 + 1) == Clock(zone: "UTC").t("2024-03-22 07:00"))
        #expect(cal.offset(at: Clock(zone: "UTC").t("2024-03-21 06:59")) == 3600)
        #expect(cal.offset(at: Clock(zone: "UTC").t("2024-03-21 07:00")) == -7 * 3600)
        #expect(cal.dayNumber(Clock(zone: "UTC").t("2024-03-21 07:00")) == d21)
    }

    @Test func evidenceMergesToTheSameAsOneReader() {
        let t0 = Clock(zone: "UTC").t("2024-03-01 08:00")
        var all = TimeZoneEvidence()
        var a = TimeZoneEvidence()
        var b = TimeZoneEvidence()
        for k in 0..<40 {
            let zone = k % 3 == 0 ? "Europe/Berlin" : "America/Los_Angeles"
            let t = t0 + Int64(k) * 1_000
            all.add(zone, at: t)
            if k % 2 == 0 { a.add(zone, at: t) } else { b.add(zone, at: t) }
        }
        b.merge(a)
        #expect(b.observations.map(\.zone) == all.observations.map(\.zone))
        #expect(b.observations.map(\.entry) == all.observations.map(\.entry))
        // k = 0, 3, …, 39: 14 Berlin samples, 26 Los Angeles.
        #expect(b.counts == ["Europe/Berlin": 14, "America/Los_Angeles": 26])
    }

    @Test(arguments: [
        ("6:14:48.94 PM", 18 * 3600 + 14 * 60 + 48), ("12:05:00.10 AM", 300), ("12:30:00.00 PM", 12 * 3600 + 1800),
        ("08:33:44,67", 8 * 3600 + 33 * 60 + 44), ("17:07:00,29", 17 * 3600 + 420),
        ("6:14:48.94\u{202F}PM", 18 * 3600 + 14 * 60 + 48),
    ])
    func beatTimesParse(text: String, seconds: Int) {
        #expect(OffsetEvidence.secondsOfDay(text) == seconds)
    }

    @Test func beatTimeGivesTheTrueOffset() {
        // docs/export-format.md §7.4: record printed 19:14:47 -0400 = 23:14:47Z, first beat 6:14:48.94 PM: EST, -0500.
        var e = OffsetEvidence()
        e.add(recordStart: Clock(zone: "UTC").t("2017-11-22 23:14:47"), beatTime: "6:14:48.94 PM")
        let ny = LocalCalendar(
            timeZone: TimeZone(identifier: "America/New_York")!,
            covering: Clock(zone: "UTC").t("2017-11-01 00:00")...Clock(zone: "UTC").t("2017-12-01 00:00"))
        #expect(e.matches(ny) == 1)
        #expect(e.matches(LocalCalendar(fixedOffsetSeconds: -4 * 3600)) == 0)
    }

    /// A move from Los Angeles (last sample at `lastLosAngelesNoon`, local) to Berlin (first
    /// sample 2024-03-24 12:00), with 10 exercise minutes at 03:00 Berlin time and an
    /// ActivitySummary of 10 minutes on each of 2024-03-19 … 03-23.
    static func losAngelesToBerlin(range: ClosedRange<Int64>, lastLosAngelesNoon: String) -> ZoneTimelineBuilder {
        var b = ZoneTimelineBuilder()
        b.range = range
        b.evidence.add("America/Los_Angeles", at: Clock(zone: "America/Los_Angeles").t(lastLosAngelesNoon))
        b.evidence.add("Europe/Berlin", at: Clock(zone: "Europe/Berlin").t("2024-03-24 12:00"))
        for day in 19...23 {
            let t = Clock(zone: "Europe/Berlin").t("2024-03-\(day) 03:00")
            b.rings.addExercise(start: t, end: t + 600, minutes: 10)
            b.summaries[CivilDate("2024-03-\(day)")!.daysSince1970] = ActivitySummary(
                date: CivilDate("2024-03-\(day)")!, appleExerciseTimeMinutes: 10)
        }
        return b
    }

    @Test func ringAgreementPlacesAChangeInsideAGapWithoutZoneSamples() {
        // Last Los Angeles sample 03-15 12:00 PDT, first Berlin sample 03-24 12:00 CET: first
        // Berlin days 03-16 … 03-24 are possible. The Watch recorded 10 exercise minutes every
        // night at 03:00 Berlin time from 03-19 on (02:00Z: 19:00 PDT the day before). They are
        // on the summaries' dates only with Berlin in force: first days 03-16 … 03-19 agree on 5
        // days, 03-20 on 4 (the 19th's minutes fall on the 18th in LA), later ones on fewer. Of
        // the best, the latest: 03-19.
        let timeline = Self.losAngelesToBerlin(range: Self.range, lastLosAngelesNoon: "2024-03-15 12:00").build()
        #expect(timeline.periods.map(\.identifier) == ["America/Los_Angeles", "Europe/Berlin"])
        #expect(timeline.periods[1].firstDay == CivilDate("2024-03-19")!.daysSince1970)
        #expect(timeline.periods[1].changeText?.contains("agrees best with the ActivitySummary") == true)
    }

    @Test func withoutEvidenceInAGapTheChangeIsAtTheFirstSampleOfTheNewZone() {
        var b = ZoneTimelineBuilder()
        b.range = Self.range
        b.evidence.add("America/Los_Angeles", at: Clock(zone: "America/Los_Angeles").t("2024-03-15 12:00"))
        b.evidence.add("Europe/Berlin", at: Clock(zone: "Europe/Berlin").t("2024-03-24 12:00"))
        let timeline = b.build()
        #expect(timeline.periods[1].firstDay == CivilDate("2024-03-24")!.daysSince1970)
    }

    /// Berlin to Tokyo with `HKTimeZone` on 2023-04-09 12:00 Berlin (the last naming Berlin) and
    /// 2023-04-13 12:00 Tokyo (the first naming Tokyo); the person's first Tokyo day is 04-10.
    /// The Watch records 800 kcal at 10:00 Berlin on 04-09, and from 04-10 on, every Tokyo day,
    /// 5 kcal at 06:00 and 1,000 kcal at 12:00 Tokyo. With `summaries`, the ActivitySummary of
    /// each day is its true value: 800 on 04-09, 1,005 on each Tokyo day.
    static func berlinToTokyo(summaries: Bool) -> ZoneTimelineBuilder {
        var b = ZoneTimelineBuilder()
        b.range = Clock(zone: "UTC").t("2023-04-01 00:00")...Clock(zone: "UTC").t("2023-04-20 00:00")
        b.evidence.add("Europe/Berlin", at: Clock(zone: "Europe/Berlin").t("2023-04-09 12:00"))
        b.evidence.add("Asia/Tokyo", at: Clock(zone: "Asia/Tokyo").t("2023-04-13 12:00"))
        let travel = Clock(zone: "Europe/Berlin").t("2023-04-09 10:00")
        b.rings.addEnergy(start: travel, end: travel + 60, kcal: 800)
        if summaries {
            b.summaries[CivilDate("2023-04-09")!.daysSince1970] = ActivitySummary(
                date: CivilDate("2023-04-09")!, activeEnergyBurnedKcal: 800)
        }
        for day in 10...16 {
            let tokyo = Clock(zone: "Asia/Tokyo")
            b.rings.addEnergy(start: tokyo.t("2023-04-\(day) 06:00"), end: tokyo.t("2023-04-\(day) 06:01"), kcal: 5)
            b.rings.addEnergy(start: tokyo.t("2023-04-\(day) 12:00"), end: tokyo.t("2023-04-\(day) 12:01"), kcal: 1_000)
            if summaries {
                b.summaries[CivilDate("2023-04-\(day)")!.daysSince1970] = ActivitySummary(
                    date: CivilDate("2023-04-\(day)")!, activeEnergyBurnedKcal: 1_005)
            }
        }
        return b
    }

    @Test func theFirstDayIsTheOneWhoseValuesEqualTheSummaryNotOnlyWithinTheTolerance() {
        // First Tokyo days 04-10 … 04-13 are possible (Tokyo midnight after 04-09 12:00 Berlin =
        // 19:00 Tokyo, and not after 04-13 12:00 Tokyo). With 04-11, Berlin stays in force until
        // Tokyo midnight 04-11 = 04-10 17:00 Berlin, so 04-10 06:00 Tokyo (04-09 23:00 Berlin)
        // falls on 04-09: 805 kcal against 800 (5 ≤ the tolerance max(1, 8)), and 04-10 reads
        // 1,000 against 1,005 (5 ≤ 10.05). 04-12 and 04-13 shift the same 5 kcal across more days,
        // each within the tolerance too: every first day agrees on every day from 04-08 to 04-14
        // that has a summary (04-09 … 04-14: 6 compared). Only 04-10 gives every day its summary exactly
        // (deviation 0); before this rule the tie went to the latest, 04-13.
        let timeline = Self.berlinToTokyo(summaries: true).build()
        #expect(timeline.periods.map(\.identifier) == ["Europe/Berlin", "Asia/Tokyo"])
        #expect(timeline.periods[1].firstDay == CivilDate("2023-04-10")!.daysSince1970)
        #expect(
            timeline.periods[1].changeText
                == "the change lies between 2023-04-10 and 2023-04-13; 2023-04-10 agrees best with the ActivitySummary (6 of 6 days around it)"
        )
        #expect(!timeline.notes.contains { $0.severity == .warning })
        // The day values: 04-09 800 kcal, 04-10 1,005.
        let cal = timeline.calendar(covering: Self.berlinToTokyo(summaries: true).range)
        let values = Self.berlinToTokyo(summaries: true).rings.dailyValues(cal)
        #expect(values[CivilDate("2023-04-09")!.daysSince1970]?.energyKcal == 800)
        #expect(values[CivilDate("2023-04-10")!.daysSince1970]?.energyKcal == 1_005)
    }

    @Test func aChangeThatNothingPlacesWhileRingDataDependsOnItIsAWarning() {
        // The same data without ActivitySummary rows: the four first days give 04-09 … 04-12
        // different values (the 5 kcal mornings move), and nothing tells them apart. The change
        // stays at the first sample naming Tokyo (04-13), with a warning naming the days.
        let timeline = Self.berlinToTokyo(summaries: false).build()
        #expect(timeline.periods[1].firstDay == CivilDate("2023-04-13")!.daysSince1970)
        let warnings = timeline.notes.filter { $0.severity == .warning }.map(\.text)
        #expect(
            warnings == [
                "the move from Europe/Berlin to Asia/Tokyo lies between 2023-04-10 and 2023-04-13, and neither HKTimeZone nor the ActivitySummary tells on which day: the days from 2023-04-09 to 2023-04-13 may hold hours of the other zone (the change is placed at 2023-04-13)."
            ])
    }

    @Test func aStraySampleBetweenTwoOfOneZoneIsNoise() {
        var b = ZoneTimelineBuilder()
        b.range = Self.range
        for day in 1...9 {
            b.evidence.add("Europe/Berlin", at: Clock(zone: "Europe/Berlin").t("2024-03-0\(day) 12:00"))
        }
        b.evidence.add("Asia/Tokyo", at: Clock(zone: "Europe/Berlin").t("2024-03-05 13:00"))
        let timeline = b.build()
        #expect(timeline.periods.map(\.identifier) == ["Europe/Berlin"])
        #expect(timeline.notes.contains { $0.text.contains("Ignored 1 HKTimeZone sample naming Asia/Tokyo") })
    }
}

@Suite("ActivitySummary cross-check without ring records")
struct SummaryOnlyDaysTests {
    @Test func daysWithASummaryButNoRingRecordsAreCountedApart() throws {
        // 07-01: Watch energy 300 kcal = summary 300 → agrees. 07-02: a summary (250 kcal, 12
        // stand hours) but no ring record at all (Watch not worn): counted apart, not a
        // disagreement, so 1 of 1 compared days agrees.
        let utc = Clock(zone: "UTC")
        let records = [sample(.watch, utc, "2025-07-01 10:00", "2025-07-01 10:30", 300, type: T.activeEnergy)]
        let summaries = [
            ActivitySummary(date: CivilDate("2025-07-01")!, activeEnergyBurnedKcal: 300),
            ActivitySummary(date: CivilDate("2025-07-02")!, activeEnergyBurnedKcal: 250, appleStandHours: 12),
        ]
        let r = try analyze(records, summaries: summaries, options: AnalysisOptions(timeZoneIdentifier: "UTC"))
        #expect(r.crossCheck.daysCompared == 1 && r.crossCheck.daysAgreeing == 1)
        #expect(r.crossCheck.daysWithoutRingRecords == 1)
        #expect(r.crossCheck.disagreements.isEmpty)
        #expect(r.warningTexts.isEmpty)
    }
}

@Suite("Small outputs of the zone timeline")
struct SmallOutputTests {
    @Test func theRepeatedFallBackHourIsTwoDistinctStandRows() throws {
        // Berlin falls back on 2025-10-26 at 03:00 CEST = 01:00Z: 02:00–03:00 happens twice,
        // at 00:00Z (+02:00) and 01:00Z (+01:00). One stood record in each.
        let utc = Clock(zone: "UTC")
        let records = [
            standHour(.watch, utc.t("2025-10-26 00:00"), stood: true),
            standHour(.watch, utc.t("2025-10-26 01:00"), stood: true),
        ]
        let r = try analyze(records, options: AnalysisOptions(timeZoneIdentifier: "Europe/Berlin"))
        #expect(r.standHours.map(\.hour) == [2, 2])
        #expect(r.standHours.map(\.utcOffsetSeconds) == [7200, 3600])
        #expect(Set(r.standHours).count == 2)
    }

    @Test func aWindowWithoutDataWarnsAndNamesTheDataPeriod() throws {
        let utc = Clock(zone: "UTC")
        let records = [sample(.watch, utc, "2025-07-01 10:00", "2025-07-01 10:30", 300, type: T.activeEnergy)]
        let summaries = [ActivitySummary(date: CivilDate("2025-07-01")!, activeEnergyBurnedKcal: 300)]
        let r = try analyze(
            records, summaries: summaries,
            options: AnalysisOptions(timeZoneIdentifier: "UTC", from: CivilDate("2025-08-01")!))
        #expect(r.days.isEmpty)
        #expect(
            r.warningTexts.contains(
                "no data between 2025-08-01 and the end: the export has data from 2025-07-01 to 2025-07-01."))
    }
}

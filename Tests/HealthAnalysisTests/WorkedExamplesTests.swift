import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// The worked examples A–G of docs/deduplication.md §7, exactly as the table gives them.
@Suite("Priority coverage: worked examples of docs/deduplication.md §7")
struct WorkedExamplesTests {
    let berlin = Clock(zone: "Europe/Berlin")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "Europe/Berlin") }

    @Test func partialOverlapCountsTheWatchAndOnlyTheUncoveredPartOfTheIPhone() throws {
        // A: Watch 10:00–10:10 = 1000 (100/min); iPhone 10:05–10:15 = 600 (60/min).
        // 10:00–10:05 Watch 500; 10:05–10:10 Watch 500 (iPhone hidden); 10:10–10:15 iPhone 300.
        // Total 1300 (naive sum 1600, max-per-source 1000).
        let r = try analyze(
            [
                sample(.watch, berlin, "2025-03-10 10:00", "2025-03-10 10:10", 1000),
                sample(.phone, berlin, "2025-03-10 10:05", "2025-03-10 10:15", 600),
            ], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 1300))
        #expect(close(r.contribution(T.steps, TestSource.watch.name)?.countedTotal, 1000))
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.countedTotal, 300))
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.rawTotal, 600))
    }

    @Test func sampleAcrossMidnightIsSplitByTime() throws {
        // B: Watch 23:50–00:10 = 200 → 10 of 20 minutes on each side: 100 to D, 100 to D+1.
        let r = try analyze(
            [sample(.watch, berlin, "2025-03-10 23:50", "2025-03-11 00:10", 200)], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 100))
        #expect(close(r.day("2025-03-11")?.steps, 100))
    }

    @Test func sampleAcrossAnHourEdgeIsSplitByTime() throws {
        // C: iPhone 10:55–11:05 = 100, nothing else → 5 of 10 minutes in each hour: 50 and 50.
        let start = berlin.t("2025-03-10 10:55")
        let end = berlin.t("2025-03-10 11:05")
        let hours = mergeIntoHours(
            [(source: 0, start: start, end: end, value: 100, manual: false)], zone: "Europe/Berlin")
        #expect(hours.count == 2)
        #expect(close(hours[berlin.t("2025-03-10 10:00")], 50))
        #expect(close(hours[berlin.t("2025-03-10 11:00")], 50))
        // The day sees all of it.
        let r = try analyze([sample(.phone, berlin, "2025-03-10 10:55", "2025-03-10 11:05", 100)], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 100))
    }

    @Test func rankingTheIPhoneFirstSwapsWhichPartIsHidden() throws {
        // D: A with the iPhone ranked first: 10:00–10:05 Watch 500; 10:05–10:15 iPhone 600 → 1100.
        var o = options
        o.sourceOrder = [TestSource.phone.name]
        let r = try analyze(
            [
                sample(.watch, berlin, "2025-03-10 10:00", "2025-03-10 10:10", 1000),
                sample(.phone, berlin, "2025-03-10 10:05", "2025-03-10 10:15", 600),
            ], options: o)
        #expect(close(r.day("2025-03-10")?.steps, 1100))
        #expect(close(r.contribution(T.steps, TestSource.watch.name)?.countedTotal, 500))
        #expect(close(r.contribution(T.steps, TestSource.phone.name)?.countedTotal, 600))
        #expect(r.sourceOrder.first?.name == TestSource.phone.name)
    }

    @Test func zeroLengthManualEntryCountsAndHidesNothing() throws {
        // E: manual +500 at 12:00 (rank 0) and Watch 11:55–12:05 = 100 → 600: the manual entry
        // always counts; the Watch still counts because the manual entry covers no interval.
        let r = try analyze(
            [
                sample(.health, berlin, "2025-03-10 12:00", "2025-03-10 12:00", 500, manual: true),
                sample(.watch, berlin, "2025-03-10 11:55", "2025-03-10 12:05", 100),
            ], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 600))
    }

    @Test func zeroLengthSampleUnderAHigherPriorityIntervalIsDiscarded() throws {
        // docs/deduplication.md §5, the other way round: an iPhone +300 at 12:00 lies inside the
        // Watch's 11:55–12:05 = 100, and the Watch ranks higher → discarded: 100.
        let r = try analyze(
            [
                sample(.phone, berlin, "2025-03-10 12:00", "2025-03-10 12:00", 300),
                sample(.watch, berlin, "2025-03-10 11:55", "2025-03-10 12:05", 100),
            ], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 100))
    }

    @Test func coarseLowPriorityFillerFillsTheUncoveredHoursAndIsReported() throws {
        // F: Watch 6 000 steps in 30 six-minute samples of 200 covering 08:00–11:00 (3 h);
        // a third-party app writes one 24-h sample of 8 000 (2025-03-10 is a 24-h day).
        // The app fills the 21 uncovered hours: 6 000 + 8 000 × 21/24 = 6 000 + 7 000 = 13 000.
        // The app's share is 7 000 / 13 000 = 53.8 % → reported as 54 %.
        var records = (0..<30).map { k in
            let s = berlin.t("2025-03-10 08:00") + Int64(k) * 360
            return sample(.watch, s, s + 360, 200)
        }
        records.append(sample(.app, berlin, "2025-03-10 00:00", "2025-03-11 00:00", 8000))
        let r = try analyze(records, options: options)
        #expect(close(r.day("2025-03-10")?.steps, 13_000))
        #expect(close(r.contribution(T.steps, TestSource.app.name)?.countedTotal, 7000))
        let note = try #require(r.noteTexts.first { $0.contains("Pedometer++") })
        #expect(note.contains("54 %"))
        #expect(note.contains("2025-03-10"))
    }

    @Test(arguments: [
        // G: one step per minute over a whole local day in a zone with DST.
        ("Europe/Berlin", "2024-10-27", 1500.0),  // fall back: 25 h × 60 = 1 500
        ("America/New_York", "2024-11-03", 1500.0),  // fall back: 25 h
        ("Europe/Berlin", "2024-03-31", 1380.0),  // spring forward: 23 h × 60 = 1 380
        ("America/New_York", "2024-03-10", 1380.0),  // spring forward: 23 h
        ("Europe/Berlin", "2024-06-10", 1440.0),  // ordinary day: 24 h
    ])
    func dstDayHasAsManyMinutesAsItsLocalLength(zone: String, date: String, expected: Double) throws {
        let clock = Clock(zone: zone)
        let start = clock.midnight(date)
        let next = clock.midnight(day(date).adding(days: 1).description)
        let records = stride(from: start, to: next, by: 60).map { sample(.watch, $0, $0 + 60, 1) }
        let r = try analyze(records, options: AnalysisOptions(timeZoneIdentifier: zone))
        #expect(records.count == Int(expected))
        #expect(r.days.count == 1)
        #expect(close(r.day(date)?.steps, expected))
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York"])
    func uniformSampleOverAFallBackDayIsProratedByItsTwentyFiveHours(zone: String) throws {
        // One sample from local midnight of the day before the fall-back day to local midnight of
        // the day after: 24 h + 25 h = 49 h at 60/h → 2 940; the days get 1 440 and 1 500.
        let clock = Clock(zone: zone)
        let fallBack = zone == "Europe/Berlin" ? "2024-10-27" : "2024-11-03"
        let before = day(fallBack).adding(days: -1).description
        let after = day(fallBack).adding(days: 1).description
        let r = try analyze(
            [sample(.watch, clock.midnight(before), clock.midnight(after), 2940)],
            options: AnalysisOptions(timeZoneIdentifier: zone))
        #expect(close(r.day(before)?.steps, 1440))
        #expect(close(r.day(fallBack)?.steps, 1500))
        #expect(r.day(after) == nil)
    }
}

/// Runs the sweep into local hours of `zone` for samples of sources 0, 1, … (in that priority
/// order, as watch sources); returns the amount per hour start instant.
func mergeIntoHours(
    _ samples: [(source: Int, start: Int64, end: Int64, value: Float, manual: Bool)], zone: String
) -> [Int64: Double] {
    let sourceCount = (samples.map(\.source).max() ?? 0) + 1
    let facts = (0..<sourceCount).map { i -> SourceFacts in
        var f = SourceFacts(name: "S\(i)")
        f.earliestCreation = Int64(1000 - i)  // newest first: S0, S1, …
        return f
    }
    let priority = SourcePriority(sources: facts, preferred: nil)
    var stored = samples.map {
        CumulativeSample(
            start: UInt32($0.start), duration: UInt32($0.end - $0.start), value: $0.value,
            source: UInt16(priority.position[$0.source]), flags: $0.manual ? CumulativeSample.manual : 0)
    }
    stored.sort(by: CumulativeSample.order)
    let lo = samples.map(\.start).min()!
    let hi = samples.map(\.end).max()!
    let calendar = LocalCalendar(timeZone: TimeZone(identifier: zone)!, covering: (lo - 86_400)...(hi + 86_400))
    var acc = MergeAccumulator(window: 0...0, positions: sourceCount)
    var cursor = HourCursor(calendar)
    stored.withUnsafeBufferPointer {
        mergeByPriority($0, priority: priority, include: nil, buckets: &cursor, into: &acc)
    }
    var result: [Int64: Double] = [:]
    for (bucket, total) in zip(acc.totals.keys, acc.totals.sums) {
        result[Int64(bucket) * 900] = total
    }
    return result
}

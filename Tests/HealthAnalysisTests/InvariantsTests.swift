import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// The validation invariants of docs/deduplication.md §8.
@Suite("Merge invariants (docs/deduplication.md §8)")
struct InvariantsTests {
    static let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    /// Five records that exercise every rule at once (all on 2025-05-05, UTC):
    /// - Watch 10:00–10:10 = 1000 and iPhone 10:05–10:15 = 600 (case A → 1300),
    /// - an exact duplicate of the Watch sample (removed),
    /// - a manual +500 at 10:07 (zero-length, rank 0: counts),
    /// - a third-party 09:00–11:00 = 1200 (10/min) that fills 09:00–10:00 (600) and 10:15–11:00 (450).
    /// Total 1300 + 500 + 600 + 450 = 2850; the 2025-05-06 row does not exist.
    static let mixed: [Record] = [
        sample(.watch, utc, "2025-05-05 10:00", "2025-05-05 10:10", 1000),
        sample(.phone, utc, "2025-05-05 10:05", "2025-05-05 10:15", 600),
        sample(.watch, utc, "2025-05-05 10:00", "2025-05-05 10:10", 1000),
        sample(.health, utc, "2025-05-05 10:07", "2025-05-05 10:07", 500, manual: true),
        sample(.app, utc, "2025-05-05 09:00", "2025-05-05 11:00", 1200),
    ]

    @Test func mixedCaseHasTheHandWorkedTotal() throws {
        let r = try analyze(Self.mixed, options: options)
        #expect(close(r.day("2025-05-05")?.steps, 2850))
        #expect(r.days.count == 1)
        #expect(r.noteTexts.contains { $0.contains("Removed 1 exact duplicate") })
    }

    @Test func resultIsIdenticalForEveryPermutationOfTheInput() throws {
        // 5! = 120 orders, fed one record per batch and all in one batch.
        let reference = try analyze(Self.mixed, options: options)
        for (n, order) in permutations(Self.mixed).enumerated() {
            let r = try analyze(order, options: options, batchSize: n % 2 == 0 ? 1 : 1000)
            #expect(r.days == reference.days)
            #expect(r.sources == reference.sources)
            #expect(r.sourceOrder == reference.sourceOrder)
            #expect(r.notes == reference.notes)
        }
    }

    @Test func midnightAndStandHoursAreIdenticalForEveryPermutation() throws {
        // Watch 23:50–00:10 = 200 (B), iPhone 23:55–00:05 = 50 (hidden), two watches' stand
        // hours for 23:00, one idle record for 00:00.
        let records = [
            sample(.watch, Self.utc, "2025-05-05 23:50", "2025-05-06 00:10", 200),
            sample(.phone, Self.utc, "2025-05-05 23:55", "2025-05-06 00:05", 50),
            standHour(.watch, Self.utc, "2025-05-05 23:00"),
            standHour(.watch2, Self.utc, "2025-05-05 23:00"),
            standHour(.watch2, Self.utc, "2025-05-06 00:00", stood: false),
        ]
        let reference = try analyze(records, options: options)
        #expect(close(reference.day("2025-05-05")?.steps, 100))
        #expect(close(reference.day("2025-05-06")?.steps, 100))
        #expect(reference.day("2025-05-05")?.standHours == 1)
        #expect(reference.day("2025-05-06")?.standHours == 0)
        for order in permutations(records) {
            let r = try analyze(order, options: options)
            #expect(r.days == reference.days)
            #expect(r.standHours == reference.standHours)
        }
    }

    /// Random overlapping samples of three sources over one day (seeded, so reproducible).
    static func randomDay(seed: UInt64, sources: [TestSource]) -> [Record] {
        var rng = SeededGenerator(seed: seed)
        let base = utc.t("2025-05-05 06:00")
        return (0..<40).map { _ in
            let source = sources[Int.random(in: 0..<sources.count, using: &rng)]
            let start = base + Int64.random(in: 0..<(12 * 3600), using: &rng)
            let duration = Int64.random(in: 0...4, using: &rng) == 0 ? 0 : Int64.random(in: 60...3600, using: &rng)
            let value = Double(Int.random(in: 0...900, using: &rng))
            return sample(source, start, start + duration, value)
        }
    }

    @Test(arguments: 1...25)
    func mergedTotalLiesBetweenTheTopSourceAndTheSumOfAllSources(seed: Int) throws {
        let records = Self.randomDay(seed: UInt64(seed), sources: [.watch, .phone, .app])
        let r = try analyze(records, options: options)
        let merged = try #require(r.day("2025-05-05")?.steps)
        let contributions = r.sources.filter { $0.type == T.steps }
        let top = try #require(
            contributions.min { a, b in
                r.sourceOrder.first { $0.name == a.sourceName }!.rank
                    < r.sourceOrder.first { $0.name == b.sourceName }!.rank
            })
        let sum = contributions.reduce(0) { $0 + $1.rawTotal }
        #expect(top.rawTotal <= merged + 1e-6)
        #expect(merged <= sum + 1e-6)
        // What the merge counted per source adds up to the day's total; the top source is never hidden.
        #expect(close(contributions.reduce(0) { $0 + $1.countedTotal }, merged))
        #expect(close(top.countedTotal, top.rawTotal))
        // And the input order does not matter.
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919)
        let shuffled = try analyze(records.shuffled(using: &rng), options: options)
        #expect(shuffled.days == r.days)
    }

    @Test(arguments: 1...10)
    func singleSourceMergesToItsOwnPlainTotal(seed: Int) throws {
        // One source overlapping itself is summed, as HealthKit sums a single source.
        let records = Self.randomDay(seed: UInt64(seed), sources: [.phone])
        let r = try analyze(records, options: options)
        let plain = records.reduce(0.0) { $0 + ($1.quantity?.value ?? 0) }
        #expect(close(r.day("2025-05-05")?.steps, plain, tolerance: 1e-6 * max(1, plain)))
    }
}

import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// `CumulativeTypes`: the de-duplicated sums of the cumulative types, their source
/// contributions, and the samples they drop.
@Suite("Cumulative types")
struct CumulativeTypesTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    @Test func noDedupGivesPlainSums() throws {
        // Case A without de-duplication: 1000 + 600 = 1600; counted = raw.
        var o = options
        o.deduplicate = false
        let r = try analyze(
            [
                sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:10", 1000),
                sample(.phone, utc, "2025-03-10 10:05", "2025-03-10 10:15", 600),
            ], options: o)
        #expect(close(r.day("2025-03-10")?.steps, 1600))
        #expect(!r.deduplicated)
        #expect(r.sources.allSatisfy { $0.rawTotal == $0.countedTotal })
    }

    @Test func exactDuplicatesAreRemovedUnlessDisabled() throws {
        // The same Watch sample twice: 500 once; with removal off, a source overlapping
        // itself is summed → 1 000.
        let records = [
            sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:10", 500),
            sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:10", 500),
        ]
        #expect(close(try analyze(records, options: options).day("2025-03-10")?.steps, 500))
        var o = options
        o.removeExactDuplicates = false
        #expect(close(try analyze(records, options: o).day("2025-03-10")?.steps, 1000))
    }

    @Test func negativeAndBackwardsSamplesAreDroppedAndCounted() throws {
        var negative = sample(.app, utc, "2025-03-10 11:00", "2025-03-10 11:10", -200)
        negative.line = 41
        let r = try analyze(
            [
                sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:10", 500),
                negative,
                sample(.app, utc, "2025-03-10 12:10", "2025-03-10 12:00", 300),
            ], options: options)
        #expect(close(r.day("2025-03-10")?.steps, 500))
        #expect(r.noteTexts.contains("Dropped 1 sample with a negative value (first at line 41)."))
        #expect(r.noteTexts.contains("Dropped 1 sample that ends before it starts."))  // built by hand: no line
    }

    @Test func otherCumulativeTypesAppearInTheSourceContributions() throws {
        // DistanceCycling from the Watch and an app, overlapping: 10:00–10:30 Watch 9 km,
        // 10:15–10:45 app 6 km → Watch 9 + app's 10:30–10:45 half = 3 → counted 12.
        let r = try analyze(
            [
                sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:30", 9, type: T.cycling),
                sample(.app, utc, "2025-03-10 10:15", "2025-03-10 10:45", 6, type: T.cycling),
            ], options: options)
        let app = try #require(r.contribution(T.cycling, "Pedometer++"))
        #expect(close(app.countedTotal, 3))
        #expect(close(app.rawTotal, 6))
        #expect(app.unit == .kilometre)
        #expect(close(r.contribution(T.cycling, TestSource.watch.name)?.countedTotal, 9))
    }

    @Test func sampleInAnUnexpectedUnitIsDropped() throws {
        var bad = sample(.watch, utc, "2025-03-10 10:00", "2025-03-10 10:10", 5)
        bad.value = .quantity(Quantity(value: 5, unit: .kilometre, originalValue: 5, originalUnit: "km"))
        let r = try analyze([bad, sample(.watch, utc, "2025-03-10 11:00", "2025-03-10 11:10", 7)], options: options)
        #expect(r.day("2025-03-10")?.steps == 7)
        #expect(r.noteTexts.contains { $0.contains("unit") })
    }
}

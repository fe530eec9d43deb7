import Foundation
import HealthExport
import SyntheticExport
import TestSupport
import Testing

@testable import HealthAnalysis

/// Parallel parsing gives each thread its own analyzer and merges them: the result must equal one
/// analyzer that consumed everything, for any split of the batches and any merge order.
@Suite("Merging analyzers")
struct MergeTests {
    /// A synthetic export with every domain (cumulative types from two sources, heart rate, once-a-day
    /// values, stand hours, workouts, ActivitySummary; with the extended data: sleep from two
    /// sources and a nap, multisport and duplicated workouts, vitals, blood-pressure correlations),
    /// read in small batches.
    static let batches: [ExportBatch] = {
        let configuration = SyntheticExportConfiguration(
            firstDay: "2025-10-22", days: 6, timeZoneIdentifier: "Europe/Berlin", seed: 11, extendedHealthData: true)
        var xml: [UInt8] = []
        _ = SyntheticExport.write(configuration) { xml.append(contentsOf: $0) }
        let file = TestScratch.file("merge", suffix: ".xml")
        try! Data(xml).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var batches: [ExportBatch] = []
        _ = try! ExportReader(options: ReaderOptions(batchSize: 500)).read(.path(file.path)) { batches.append($0) }
        return batches
    }()

    static func finish(_ analyzer: Analyzer) throws -> AnalysisResult {
        try analyzer.finish(exportDate: nil, timeZoneCounts: ["Europe/Berlin": 1], environmentTimeZone: nil)
    }

    @Test(arguments: [2, 3, 5])
    func mergedAnalyzersEqualOneAnalyzer(parts: Int) throws {
        let batches = Self.batches
        #expect(batches.count > 2 * parts)  // every part gets batches of several kinds
        let whole = Analyzer(options: AnalysisOptions())
        for b in batches { whole.consume(b) }
        let expected = try Self.finish(whole)

        // Round-robin batches to the parts (each part sees types and sources in another order),
        // then merge the parts into the last one, so that the first-seen orders differ again.
        let analyzers = (0..<parts).map { _ in Analyzer(options: AnalysisOptions()) }
        for (i, b) in batches.enumerated() { analyzers[i % parts].consume(b) }
        let target = analyzers[parts - 1]
        for a in analyzers.dropLast().reversed() { target.merge(a) }
        let merged = try Self.finish(target)

        #expect(expected.days.count == 6)
        #expect(expected.days.allSatisfy { $0.steps != nil && $0.standHours != nil && $0.heartRateAvgBpm != nil })
        #expect(merged.days == expected.days)
        #expect(!expected.sleep.isEmpty && merged.sleep == expected.sleep)
        #expect(!expected.workouts.isEmpty && merged.workouts == expected.workouts)
        #expect(merged.months == expected.months)
        #expect(merged.weeks == expected.weeks)
        #expect(merged.standHours == expected.standHours)
        #expect(merged.sources == expected.sources)
        #expect(merged.sourceOrder == expected.sourceOrder)
        #expect(merged.crossCheck == expected.crossCheck)
        #expect(merged.notes == expected.notes)
        #expect(merged.standHourProfile.map(\.stoodDays) == expected.standHourProfile.map(\.stoodDays))
    }
}

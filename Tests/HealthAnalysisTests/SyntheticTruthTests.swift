import Foundation
import HealthExport
import SyntheticExport
import TestSupport
import Testing

@testable import HealthAnalysis

/// End to end: the synthetic generator writes an export that knows its true per-day values;
/// the real reader streams it into the analyzer; every daily metric must match the truth.
/// The generator computes its truth independently (its own zone clock and merge), so this
/// checks zone choice, DST days, correlation skipping, source classes and the merge together.
@Suite("End to end against the synthetic export's truth")
struct SyntheticTruthTests {
    @Test(arguments: [
        // ~0.8 MB of XML per day: nine days around a DST change each.
        SyntheticExportConfiguration(firstDay: "2025-10-22", days: 9, timeZoneIdentifier: "Europe/Berlin", seed: 7),
        SyntheticExportConfiguration(firstDay: "2025-03-05", days: 9, timeZoneIdentifier: "America/New_York", seed: 3),
        // 30-minute DST shift on 2025-10-05.
        SyntheticExportConfiguration(firstDay: "2025-10-01", days: 9, timeZoneIdentifier: "Australia/Lord_Howe"),
    ])
    func everyDailyMetricMatchesTheTruth(configuration: SyntheticExportConfiguration) throws {
        let file = TestScratch.file(
            "health-analysis-\(configuration.timeZoneIdentifier.replacingOccurrences(of: "/", with: "-"))",
            suffix: ".xml")
        defer { try? FileManager.default.removeItem(at: file) }
        guard
            let handle = FileManager.default.createFile(atPath: file.path, contents: nil)
                ? try? FileHandle(forWritingTo: file) : nil
        else {
            Issue.record("cannot create \(file.path)")
            return
        }
        let truth = try SyntheticExport.write(configuration) { try handle.write(contentsOf: Data($0)) }
        try handle.close()

        // Zone from the export's own HKTimeZone counts, as the CLI does.
        let analyzer = Analyzer(options: AnalysisOptions())
        let summary = try ExportReader().read(.path(file.path)) { analyzer.consume($0) }
        let result = try analyzer.finish(
            exportDate: summary.exportDate, timeZoneCounts: summary.timeZoneCounts, environmentTimeZone: nil)

        #expect(result.timeZone.identifier == configuration.timeZoneIdentifier)
        #expect(result.days.map(\.date.description) == truth.days.map(\.date))
        for (k, t) in truth.days.enumerated() {
            guard let d = result.day(t.date) else { continue }
            let at = "\(configuration.timeZoneIdentifier) \(t.date)"
            #expect(
                closeOrAbsent(d.steps, t.steps, t, "HKQuantityTypeIdentifierStepCount", tolerance: 1e-6), "\(at) steps")
            #expect(
                closeOrAbsent(
                    d.distanceKm, t.distanceKm, t, "HKQuantityTypeIdentifierDistanceWalkingRunning", tolerance: 1e-6),
                "\(at) distance")
            #expect(
                closeOrAbsent(
                    d.flightsClimbed, t.flightsClimbed, t, "HKQuantityTypeIdentifierFlightsClimbed", tolerance: 1e-6),
                "\(at) flights")
            #expect(
                closeOrAbsent(
                    d.activeEnergyKcal, t.activeEnergyKcal, t, "HKQuantityTypeIdentifierActiveEnergyBurned",
                    tolerance: 1e-3), "\(at) active energy")
            #expect(
                closeOrAbsent(d.moveKcal, t.moveKcal, t, "HKQuantityTypeIdentifierActiveEnergyBurned", tolerance: 1e-3),
                "\(at) move")
            #expect(
                closeOrAbsent(
                    d.basalEnergyKcal, t.basalEnergyKcal, t, "HKQuantityTypeIdentifierBasalEnergyBurned",
                    tolerance: 1e-3), "\(at) basal")
            #expect(
                closeOrAbsent(
                    d.exerciseMinutes, t.exerciseMinutes, t, "HKQuantityTypeIdentifierAppleExerciseTime",
                    tolerance: 1e-6), "\(at) exercise")
            #expect(d.standHours == t.standHours, "\(at) stand hours")
            #expect(d.moveGoalKcal == t.moveGoalKcal && d.standGoalHours == Double(t.standGoalHours), "\(at) goals")
            #expect(close(d.restingHeartRateBpm, t.restingHeartRateBpm), "\(at) resting HR")
            #expect(close(d.heartRateMinBpm, t.heartRateMinBpm), "\(at) HR min")
            // Time-weighted (docs/deduplication.md §9), as the generator computes it independently.
            #expect(close(d.heartRateAvgBpm, truth.heartRateTimeWeightedMeanBpm[k], tolerance: 1e-6), "\(at) HR mean")
            #expect(close(d.heartRateMaxBpm, t.heartRateMaxBpm), "\(at) HR max")
            #expect(d.workouts == t.workouts, "\(at) workouts")
            #expect(close(d.workoutMinutes, t.workoutMinutes, tolerance: 1e-6), "\(at) workout minutes")
        }
        // The ActivitySummary oracle agrees on every day (docs/rings.md §5).
        #expect(result.crossCheck.daysCompared == truth.days.count)
        #expect(result.crossCheck.disagreements == [])
    }
}

/// The truth writes 0 for a day without samples of a type, the analysis nil (no data is not 0).
/// So an absent value is right only when the generator wrote no record of `type` on that day;
/// a day with records whose true total is 0 must read 0.
private func closeOrAbsent(
    _ value: Double?, _ truth: Double, _ day: SyntheticDayTruth, _ type: String, tolerance: Double
) -> Bool {
    value == nil ? !day.hasRecords(type) && truth == 0 : close(value, truth, tolerance: tolerance)
}

extension DailyMetrics {
    fileprivate var heartRateMeanBpm: Double? { heartRateAvgBpm }
}

import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// `HeartRate`: the day's heart-rate statistics over all sources, the mean time-weighted
/// (reference §5.6).
@Suite("Heart rate")
struct HeartRateTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    @Test func heartRateMeanIsTimeWeightedSoADenseWorkoutHourDoesNotDominate() throws {
        // The example: 60 bpm every 10 minutes all day, and one workout hour (12:00–13:00)
        // of 150 bpm every 5 s. 60-samples 00:00…11:50 (72) and 13:00…23:50 (66) weigh 600 s each
        // (the last one the cap) = 82 800 s = 23 h; the 720 workout samples weigh 5 s each = 1 h.
        // Mean = (82 800 × 60 + 3 600 × 150) / 86 400 = 63.75 bpm; the plain mean of the 858
        // samples would be (138 × 60 + 720 × 150) / 858 = 135.5.
        let t0 = utc.t("2025-02-03 00:00")
        var records: [Record] = []
        for k in 0..<144 where k < 72 || k >= 78 {
            let t = t0 + Int64(k) * 600
            records.append(sample(.watch, t, t, 60, type: T.heartRate))
        }
        for k in 0..<720 {
            let t = t0 + 12 * 3600 + Int64(k) * 5
            records.append(sample(.watch, t, t, 150, type: T.heartRate))
        }
        let r = try analyze(records, options: options)
        let d = try #require(r.day("2025-02-03"))
        #expect(close(d.heartRateAvgBpm, 63.75))
        #expect(d.heartRateMinBpm == 60 && d.heartRateMaxBpm == 150)
    }

    @Test func heartRateStatisticsCoverAllSources() throws {
        // Watch 60 (08:00), 80 (08:05), 100 (10:00) and a chest strap app 70 (08:01), min 60, max 100.
        // Time-weighted mean (reference §5.6), each sample weighing the time to the next one, capped
        // at 600 s, the last one the cap: 60 × 60 s, 70 × 240 s, 80 × 600 s (not 6 900), 100 × 600 s
        // → (3 600 + 16 800 + 48 000 + 60 000) / 1 500 = 85.6 (the plain mean would be 77.5).
        let t = utc.t("2025-02-03 08:00")
        let r = try analyze(
            [
                sample(.watch, t, t, 60, type: T.heartRate), sample(.watch, t + 300, t + 300, 80, type: T.heartRate),
                sample(.watch, t + 7200, t + 7200, 100, type: T.heartRate),
                sample(.app, t + 60, t + 60, 70, type: T.heartRate),
            ], options: options)
        let d = try #require(r.day("2025-02-03"))
        #expect(close(d.heartRateAvgBpm, 85.6))
        #expect(d.heartRateMinBpm == 60)
        #expect(d.heartRateMaxBpm == 100)
    }
}

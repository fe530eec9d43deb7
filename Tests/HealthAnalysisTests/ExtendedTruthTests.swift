import Foundation
import HealthExport
import SyntheticExport
import TestSupport
import Testing

@testable import HealthAnalysis

/// End to end against the generator's extended truth, which it computes from what it writes
/// with its own code (Generator+Extended.swift): nights by wake-up date from the top source with
/// asleep samples (a Watch night, a night with the Watch on the charger and only an app's legacy
/// values, a night with both, identical duplicate rows, naps), every workout row (statistics,
/// old totals, multisport legs, pauses, a phone app's duplicate), the GPX route files (read by
/// the C glue) and the body and heart measures.
@Suite("End to end against the extended truth")
struct ExtendedTruthTests {
    static let configuration = SyntheticExportConfiguration(
        firstDay: "2025-10-20", days: 21, timeZoneIdentifier: "Europe/Berlin", seed: 5, extendedHealthData: true)
    static let run: (truth: SyntheticTruth, result: AnalysisResult) = {
        let (bytes, truth) = SyntheticExport.makeExport(configuration)
        let file = TestScratch.file("extended", suffix: ".xml")
        try! Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let analyzer = Analyzer(options: AnalysisOptions())
        let summary = try! ExportReader().read(.path(file.path)) { analyzer.consume($0) }
        let result = try! analyzer.finish(
            exportDate: summary.exportDate, timeZoneCounts: summary.timeZoneCounts, environmentTimeZone: nil)
        return (truth, result)
    }()

    func close(_ a: Double?, _ b: Double?, _ tolerance: Double = 1e-6) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) <= tolerance
        default: return false
        }
    }

    @Test func everyNightAndNapMatchesTheTruth() {
        let (truth, result) = Self.run
        let expected = truth.extended.sleep
        // 20 nights (the last day has none) across the 2025-10-26 fall-back night, and 3 naps.
        #expect(expected.filter { !$0.isNap }.count == 20 && expected.filter(\.isNap).count == 3)
        #expect(result.sleep.count == expected.count)
        for (row, t) in zip(result.sleep, expected) {
            let at = "\(t.night)\(t.isNap ? " nap" : "")"
            #expect(row.night.description == t.night && row.isNap == t.isNap, "\(at)")
            #expect(row.source == t.source, "\(at) source")
            #expect(row.bedtime?.secondsSince1970 == t.asleepStartSecondsSince1970, "\(at) bedtime")
            #expect(row.wakeTime?.secondsSince1970 == t.asleepEndSecondsSince1970, "\(at) wake")
            #expect(close(row.asleepMinutes, t.asleepMinutes), "\(at) asleep")
            #expect(close(row.coreMinutes, t.coreMinutes), "\(at) core")
            #expect(close(row.deepMinutes, t.deepMinutes), "\(at) deep")
            #expect(close(row.remMinutes, t.remMinutes), "\(at) rem")
            #expect(close(row.unspecifiedMinutes, t.unspecifiedMinutes), "\(at) unspecified")
            #expect(close(row.awakeMinutes, t.awakeMinutes), "\(at) awake")
            #expect(close(row.inBedMinutes, t.inBedMinutes), "\(at) in bed")
        }
        // The fall-back night (wake-up 2025-10-26) is an hour longer in bed than its wall clock.
        #expect(result.sleep.contains { $0.night.description == "2025-10-26" })
    }

    @Test func everyWorkoutRowMatchesTheTruth() {
        let (truth, result) = Self.run
        let expected = truth.extended.workouts.sorted {
            ($0.startSecondsSince1970, $0.source) < ($1.startSecondsSince1970, $1.source)
        }
        #expect(result.workouts.count == expected.count)
        #expect(expected.contains { $0.legCount == 2 } && expected.contains(where: \.isDuplicate))
        for (row, t) in zip(result.workouts, expected) {
            let at = "\(row.start)"
            #expect(row.start.secondsSince1970 == t.startSecondsSince1970, "\(at)")
            #expect(row.activityType == t.activityType && row.source == t.source, "\(at)")
            #expect(close(row.durationMinutes, t.durationMinutes, 1e-9), "\(at) duration")
            #expect(close(row.elapsedMinutes, t.elapsedMinutes, 1e-9), "\(at) elapsed")
            #expect(close(row.distanceKm, t.distanceKm), "\(at) distance")
            #expect(close(row.activeEnergyKcal, t.activeEnergyKcal), "\(at) energy")
            #expect(close(row.heartRateAvgBpm, t.heartRateAverageBpm), "\(at) HR avg")
            #expect(close(row.heartRateMaxBpm, t.heartRateMaxBpm), "\(at) HR max")
            #expect(row.isDuplicate == t.isDuplicate, "\(at) duplicate")
            #expect(row.legs == t.legCount, "\(at) legs")
            #expect(row.routeFiles == (t.routeFile.map { ["/workout-routes/" + $0] } ?? []), "\(at) route")
        }
        // Each day counts its workouts once.
        for day in truth.days {
            let counted = expected.filter {
                !$0.isDuplicate && day.startSecondsSince1970...day.endSecondsSince1970 - 1 ~= $0.startSecondsSince1970
            }
            #expect(result.days.first { $0.date.description == day.date }?.workouts == counted.count, "\(day.date)")
        }
    }

    @Test func routeFilesReadWithLibxml2MatchTheTruth() throws {
        let routes = Self.run.truth.extended.routes
        #expect(!routes.isEmpty)
        for r in routes {
            let s = try RouteSummary.read(gpx: r.gpx, name: r.fileName)
            #expect(s.pointCount == r.pointCount, "\(r.fileName)")
            #expect(abs(s.distanceKm - r.distanceKm) < 1e-9, "\(r.fileName)")
            #expect(abs((s.elevationGainM ?? -1) - r.elevationGainM) < 1e-6, "\(r.fileName)")
        }
    }

    @Test func bodyAndHeartMeasuresMatchTheTruth() {
        let (truth, result) = Self.run
        for v in truth.extended.vitals {
            guard let d = result.days.first(where: { $0.date.description == v.date }) else { continue }
            #expect(close(d.hrvSdnnMs, v.hrvMeanMs, 1e-6), "\(v.date) HRV")
            #expect(close(d.respiratoryRateBreathsPerMin, v.respiratoryRateMean), "\(v.date) respiratory rate")
            #expect(close(d.oxygenSaturationPercent, v.oxygenSaturationMeanPercent), "\(v.date) SpO2")
            #expect(close(d.wristTemperatureC, v.wristTemperatureC), "\(v.date) wrist temperature")
            #expect(close(d.vo2MaxMlPerMinKg, v.vo2Max), "\(v.date) VO2 max")
            #expect(close(d.walkingHeartRateAvgBpm, v.walkingHeartRateBpm), "\(v.date) walking HR")
            #expect(close(d.bodyMassKg, v.bodyMassKg), "\(v.date) body mass")
            #expect(close(d.bloodPressureSystolicMmHg, v.bloodPressureSystolic), "\(v.date) systolic")
            #expect(close(d.bloodPressureDiastolicMmHg, v.bloodPressureDiastolic), "\(v.date) diastolic")
        }
        #expect(truth.extended.vitals.contains { $0.bloodPressureSystolic != nil })
    }
}

import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// `Vitals`: HRV, respiratory rate and blood oxygen averaged over all sources; wrist temperature
/// and blood pressure the highest-priority source's latest value of the day (docs/export-format.md §12,
/// docs/deduplication.md §9).
@Suite("Vitals")
struct VitalsTests {
    let utc = Clock(zone: "UTC")
    var options: AnalysisOptions { AnalysisOptions(timeZoneIdentifier: "UTC") }

    static let hrv = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    static let respiratoryRate = "HKQuantityTypeIdentifierRespiratoryRate"
    static let oxygen = "HKQuantityTypeIdentifierOxygenSaturation"
    static let wristTemperature = "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
    static let systolic = "HKQuantityTypeIdentifierBloodPressureSystolic"
    static let diastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"

    /// A record at `time` whose value is `value` in `canonical` (HRV: minutes, as the reader
    /// converts `ms`).
    func measure(
        _ source: TestSource, _ time: String, _ value: Double, type: String, canonical: CanonicalUnit,
        written: String, nested: Bool = false
    ) -> Record {
        let t = utc.t(time)
        return Record(
            type: type,
            value: .quantity(Quantity(value: value, unit: canonical, originalValue: value, originalUnit: written)),
            sourceName: source.name, device: source.device, startDate: Timestamp(secondsSince1970: t),
            endDate: Timestamp(secondsSince1970: t), isNestedInCorrelation: nested)
    }

    func bloodPressure(_ source: TestSource, _ time: String, _ high: Double, _ low: Double) -> Correlation {
        let t = Timestamp(secondsSince1970: utc.t(time))
        return Correlation(
            type: "HKCorrelationTypeIdentifierBloodPressure",
            attributes: SampleAttributes(sourceName: source.name, device: source.device, startDate: t, endDate: t),
            records: [
                measure(
                    source, time, high, type: Self.systolic, canonical: .millimetreOfMercury, written: "mmHg",
                    nested: true),
                measure(
                    source, time, low, type: Self.diastolic, canonical: .millimetreOfMercury, written: "mmHg",
                    nested: true),
            ])
    }

    /// 2025-02-03: HRV 40 ms (Watch) and 50 ms (app) → 45; respiratory rate 14 and 16 → 15;
    /// blood oxygen 0.97 and 0.95 (fractions) → 96 %; wrist temperature Watch 36.1 at 03:00 and
    /// 36.3 at 05:00, app 35.0 at 06:00 → the Watch's latest, 36.3 (the app ranks below the Watch).
    var night: [Record] {
        [
            measure(.watch, "2025-02-03 02:00", 40.0 / 60_000, type: Self.hrv, canonical: .minute, written: "ms"),
            measure(.app, "2025-02-03 03:00", 50.0 / 60_000, type: Self.hrv, canonical: .minute, written: "ms"),
            measure(
                .watch, "2025-02-03 02:30", 14, type: Self.respiratoryRate, canonical: .countPerMinute,
                written: "count/min"),
            measure(
                .app, "2025-02-03 03:30", 16, type: Self.respiratoryRate, canonical: .countPerMinute,
                written: "count/min"),
            measure(.watch, "2025-02-03 04:00", 0.97, type: Self.oxygen, canonical: .fraction, written: "%"),
            measure(.app, "2025-02-03 04:30", 0.95, type: Self.oxygen, canonical: .fraction, written: "%"),
            measure(
                .watch, "2025-02-03 03:00", 36.1, type: Self.wristTemperature, canonical: .degreeCelsius,
                written: "degC"),
            measure(
                .watch, "2025-02-03 05:00", 36.3, type: Self.wristTemperature, canonical: .degreeCelsius,
                written: "degC"),
            measure(
                .app, "2025-02-03 06:00", 35.0, type: Self.wristTemperature, canonical: .degreeCelsius, written: "degC"),
        ]
    }

    @Test func averagesAreOverAllSourcesAndWristTemperatureIsTheTopSourcesLatest() throws {
        let d = try #require(try analyze(night, options: options).day("2025-02-03"))
        #expect(close(d.hrvSdnnMs, 45))
        #expect(close(d.respiratoryRateBreathsPerMin, 15))
        #expect(close(d.oxygenSaturationPercent, 96))
        #expect(d.wristTemperatureC == 36.3)
    }

    @Test func bloodPressureComesFromCorrelationsOnlyAsTheTopSourcesLatestReading() throws {
        // Two readings of the app on 2025-02-03: 120/80 at 08:00 and 118/76 at 20:00 → the
        // latest, 118/76. A top-level systolic record of 200 on 2025-02-04 without a correlation
        // is not a reading: that day has no blood pressure.
        let analyzer = Analyzer(options: options)
        var batch = ExportBatch()
        batch.records = [
            measure(
                .app, "2025-02-04 09:00", 200, type: Self.systolic, canonical: .millimetreOfMercury, written: "mmHg"),
            measure(.watch, "2025-02-04 09:00", 0.98, type: Self.oxygen, canonical: .fraction, written: "%"),
        ]
        batch.correlations = [
            bloodPressure(.app, "2025-02-03 08:00", 120, 80), bloodPressure(.app, "2025-02-03 20:00", 118, 76),
        ]
        analyzer.consume(batch)
        let r = try analyzer.finish(exportDate: nil, timeZoneCounts: [:], environmentTimeZone: nil)
        #expect(r.day("2025-02-03")?.bloodPressureSystolicMmHg == 118)
        #expect(r.day("2025-02-03")?.bloodPressureDiastolicMmHg == 76)
        #expect(r.day("2025-02-04")?.bloodPressureSystolicMmHg == nil)
        #expect(close(r.day("2025-02-04")?.oxygenSaturationPercent, 98))
    }

    @Test func aMeasureInAnotherUnitIsDroppedAndCounted() throws {
        // An HRV value the reader could not convert to minutes (a count): dropped, the Watch's
        // 40 ms alone is the day's value.
        var bad = measure(.app, "2025-02-03 03:00", 55, type: Self.hrv, canonical: .count, written: "count")
        bad.line = 12
        let good = measure(.watch, "2025-02-03 02:00", 40.0 / 60_000, type: Self.hrv, canonical: .minute, written: "ms")
        let r = try analyze([bad, good], options: options)
        #expect(close(r.day("2025-02-03")?.hrvSdnnMs, 40))
        #expect(
            r.noteTexts.contains("Dropped 1 sample without a value in the unit their type needs (first at line 12).")
        )
    }

    @Test func mergedPartsWithOtherSourceTablesGiveTheResultOfOne() throws {
        // The app's records in the first part and the Watch's in the second: the second part's
        // source indices are remapped on merge, so the Watch still outranks the app (36.3, not 35.0).
        let one = try #require(try analyze(night, options: options).day("2025-02-03"))
        let first = Analyzer(options: options)
        let second = Analyzer(options: options)
        var a = ExportBatch()
        a.records = night.filter { $0.sourceName == TestSource.app.name }
        var b = ExportBatch()
        b.records = night.filter { $0.sourceName == TestSource.watch.name }
        first.consume(a)
        second.consume(b)
        first.merge(second)
        let merged = try first.finish(exportDate: nil, timeZoneCounts: [:], environmentTimeZone: nil)
        let d = try #require(merged.day("2025-02-03"))
        #expect(d.wristTemperatureC == 36.3)
        #expect(d.hrvSdnnMs == one.hrvSdnnMs)
        #expect(d.respiratoryRateBreathsPerMin == one.respiratoryRateBreathsPerMin)
        #expect(d.oxygenSaturationPercent == one.oxygenSaturationPercent)
    }
}

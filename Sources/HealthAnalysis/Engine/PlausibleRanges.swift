/// A measure whose values must lie in a physiologically plausible range to be counted: a value
/// outside it is no reading of a human body (a heart rate of 10^16 bpm, an oxygen saturation of
/// 400 %), so it is dropped, counted, and named in a note of the report, and it reaches no mean,
/// no daily value and no chart. The ranges, their units and where each bound comes from are in
/// docs/plausible-ranges.md.
public enum PlausibleMetric: Int, CaseIterable, Sendable {
    case heartRate, restingHeartRate, walkingHeartRateAverage, heartRateVariability, respiratoryRate
    case oxygenSaturation, wristTemperature, vo2Max, bodyMass, bloodPressureSystolic, bloodPressureDiastolic
    /// One sample of any cumulative type (steps, distance, energy, minutes, …), in its type's
    /// canonical unit: a bound on the sample, not on a day (a day may hold many samples).
    case cumulative
    /// Walking and running speed (`WalkingSpeed`, `RunningSpeed`), km/h.
    case walkingSpeed, runningSpeed

    /// The closed range of plausible values, in `unit` (the unit the report shows, after any
    /// scaling: HRV in ms, oxygen saturation in %).
    public var range: ClosedRange<Double> {
        switch self {
        case .heartRate, .restingHeartRate, .walkingHeartRateAverage: return 20...300
        case .heartRateVariability: return 1...1_000
        case .respiratoryRate: return 2...100
        case .oxygenSaturation: return 50...100
        case .wristTemperature: return 20...45
        case .vo2Max: return 5...100
        case .bodyMass: return 0.2...700
        case .bloodPressureSystolic: return 40...300
        case .bloodPressureDiastolic: return 10...200
        case .cumulative: return 0...1e9
        case .walkingSpeed: return 0.1...20
        case .runningSpeed: return 1...50
        }
    }

    /// The unit of `range`, as printed in a note.
    public var unit: String {
        switch self {
        case .heartRate, .restingHeartRate, .walkingHeartRateAverage: return "bpm"
        case .heartRateVariability: return "ms"
        case .respiratoryRate: return "breaths/min"
        case .oxygenSaturation: return "%"
        case .wristTemperature: return "°C"
        case .vo2Max: return "mL/(kg·min)"
        case .bodyMass: return "kg"
        case .bloodPressureSystolic, .bloodPressureDiastolic: return "mmHg"
        case .cumulative: return "in its type's unit"
        case .walkingSpeed, .runningSpeed: return "km/h"
        }
    }

    /// The noun of one sample in a note ("heart-rate sample").
    public var noun: String {
        switch self {
        case .heartRate: return "heart-rate sample"
        case .restingHeartRate: return "resting heart-rate sample"
        case .walkingHeartRateAverage: return "walking heart-rate average"
        case .heartRateVariability: return "heart-rate variability sample"
        case .respiratoryRate: return "respiratory-rate sample"
        case .oxygenSaturation: return "blood-oxygen sample"
        case .wristTemperature: return "wrist-temperature sample"
        case .vo2Max: return "VO2 max sample"
        case .bodyMass: return "body-mass sample"
        case .bloodPressureSystolic: return "blood-pressure reading with a systolic value"
        case .bloodPressureDiastolic: return "blood-pressure reading with a diastolic value"
        case .cumulative: return "cumulative sample"
        case .walkingSpeed: return "walking-speed sample"
        case .runningSpeed: return "running-speed sample"
        }
    }

    /// The plural of `noun`.
    public var plural: String {
        switch self {
        case .bloodPressureSystolic: return "blood-pressure readings with a systolic value"
        case .bloodPressureDiastolic: return "blood-pressure readings with a diastolic value"
        default: return noun + "s"
        }
    }

    /// Whether `value` (in `unit`) is plausible: inside `range`; false for NaN and infinities.
    @inline(__always)
    public func admits(_ value: Double) -> Bool { range.contains(value) }

    /// The bounds as a note prints them ("20–300 bpm").
    public var rangeText: String {
        func n(_ v: Double) -> String { v == v.rounded() ? grouped(Int(v)) : String(v) }
        return "\(n(range.lowerBound))–\(n(range.upperBound)) \(unit)"
    }
}

/// Implausible samples per metric, with the first line of each (0: not known).
struct ImplausibleCounts: Sendable {
    private(set) var counts = [Int](repeating: 0, count: PlausibleMetric.allCases.count)
    private(set) var firstLines = [Int](repeating: 0, count: PlausibleMetric.allCases.count)

    /// Counts one implausible sample of `metric` at `line` (the smallest known line is kept, so
    /// that it does not depend on how the export was split among parsing threads).
    mutating func count(_ metric: PlausibleMetric, line: Int) {
        counts[metric.rawValue] += 1
        let first = firstLines[metric.rawValue]
        if line > 0 && (first == 0 || line < first) { firstLines[metric.rawValue] = line }
    }

    mutating func merge(_ o: ImplausibleCounts) {
        for k in counts.indices {
            counts[k] += o.counts[k]
            if o.firstLines[k] > 0 && (firstLines[k] == 0 || o.firstLines[k] < firstLines[k]) {
                firstLines[k] = o.firstLines[k]
            }
        }
    }

    /// One note per metric with drops: "Dropped 1 heart-rate variability sample outside
    /// 1–1000 ms (first at line 12)."
    var notes: [AnalysisNote] {
        PlausibleMetric.allCases.compactMap { m in
            let n = counts[m.rawValue]
            guard n > 0 else { return nil }
            let line = firstLines[m.rawValue]
            return .info(
                "Dropped \(counted(n, m.noun, plural: m.plural)) outside the plausible \(m.rangeText)"
                    + (line > 0 ? " (first at line \(line))." : "."))
        }
    }
}

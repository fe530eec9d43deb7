import HealthExport

/// Heart and body measures beyond heart rate (docs/export-format.md §12, docs/deduplication.md §9), per
/// local day of the sample's start:
/// - HRV (`HeartRateVariabilitySDNN`, ms), respiratory rate (count/min) and blood oxygen
///   (`OxygenSaturation`, written as a fraction, reported in percent): the discrete average over
///   all sources (priority does not apply);
/// - walking and running speed (`WalkingSpeed`, `RunningSpeed`, km/h): the discrete average
///   over all sources, read by the trends only (docs/trends.md §1), not a `daily.csv` column;
/// - wrist temperature (`AppleSleepingWristTemperature`, °C): the highest-priority source's latest
///   value of the day, like the other once-a-day types;
/// - blood pressure: from `HKCorrelationTypeIdentifierBloodPressure` correlations only, which
///   pair a systolic and a diastolic reading; the top-level copies of those records are not read
///   again (so a reading counts once). The day's value is the highest-priority source's latest
///   reading.
final class Vitals: DomainAccumulator {
    enum Kind: Int32, CaseIterable {
        case hrv, respiratoryRate, oxygenSaturation, wristTemperature, walkingSpeed, runningSpeed

        var identifier: String {
            switch self {
            case .hrv: return "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
            case .respiratoryRate: return "HKQuantityTypeIdentifierRespiratoryRate"
            case .oxygenSaturation: return "HKQuantityTypeIdentifierOxygenSaturation"
            case .wristTemperature: return "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
            case .walkingSpeed: return "HKQuantityTypeIdentifierWalkingSpeed"
            case .runningSpeed: return "HKQuantityTypeIdentifierRunningSpeed"
            }
        }

        var unit: CanonicalUnit {
            switch self {
            case .hrv: return .minute
            case .respiratoryRate: return .countPerMinute
            case .oxygenSaturation: return .fraction
            case .wristTemperature: return .degreeCelsius
            case .walkingSpeed, .runningSpeed: return .kilometrePerHour
            }
        }

        /// The plausible range of its values in the reported unit (docs/plausible-ranges.md).
        var plausible: PlausibleMetric {
            switch self {
            case .hrv: return .heartRateVariability
            case .respiratoryRate: return .respiratoryRate
            case .oxygenSaturation: return .oxygenSaturation
            case .wristTemperature: return .wristTemperature
            case .walkingSpeed: return .walkingSpeed
            case .runningSpeed: return .runningSpeed
            }
        }

        /// From the canonical unit to the reported one (ms, count/min, %, °C).
        var scale: Double {
            switch self {
            case .hrv: return 60_000
            case .oxygenSaturation: return 100
            case .respiratoryRate, .wristTemperature, .walkingSpeed, .runningSpeed: return 1
            }
        }
    }

    struct Sample: SourceIndexed {
        var start: Int64
        var value: Double
        var second: Double  // diastolic for blood pressure
        var source: Int32
        var kind: Int32  // Kind.rawValue, or -1 for blood pressure
    }
    private var samples: [Sample] = []

    func route(type: String) -> Int32? { Kind.allCases.first { $0.identifier == type }?.rawValue }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        let kind = Kind(rawValue: route)!
        guard case .quantity(let q) = r.pointee.value, q.unit == kind.unit, q.value.isFinite else {
            context.counters.countUnexpectedUnit(line: r.pointee.line)
            return
        }
        let t = r.pointee.startDate.secondsSince1970
        guard kind.plausible.admits(q.value * kind.scale) else {
            context.counters.implausible.count(kind.plausible, line: r.pointee.line)
            return
        }
        guard let s = context.sources.index(of: r) else {
            context.counters.tooManySources += 1
            return
        }
        samples.append(Sample(start: t, value: q.value * kind.scale, second: 0, source: Int32(s), kind: route))
        context.cover(t, t)
    }

    func consume(_ c: Correlation, context: StreamContext) {
        guard c.type == "HKCorrelationTypeIdentifierBloodPressure" else { return }
        func reading(_ type: String) -> Double? {
            c.records.first { $0.type == type }?.quantity.flatMap { $0.unit == .millimetreOfMercury ? $0.value : nil }
        }
        guard let systolic = reading("HKQuantityTypeIdentifierBloodPressureSystolic"),
            let diastolic = reading("HKQuantityTypeIdentifierBloodPressureDiastolic")
        else { return }
        for (metric, value) in [
            (PlausibleMetric.bloodPressureSystolic, systolic), (.bloodPressureDiastolic, diastolic),
        ]
        where !metric.admits(value) {
            context.counters.implausible.count(metric, line: c.line)
            return
        }
        guard let s = context.sources.index(named: c.sourceName) else {
            context.counters.tooManySources += 1
            return
        }
        let t = c.startDate.secondsSince1970
        samples.append(Sample(start: t, value: systolic, second: diastolic, source: Int32(s), kind: -1))
        context.cover(t, t)
    }

    func merge(_ other: Vitals, sourceMap: [Int], context: StreamContext) {
        samples.appendRemapped(&other.samples, sourceMap: sourceMap, context: context)
    }

    func finish(_ context: inout FinishContext) {
        let priority = context.priority
        var means: [Int: [Int32: (sum: Double, count: Int)]] = [:]
        var latest: [Int: [Int32: (rank: Int, start: Int64, value: Double, second: Double)]] = [:]
        // A fixed order for the sums: arrival order depends on how the export was split among
        // parsing threads, and a floating-point sum in another order can round differently
        // (seen: 15.8 or 15.9 respiratory rate on one day with --threads 2).
        samples.sort { a, b in
            (a.start, a.kind, a.source, a.value, a.second) < (b.start, b.kind, b.source, b.value, b.second)
        }
        for s in samples {
            let day = context.calendar.dayNumber(s.start)
            if s.kind == Kind.wristTemperature.rawValue || s.kind == -1 {
                let rank = priority.rank(position: priority.position[Int(s.source)], manual: false)
                if let b = latest[day]?[s.kind],
                    !(rank != b.rank ? rank < b.rank : s.start != b.start ? s.start > b.start : s.value > b.value)
                {
                    continue
                }
                latest[day, default: [:]][s.kind] = (rank, s.start, s.value, s.second)
            } else {
                means[day, default: [:]][s.kind, default: (0, 0)].sum += s.value
                means[day, default: [:]][s.kind, default: (0, 0)].count += 1
            }
        }
        for day in Set(means.keys).union(latest.keys) {
            var v = DayVitals()
            func mean(_ k: Kind) -> Double? { means[day]?[k.rawValue].map { $0.sum / Double($0.count) } }
            v.hrvMs = mean(.hrv)
            v.respiratoryRate = mean(.respiratoryRate)
            v.oxygenSaturationPercent = mean(.oxygenSaturation)
            v.walkingSpeedKmh = mean(.walkingSpeed)
            v.runningSpeedKmh = mean(.runningSpeed)
            v.wristTemperatureC = latest[day]?[Kind.wristTemperature.rawValue]?.value
            if let bp = latest[day]?[-1] {
                v.bloodPressureSystolic = bp.value
                v.bloodPressureDiastolic = bp.second
            }
            context.daily.vitals[day] = v
        }
    }
}

/// One day's measures from `Vitals`.
struct DayVitals {
    var hrvMs: Double?
    var respiratoryRate: Double?
    var oxygenSaturationPercent: Double?
    var wristTemperatureC: Double?
    var bloodPressureSystolic: Double?
    var bloodPressureDiastolic: Double?
    /// Walking and running speed, km/h: for the trends only (not columns of `daily.csv`).
    var walkingSpeedKmh: Double?
    var runningSpeedKmh: Double?
}

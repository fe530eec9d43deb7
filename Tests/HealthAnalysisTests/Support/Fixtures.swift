import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

// Hand-built inputs for the analysis tests. Local wall-clock times are turned into instants
// with Foundation's Calendar — an oracle independent of the analysis's own zone table.

/// A source as a test writes it.
struct TestSource {
    var name: String
    var device: Device?
    var creation: Int64?

    static let watchDevice = Device(
        name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,7", software: "10.2")
    static let phoneDevice = Device(
        name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone14,2", software: "17.2")

    static let watch = TestSource(name: "Alex’s Apple Watch", device: watchDevice)
    static let watch2 = TestSource(name: "Old Watch", device: watchDevice)
    static let phone = TestSource(name: "Alex’s iPhone", device: phoneDevice)
    static let health = TestSource(name: "Health")
    static let app = TestSource(name: "Pedometer++")
}

enum T {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let distance = "HKQuantityTypeIdentifierDistanceWalkingRunning"
    static let flights = "HKQuantityTypeIdentifierFlightsClimbed"
    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    static let basalEnergy = "HKQuantityTypeIdentifierBasalEnergyBurned"
    static let exercise = "HKQuantityTypeIdentifierAppleExerciseTime"
    static let moveTime = "HKQuantityTypeIdentifierAppleMoveTime"
    static let standTime = "HKQuantityTypeIdentifierAppleStandTime"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
    static let vo2Max = "HKQuantityTypeIdentifierVO2Max"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"
    static let standHour = "HKCategoryTypeIdentifierAppleStandHour"
    static let cycling = "HKQuantityTypeIdentifierDistanceCycling"
}

/// Instants from local wall-clock text.
struct Clock {
    var zone: String

    /// `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`, local time in `zone`.
    func t(_ text: String) -> Int64 {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        var c = DateComponents()
        (c.year, c.month, c.day, c.hour, c.minute) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        c.second = parts.count > 5 ? parts[5] : 0
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zone)!
        return Int64(cal.date(from: c)!.timeIntervalSince1970)
    }

    func ts(_ text: String) -> Timestamp { Timestamp(secondsSince1970: t(text)) }

    /// The instant of local midnight starting `date` (Foundation's startOfDay).
    func midnight(_ date: String) -> Int64 {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zone)!
        let d = CivilDate(date)!
        var c = DateComponents()
        (c.year, c.month, c.day) = (d.year, d.month, d.day)
        return Int64(cal.startOfDay(for: cal.date(from: c)!).timeIntervalSince1970)
    }
}

func day(_ s: String) -> CivilDate { CivilDate(s)! }

func unit(for type: String) -> (CanonicalUnit, String) {
    switch type {
    case T.distance, T.cycling: return (.kilometre, "km")
    case T.activeEnergy, T.basalEnergy: return (.kilocalorie, "kcal")
    case T.exercise, T.moveTime, T.standTime: return (.minute, "min")
    case T.heartRate, T.restingHeartRate: return (.countPerMinute, "count/min")
    case T.vo2Max: return (.millilitrePerMinuteKilogram, "mL/min·kg")
    case T.bodyMass: return (.kilogram, "kg")
    default: return (.count, "count")
    }
}

/// A quantity record between two instants.
func sample(
    _ source: TestSource, _ start: Int64, _ end: Int64, _ value: Double, type: String = T.steps,
    manual: Bool = false, nested: Bool = false, printedOffset: Int32 = 0
) -> Record {
    let (canonical, written) = unit(for: type)
    return Record(
        type: type,
        value: .quantity(Quantity(value: value, unit: canonical, originalValue: value, originalUnit: written)),
        sourceName: source.name, device: source.device,
        creationDate: source.creation.map { Timestamp(secondsSince1970: $0) },
        startDate: Timestamp(secondsSince1970: start, printedOffsetSeconds: printedOffset),
        endDate: Timestamp(secondsSince1970: end, printedOffsetSeconds: printedOffset),
        metadata: manual ? [MetadataEntry(key: "HKWasUserEntered", value: "1")] : [],
        isNestedInCorrelation: nested)
}

/// A quantity record between two local wall-clock times.
func sample(
    _ source: TestSource, _ clock: Clock, _ start: String, _ end: String, _ value: Double, type: String = T.steps,
    manual: Bool = false, nested: Bool = false
) -> Record {
    sample(source, clock.t(start), clock.t(end), value, type: type, manual: manual, nested: nested)
}

/// An `AppleStandHour` record for the local hour starting at `start`.
func standHour(_ source: TestSource, _ clock: Clock, _ start: String, stood: Bool = true) -> Record {
    let t = clock.t(start)
    return standHour(source, t, stood: stood)
}

func standHour(_ source: TestSource, _ t: Int64, stood: Bool = true) -> Record {
    Record(
        type: T.standHour, value: .category(.appleStandHour(stood: stood)), sourceName: source.name,
        device: source.device, startDate: Timestamp(secondsSince1970: t),
        endDate: Timestamp(secondsSince1970: t + 3600))
}

func summary(
    _ date: String, moveKcal: Double? = nil, moveGoal: Double? = nil, exercise: Double? = nil,
    exerciseGoal: Double? = nil, stand: Double? = nil, standGoal: Double? = nil, moveMinutes: Double? = nil,
    moveMinutesGoal: Double? = nil
) -> ActivitySummary {
    ActivitySummary(
        date: day(date), activeEnergyBurnedKcal: moveKcal, activeEnergyBurnedGoalKcal: moveGoal,
        activeEnergyBurnedUnit: "kcal", appleMoveTimeMinutes: moveMinutes, appleMoveTimeGoalMinutes: moveMinutesGoal,
        appleExerciseTimeMinutes: exercise, appleExerciseTimeGoalMinutes: exerciseGoal, appleStandHours: stand,
        appleStandHoursGoal: standGoal, line: 0)
}

func workout(_ source: TestSource, _ start: Int64, _ end: Int64, minutes: Double?) -> Workout {
    Workout(
        activityType: "HKWorkoutActivityTypeWalking", durationMinutes: minutes, totalDistanceKm: nil,
        totalEnergyBurnedKcal: nil,
        attributes: SampleAttributes(
            sourceName: source.name, device: source.device, startDate: Timestamp(secondsSince1970: start),
            endDate: Timestamp(secondsSince1970: end)),
        metadata: [], events: [], statistics: [], activities: [], routes: [], line: 0)
}

/// Runs the analyzer over hand-built input.
func analyze(
    _ records: [Record], workouts: [Workout] = [], summaries: [ActivitySummary] = [],
    options: AnalysisOptions, exportDate: Timestamp? = nil, timeZoneCounts: [String: Int] = [:],
    environmentTimeZone: String? = nil, batchSize: Int = 1000,
    sampleBufferLimit: Int = Analyzer.defaultSampleBufferLimit
) throws -> AnalysisResult {
    let analyzer = Analyzer(options: options, sampleBufferLimit: sampleBufferLimit)
    var start = 0
    repeat {
        var batch = ExportBatch()
        batch.records = Array(records[start..<min(records.count, start + batchSize)])
        if start == 0 {
            batch.workouts = workouts
            batch.activitySummaries = summaries
        }
        analyzer.consume(batch)
        start += batchSize
    } while start < records.count
    return try analyzer.finish(
        exportDate: exportDate, timeZoneCounts: timeZoneCounts, environmentTimeZone: environmentTimeZone)
}

extension AnalysisResult {
    /// The row of `date`, if reported.
    func day(_ date: String) -> DailyMetrics? { days.first { $0.date == CivilDate(date)! } }

    func contribution(_ type: String, _ source: String) -> SourceContribution? {
        sources.first { $0.type == type && $0.sourceName == source }
    }
}

/// |a − b| ≤ 1e-6 (prorated sums are exact up to floating-point rounding).
func close(_ a: Double?, _ b: Double?, tolerance: Double = 1e-6) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let x?, let y?): return abs(x - y) <= tolerance
    default: return false
    }
}

/// All permutations of `items`, in lexicographic order of positions.
func permutations<E>(_ items: [E]) -> [[E]] {
    guard items.count > 1 else { return [items] }
    var result: [[E]] = []
    for i in items.indices {
        var rest = items
        let first = rest.remove(at: i)
        for p in permutations(rest) { result.append([first] + p) }
    }
    return result
}

/// A small deterministic generator (SplitMix64) for property sweeps.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The record types the generator writes, in the order their records appear in the export
/// (Apple groups records by type).
enum RecordKind: Int, CaseIterable {
    case stepCount, distance, basalEnergy, activeEnergy, flights, heartRate
    case bloodPressureSystolic, bloodPressureDiastolic, exerciseTime, restingHeartRate
    case heartRateVariability, standTime, sleepAnalysis, standHour
    // Written only with `extendedHealthData` (Generator+Extended.swift).
    case respiratoryRate, oxygenSaturation, wristTemperature, vo2Max, bodyMass, walkingHeartRate

    var typeIdentifier: String {
        switch self {
        case .stepCount: return "HKQuantityTypeIdentifierStepCount"
        case .distance: return "HKQuantityTypeIdentifierDistanceWalkingRunning"
        case .basalEnergy: return "HKQuantityTypeIdentifierBasalEnergyBurned"
        case .activeEnergy: return "HKQuantityTypeIdentifierActiveEnergyBurned"
        case .flights: return "HKQuantityTypeIdentifierFlightsClimbed"
        case .heartRate: return "HKQuantityTypeIdentifierHeartRate"
        case .bloodPressureSystolic: return "HKQuantityTypeIdentifierBloodPressureSystolic"
        case .bloodPressureDiastolic: return "HKQuantityTypeIdentifierBloodPressureDiastolic"
        case .exerciseTime: return "HKQuantityTypeIdentifierAppleExerciseTime"
        case .restingHeartRate: return "HKQuantityTypeIdentifierRestingHeartRate"
        case .heartRateVariability: return "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
        case .standTime: return "HKQuantityTypeIdentifierAppleStandTime"
        case .sleepAnalysis: return "HKCategoryTypeIdentifierSleepAnalysis"
        case .standHour: return "HKCategoryTypeIdentifierAppleStandHour"
        case .respiratoryRate: return "HKQuantityTypeIdentifierRespiratoryRate"
        case .oxygenSaturation: return "HKQuantityTypeIdentifierOxygenSaturation"
        case .wristTemperature: return "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
        case .vo2Max: return "HKQuantityTypeIdentifierVO2Max"
        case .bodyMass: return "HKQuantityTypeIdentifierBodyMass"
        case .walkingHeartRate: return "HKQuantityTypeIdentifierWalkingHeartRateAverage"
        }
    }

    /// The `unit` attribute; `nil` for category types.
    var unit: String? {
        switch self {
        case .stepCount, .flights: return "count"
        case .distance: return "km"
        case .basalEnergy, .activeEnergy: return "kcal"
        case .heartRate, .restingHeartRate, .respiratoryRate, .walkingHeartRate: return "count/min"
        case .oxygenSaturation: return "%"
        case .wristTemperature: return "degC"
        case .vo2Max: return "mL/min\u{00B7}kg"
        case .bodyMass: return "kg"
        case .bloodPressureSystolic, .bloodPressureDiastolic: return "mmHg"
        case .exerciseTime, .standTime: return "min"
        case .heartRateVariability: return "ms"
        case .sleepAnalysis, .standHour: return nil
        }
    }

    /// Sample values are integers in units of 10^-decimals of `unit`.
    var decimals: Int {
        switch self {
        case .distance: return 5  // 1e-5 km = 1 cm
        case .basalEnergy, .activeEnergy, .heartRateVariability: return 3
        case .oxygenSaturation, .wristTemperature: return 2
        case .respiratoryRate, .vo2Max, .bodyMass: return 1
        default: return 0
        }
    }

    /// Cumulative types are summed with source de-duplication (docs/deduplication.md §4).
    var isCumulative: Bool {
        switch self {
        case .stepCount, .distance, .basalEnergy, .activeEnergy, .flights, .exerciseTime, .standTime:
            return true
        default: return false
        }
    }
}

/// Who wrote a sample.
enum Source: UInt8, CaseIterable {
    case watch, phone, strava, healthMate, manual
    /// A third-party sleep tracker (legacy `…Asleep` values); only with `extendedHealthData`.
    case autoSleep

    /// docs/deduplication.md §3 default rank: manual 0, Apple Watch 1, iPhone 2, other apps 3.
    var rank: Int {
        switch self {
        case .manual: return 0
        case .watch: return 1
        case .phone: return 2
        case .strava, .healthMate, .autoSleep: return 3
        }
    }
}

/// One generated sample. `value` is in units of 10^-decimals of the kind's unit; `tag`
/// carries the category value or metadata choice (see `Tag`).
struct Sample {
    var start: Int64
    var end: Int64
    var value: Int64
    var created: Int64
    var source: Source
    var tag: UInt8 = 0
}

enum Tag {
    // HeartRate motion context (the MetadataEntry value).
    static let sedentary: UInt8 = 1
    static let active: UInt8 = 2
    // SleepAnalysis.
    static let inBed: UInt8 = 0
    static let core: UInt8 = 3
    static let deep: UInt8 = 4
    static let rem: UInt8 = 5
    static let awake: UInt8 = 2
    /// `HKCategoryValueSleepAnalysisAsleep` (before iOS 16; the same raw value as AsleepUnspecified).
    static let asleepLegacy: UInt8 = 1
    // AppleStandHour.
    static let stood: UInt8 = 0
    static let idle: UInt8 = 1
    // StepCount: a manual entry carries HKWasUserEntered.
    static let userEntered: UInt8 = 9
}

/// What the Watch sees the person doing in one worn minute.
enum MinuteKind: UInt8 {
    case rest, incidental, walk, briskWalk, run, workoutWalk, strength

    /// Counts toward the Exercise ring.
    var isExercise: Bool { self == .briskWalk || self == .run || self == .workoutWalk || self == .strength }
    /// Moving on foot (stands the hour).
    var isActive: Bool { rawValue >= MinuteKind.walk.rawValue }
}

enum WorkoutKind {
    case running, walking, strength

    var activityType: String {
        switch self {
        case .running: return "HKWorkoutActivityTypeRunning"
        case .walking: return "HKWorkoutActivityTypeWalking"
        case .strength: return "HKWorkoutActivityTypeFunctionalStrengthTraining"
        }
    }

    var minuteKind: MinuteKind {
        switch self {
        case .running: return .run
        case .walking: return .workoutWalk
        case .strength: return .strength
        }
    }

    var hasRoute: Bool { self != .strength }
}

/// A walk: `[start, end)`, whole minutes.
struct Walk {
    var start: Int64
    var end: Int64
}

/// One iPhone sample of a walk the Watch was not worn for (steps and distance share it).
struct PhoneChunk {
    var start: Int64
    var end: Int64
    var steps: Int64
    var distance: Int64  // 1e-5 km
}

struct WorkoutPlan {
    var kind: WorkoutKind
    var start: Int64
    var end: Int64
    var pauseAt: Int64
    var pauseSeconds: Int64
    /// Strava also writes one ActiveEnergyBurned sample over the workout (hidden by the Watch).
    var strava: Bool

    /// `duration` in seconds: end − start without the pause.
    var activeSeconds: Int64 { end - start - pauseSeconds }
}

struct StandHourPlan {
    var start: Int64
    var stood: Bool
}

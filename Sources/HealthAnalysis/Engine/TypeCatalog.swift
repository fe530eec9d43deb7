import HealthExport

/// What the analysis does with records of one type: decided once per type, then cached per
/// `typeSymbol` so that the per-record path is one array load.
enum TypeRole: Equatable, Sendable {
    /// Not used by the analysis.
    case ignored
    /// A cumulative quantity type, stored in cumulative slot `slot` (docs/export-format.md §12,
    /// docs/deduplication.md §4).
    case cumulative(slot: Int)
    case heartRate
    /// A type written about once a day, whose daily value is the highest-priority source's
    /// latest sample (docs/deduplication.md §9).
    case oncePerDay(OncePerDayType)
    case standHour
}

/// The once-a-day types the daily metrics show (docs/deduplication.md §9).
enum OncePerDayType: Int, CaseIterable, Sendable {
    case restingHeartRate, walkingHeartRateAverage, vo2Max, bodyMass

    var identifier: String {
        switch self {
        case .restingHeartRate: return "HKQuantityTypeIdentifierRestingHeartRate"
        case .walkingHeartRateAverage: return "HKQuantityTypeIdentifierWalkingHeartRateAverage"
        case .vo2Max: return "HKQuantityTypeIdentifierVO2Max"
        case .bodyMass: return "HKQuantityTypeIdentifierBodyMass"
        }
    }

    /// The plausible range its values must lie in (docs/plausible-ranges.md), in `unit`.
    var plausible: PlausibleMetric {
        switch self {
        case .restingHeartRate: return .restingHeartRate
        case .walkingHeartRateAverage: return .walkingHeartRateAverage
        case .vo2Max: return .vo2Max
        case .bodyMass: return .bodyMass
        }
    }

    /// The canonical unit its values must be in.
    var unit: CanonicalUnit {
        switch self {
        case .restingHeartRate, .walkingHeartRateAverage: return .countPerMinute
        case .vo2Max: return .millilitrePerMinuteKilogram
        case .bodyMass: return .kilogram
        }
    }
}

/// A cumulative type known to the analysis.
struct CumulativeType: Sendable {
    var identifier: String
    /// Samples in another canonical unit are dropped and counted.
    var unit: CanonicalUnit
}

/// Cumulative slots with a fixed index: the types the daily metrics read.
enum CumulativeSlot {
    static let steps = 0
    static let distanceWalkingRunning = 1
    static let flightsClimbed = 2
    static let activeEnergy = 3
    static let basalEnergy = 4
    static let exerciseTime = 5
    static let standTime = 6
    static let moveTime = 7
    static let fixedCount = 8
}

enum TypeCatalog {
    static let prefix = "HKQuantityTypeIdentifier"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let appleStandHour = "HKCategoryTypeIdentifierAppleStandHour"

    /// A quantity type's name without the `HKQuantityTypeIdentifier` prefix (`StepCount`).
    static func shortName(_ identifier: String) -> String {
        identifier.hasPrefix(prefix) ? String(identifier.dropFirst(prefix.count)) : identifier
    }

    /// The fixed slots, in `CumulativeSlot` order.
    static let fixed: [CumulativeType] = [
        .init(identifier: prefix + "StepCount", unit: .count),
        .init(identifier: prefix + "DistanceWalkingRunning", unit: .kilometre),
        .init(identifier: prefix + "FlightsClimbed", unit: .count),
        .init(identifier: prefix + "ActiveEnergyBurned", unit: .kilocalorie),
        .init(identifier: prefix + "BasalEnergyBurned", unit: .kilocalorie),
        .init(identifier: prefix + "AppleExerciseTime", unit: .minute),
        .init(identifier: prefix + "AppleStandTime", unit: .minute),
        .init(identifier: prefix + "AppleMoveTime", unit: .minute),
    ]

    /// The other cumulative types of docs/export-format.md §12 (reported in `sources` only), by name
    /// without the `HKQuantityTypeIdentifier` prefix, with their canonical unit.
    static let otherCumulative: [String: CanonicalUnit] = [
        "DistanceCycling": .kilometre, "DistanceSwimming": .kilometre,
        "DistanceWheelchair": .kilometre, "DistanceDownhillSnowSports": .kilometre,
        "DistanceRowing": .kilometre, "DistancePaddleSports": .kilometre,
        "DistanceSkatingSports": .kilometre, "DistanceCrossCountrySkiing": .kilometre,
        "PushCount": .count, "SwimmingStrokeCount": .count, "TimeInDaylight": .minute,
        "NikeFuel": .count, "NumberOfTimesFallen": .count, "InhalerUsage": .count,
        "InsulinDelivery": .internationalUnit, "NumberOfAlcoholicBeverages": .count,
        "DietaryEnergyConsumed": .kilocalorie, "DietaryWater": .litre,
    ]

    /// The role of a type identifier; for a new cumulative type, its unit.
    static func classify(_ type: String) -> (role: TypeRole, newCumulative: CumulativeType?) {
        switch type {
        case heartRate: return (.heartRate, nil)
        case appleStandHour: return (.standHour, nil)
        default: break
        }
        if let once = OncePerDayType.allCases.first(where: { $0.identifier == type }) {
            return (.oncePerDay(once), nil)
        }
        if let i = fixed.firstIndex(where: { $0.identifier == type }) { return (.cumulative(slot: i), nil) }
        guard type.hasPrefix(prefix) else { return (.ignored, nil) }
        let name = type.dropFirst(prefix.count)
        if let unit = otherCumulative[String(name)] {
            return (.cumulative(slot: -1), CumulativeType(identifier: type, unit: unit))
        }
        // Every other Dietary* type (nutrients) is a cumulative mass (docs/export-format.md §12).
        if name.hasPrefix("Dietary") {
            return (.cumulative(slot: -1), CumulativeType(identifier: type, unit: .kilogram))
        }
        return (.ignored, nil)
    }
}

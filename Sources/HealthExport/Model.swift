// The typed model of an Apple Health export (reference §2.5). Every value type here is what the
// reader hands its consumer; strings that repeat across records (type identifiers, source
// names, units) share one storage per distinct value, so copying a record allocates nothing.

/// One `<MetadataEntry key value>` child, as written (entities decoded).
public struct MetadataEntry: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// Well-known metadata keys (reference §2.5).
public enum MetadataKey {
    /// IANA zone where the sample was recorded: the only reliable local-time information.
    public static let timeZone = "HKTimeZone"
    /// `1` for a manual entry (top default source priority, reference §5.4).
    public static let wasUserEntered = "HKWasUserEntered"
    /// `0` not set, `1` sedentary, `2` active.
    public static let heartRateMotionContext = "HKMetadataKeyHeartRateMotionContext"
}

extension Array where Element == MetadataEntry {
    /// The value of the last entry with `key` (workout metadata can repeat keys, reference §2.3).
    public func value(for key: String) -> String? {
        last(where: { $0.key == key })?.value
    }
}

/// The `<Me>` characteristics (personal data: never log). Empty strings are kept as written.
public struct Me: Hashable, Sendable {
    public var dateOfBirth: String?
    public var biologicalSex: String?
    public var bloodType: String?
    public var fitzpatrickSkinType: String?
    public var cardioFitnessMedicationsUse: String?
    public init(
        dateOfBirth: String? = nil, biologicalSex: String? = nil, bloodType: String? = nil,
        fitzpatrickSkinType: String? = nil, cardioFitnessMedicationsUse: String? = nil
    ) {
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
        self.bloodType = bloodType
        self.fitzpatrickSkinType = fitzpatrickSkinType
        self.cardioFitnessMedicationsUse = cardioFitnessMedicationsUse
    }
}

/// A measured quantity: the value converted to the canonical unit of its dimension, and the
/// value and unit string as the export wrote them.
public struct Quantity: Hashable, Sendable {
    /// The value in `unit` (for example kcal for `Cal`, `kcal`, `kJ`; a fraction for `%`).
    public var value: Double
    /// The canonical unit of the value's dimension.
    public var unit: CanonicalUnit
    /// The value as written in the export.
    public var originalValue: Double
    /// The HKUnit string as written in the export (`Cal`, `mi`, `mmol<180.15588000005408>/L`).
    public var originalUnit: String

    public init(value: Double, unit: CanonicalUnit, originalValue: Double, originalUnit: String) {
        self.value = value
        self.unit = unit
        self.originalValue = originalValue
        self.originalUnit = originalUnit
    }
}

/// A sleep stage (`HKCategoryValueSleepAnalysis…`, reference §3.3). `…Asleep` (before iOS 16)
/// and `…AsleepUnspecified` (iOS 16+) are the same raw value and both map to `.asleepUnspecified`.
public enum SleepStage: String, Hashable, Sendable, CaseIterable {
    case inBed, asleepUnspecified, awake, asleepCore, asleepDeep, asleepREM

    /// True for the stages that count as asleep (Core, Deep, REM, Unspecified).
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: return true
        case .inBed, .awake: return false
        }
    }
}

/// The value of a category record (`HKCategoryValue…` string, reference §3.3), typed where the
/// reference lists its meaning. Unknown strings (new in each iOS) and bare integers are kept.
public enum CategoryValue: Hashable, Sendable {
    case sleepAnalysis(SleepStage)
    /// `HKCategoryValueAppleStandHourStood` (true) or `…Idle` (false).
    case appleStandHour(stood: Bool)
    /// `HKCategoryValueNotApplicable`.
    case notApplicable
    /// Any other value string, as written (severities, menstrual flow, audio events, …).
    case other(String)
}

/// What a `Record` carries in its `value` attribute.
public enum RecordValue: Hashable, Sendable {
    /// An `HKQuantityTypeIdentifier…` record with a numeric value and a unit.
    case quantity(Quantity)
    /// An `HKCategoryTypeIdentifier…` record.
    case category(CategoryValue)
    /// A record without a value (or a value kind the reader does not model, kept as text).
    case none(String?)
}

/// One beat of an HRV record's `HeartRateVariabilityMetadataList` (reference §2.5).
public struct InstantaneousBeatsPerMinute: Hashable, Sendable {
    public var bpm: Double
    /// Locale-formatted time of day in the *true local time* of the recording, as written
    /// (`6:14:48.94 PM`, `17:07:00,29`); it has no date and can differ from the parent record's
    /// printed clock by the DST delta.
    public var time: String
    public init(bpm: Double, time: String) {
        self.bpm = bpm
        self.time = time
    }
}

/// A `<Record>`: one HealthKit sample.
public struct Record: Sendable {
    /// The line of the record's start tag in the export file (1-based).
    ///
    /// (First, so that the synthesized memberwise initializer, which the reader uses, differs
    /// from the public one below: an initializer written out in the struct cost the reader a
    /// copy of the whole record, a retain and a release of each of its references, per record.)
    public var line: Int
    /// The type identifier, e.g. `HKQuantityTypeIdentifierStepCount`.
    public var type: String
    /// A small integer naming `type` within one read (equal ids ⇔ equal types); for fast
    /// per-type tables in consumers. Not stable across reads.
    public var typeSymbol: Int32
    public var value: RecordValue
    /// `sourceName` exactly as written (U+2019 and `'` stay distinct, reference §2.6).
    public var sourceName: String
    /// A small integer naming `sourceName` within one read, like `typeSymbol`.
    public var sourceSymbol: Int32
    public var sourceVersion: String?
    /// The parsed `device` attribute, without its per-record memory address.
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var metadata: [MetadataEntry]
    /// The beats of an Apple Watch HRV record; empty otherwise.
    public var heartbeats: [InstantaneousBeatsPerMinute]
    /// True for a record inside a `<Correlation>`: Apple's DTD says such records also appear as
    /// top-level records, so they must never be added to totals (reference §2.5).
    public var isNestedInCorrelation: Bool
}

extension Record {
    /// A record with the given fields (symbols -1: not from a read).
    public init(
        type: String, typeSymbol: Int32 = -1, value: RecordValue, sourceName: String,
        sourceSymbol: Int32 = -1, sourceVersion: String? = nil, device: Device? = nil,
        creationDate: Timestamp? = nil, startDate: Timestamp, endDate: Timestamp,
        metadata: [MetadataEntry] = [], heartbeats: [InstantaneousBeatsPerMinute] = [],
        isNestedInCorrelation: Bool = false, line: Int = 0
    ) {
        self.type = type
        self.typeSymbol = typeSymbol
        self.value = value
        self.sourceName = sourceName
        self.sourceSymbol = sourceSymbol
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.heartbeats = heartbeats
        self.isNestedInCorrelation = isNestedInCorrelation
        self.line = line
    }

    /// The quantity, for a quantity record.
    public var quantity: Quantity? {
        if case .quantity(let q) = value { return q }
        return nil
    }

    /// The category value, for a category record.
    public var categoryValue: CategoryValue? {
        if case .category(let c) = value { return c }
        return nil
    }

    /// The `HKTimeZone` metadata value (an IANA zone name), when present.
    public var timeZoneIdentifier: String? { metadata.value(for: MetadataKey.timeZone) }

    /// True when `HKWasUserEntered` is `1` (a manual entry).
    public var wasUserEntered: Bool { metadata.value(for: MetadataKey.wasUserEntered) == "1" }
}

/// A `<Correlation>` (blood pressure, food). Its `records` are duplicates of top-level records
/// and are marked `isNestedInCorrelation`; use them only to pair values.
public struct Correlation: Sendable {
    public var type: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var metadata: [MetadataEntry]
    public var records: [Record]
    public var line: Int

    public init(
        type: String,
        sourceName: String,
        sourceVersion: String? = nil,
        device: Device? = nil,
        creationDate: Timestamp? = nil,
        startDate: Timestamp,
        endDate: Timestamp,
        metadata: [MetadataEntry] = [],
        records: [Record] = [],
        line: Int = 0
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.records = records
        self.line = line
    }
}

/// A `<WorkoutEvent>` (pause, resume, lap, segment, marker, …).
public struct WorkoutEvent: Sendable {
    /// `HKWorkoutEventTypePause`, `…Resume`, `…Lap`, …
    public var type: String
    public var date: Timestamp
    /// Duration in minutes (converted from `durationUnit`), when given.
    public var durationMinutes: Double?
    public var metadata: [MetadataEntry]

    public init(
        type: String,
        date: Timestamp,
        durationMinutes: Double? = nil,
        metadata: [MetadataEntry] = []
    ) {
        self.type = type
        self.date = date
        self.durationMinutes = durationMinutes
        self.metadata = metadata
    }
}

/// A `<WorkoutStatistics>`: HealthKit's own statistic of one type over a workout or activity.
/// Values are in `unit` (canonical); `sum` for cumulative types, `average`/`minimum`/`maximum`
/// for discrete ones.
public struct WorkoutStatistics: Sendable {
    public var type: String
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    /// The canonical unit of the values (nil when the export gave no or an unknown unit).
    public var unit: CanonicalUnit?
    /// The unit string as written.
    public var originalUnit: String?

    public init(
        type: String,
        startDate: Timestamp,
        endDate: Timestamp,
        sum: Double? = nil,
        average: Double? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        unit: CanonicalUnit? = nil,
        originalUnit: String? = nil
    ) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.originalUnit = originalUnit
    }
}

/// A `<WorkoutActivity>` (iOS 16+ multisport leg or interval). Its statistics are sub-totals
/// of the parent workout's: never add them to the workout's own (reference §2.5).
public struct WorkoutActivity: Sendable {
    public var uuid: String?
    public var startDate: Timestamp
    public var endDate: Timestamp?
    public var durationMinutes: Double?
    public var metadata: [MetadataEntry]
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistics]

    public init(
        uuid: String? = nil,
        startDate: Timestamp,
        endDate: Timestamp? = nil,
        durationMinutes: Double? = nil,
        metadata: [MetadataEntry] = [],
        events: [WorkoutEvent] = [],
        statistics: [WorkoutStatistics] = []
    ) {
        self.uuid = uuid
        self.startDate = startDate
        self.endDate = endDate
        self.durationMinutes = durationMinutes
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
    }
}

/// One point of a legacy inline route (`<Location …/>` inside `<WorkoutRoute>`).
public struct RouteLocation: Sendable {
    public var date: Timestamp
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?

    public init(
        date: Timestamp,
        latitude: Double,
        longitude: Double,
        altitude: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        course: Double? = nil,
        speed: Double? = nil
    ) {
        self.date = date
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
    }
}

/// A `<WorkoutRoute>`: references to GPX files (`/workout-routes/route_….gpx`, relative to
/// `apple_health_export/`) or, in very old exports, inline locations.
public struct WorkoutRoute: Sendable {
    public var sourceName: String
    public var sourceVersion: String?
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var metadata: [MetadataEntry]
    public var filePaths: [String]
    public var locations: [RouteLocation]

    public init(
        sourceName: String,
        sourceVersion: String? = nil,
        device: Device? = nil,
        creationDate: Timestamp? = nil,
        startDate: Timestamp,
        endDate: Timestamp,
        metadata: [MetadataEntry] = [],
        filePaths: [String] = [],
        locations: [RouteLocation] = []
    ) {
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.filePaths = filePaths
        self.locations = locations
    }
}

/// A `<Workout>`.
public struct Workout: Sendable {
    /// `HKWorkoutActivityTypeRunning`, …
    public var activityType: String
    /// The workout's duration in minutes, pauses excluded (as the export gives it).
    public var durationMinutes: Double?
    /// Total distance in km: the `totalDistance` attribute, or where it is absent (current
    /// exports) the sum of the workout's `Distance…` statistics.
    public var totalDistanceKm: Double?
    /// Total active energy in kcal: `totalEnergyBurned`, or the `ActiveEnergyBurned` statistic.
    public var totalEnergyBurnedKcal: Double?
    public var sourceName: String
    public var sourceVersion: String?
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var metadata: [MetadataEntry]
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistics]
    public var activities: [WorkoutActivity]
    public var routes: [WorkoutRoute]
    public var line: Int

    /// The `HKTimeZone` metadata value, when present.
    public var timeZoneIdentifier: String? { metadata.value(for: MetadataKey.timeZone) }

    /// The workout's own statistic of `type` (not an activity's).
    public func statistics(for type: String) -> WorkoutStatistics? {
        statistics.last(where: { $0.type == type })
    }

    public init(
        activityType: String,
        durationMinutes: Double? = nil,
        totalDistanceKm: Double? = nil,
        totalEnergyBurnedKcal: Double? = nil,
        sourceName: String,
        sourceVersion: String? = nil,
        device: Device? = nil,
        creationDate: Timestamp? = nil,
        startDate: Timestamp,
        endDate: Timestamp,
        metadata: [MetadataEntry] = [],
        events: [WorkoutEvent] = [],
        statistics: [WorkoutStatistics] = [],
        activities: [WorkoutActivity] = [],
        routes: [WorkoutRoute] = [],
        line: Int = 0
    ) {
        self.activityType = activityType
        self.durationMinutes = durationMinutes
        self.totalDistanceKm = totalDistanceKm
        self.totalEnergyBurnedKcal = totalEnergyBurnedKcal
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.routes = routes
        self.line = line
    }
}

/// An `<ActivitySummary>`: the Activity rings of one calendar day as the Watch saw it
/// (reference §2.5, §4). Energies are in kcal (converted from `Cal`/`kJ`), times in minutes.
public struct ActivitySummary: Hashable, Sendable {
    /// `dateComponents`: a calendar date with no time or zone (the Watch's local day).
    public var date: CivilDate
    public var activeEnergyBurnedKcal: Double?
    public var activeEnergyBurnedGoalKcal: Double?
    /// `activeEnergyBurnedUnit` as written (`kcal`, `Cal`, `kJ`).
    public var activeEnergyBurnedUnit: String?
    /// `appleMoveTime` (iOS 14+) or the older `appleMoveMinutes`, in minutes.
    public var appleMoveTimeMinutes: Double?
    public var appleMoveTimeGoalMinutes: Double?
    public var appleExerciseTimeMinutes: Double?
    public var appleExerciseTimeGoalMinutes: Double?
    public var appleStandHours: Double?
    public var appleStandHoursGoal: Double?
    public var line: Int

    /// True when the Move ring is in time mode: the export has no move-mode attribute, so this
    /// is inferred from a positive move-time goal (reference §2.5).
    public var isMoveTimeMode: Bool { (appleMoveTimeGoalMinutes ?? 0) > 0 }

    public init(
        date: CivilDate,
        activeEnergyBurnedKcal: Double? = nil,
        activeEnergyBurnedGoalKcal: Double? = nil,
        activeEnergyBurnedUnit: String? = nil,
        appleMoveTimeMinutes: Double? = nil,
        appleMoveTimeGoalMinutes: Double? = nil,
        appleExerciseTimeMinutes: Double? = nil,
        appleExerciseTimeGoalMinutes: Double? = nil,
        appleStandHours: Double? = nil,
        appleStandHoursGoal: Double? = nil,
        line: Int = 0
    ) {
        self.date = date
        self.activeEnergyBurnedKcal = activeEnergyBurnedKcal
        self.activeEnergyBurnedGoalKcal = activeEnergyBurnedGoalKcal
        self.activeEnergyBurnedUnit = activeEnergyBurnedUnit
        self.appleMoveTimeMinutes = appleMoveTimeMinutes
        self.appleMoveTimeGoalMinutes = appleMoveTimeGoalMinutes
        self.appleExerciseTimeMinutes = appleExerciseTimeMinutes
        self.appleExerciseTimeGoalMinutes = appleExerciseTimeGoalMinutes
        self.appleStandHours = appleStandHours
        self.appleStandHoursGoal = appleStandHoursGoal
        self.line = line
    }
}

/// A `<ClinicalRecord>` (FHIR resource reference; health data of the most sensitive kind).
public struct ClinicalRecord: Hashable, Sendable {
    public var type: String
    public var identifier: String?
    public var sourceName: String
    public var sourceURL: String?
    public var fhirVersion: String?
    public var receivedDate: Timestamp?
    public var resourceFilePath: String?
    public var line: Int

    public init(
        type: String,
        identifier: String? = nil,
        sourceName: String,
        sourceURL: String? = nil,
        fhirVersion: String? = nil,
        receivedDate: Timestamp? = nil,
        resourceFilePath: String? = nil,
        line: Int = 0
    ) {
        self.type = type
        self.identifier = identifier
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
        self.receivedDate = receivedDate
        self.resourceFilePath = resourceFilePath
        self.line = line
    }
}

/// One `<SensitivityPoint>` of an audiogram; levels in dBHL as written, frequency in Hz.
public struct SensitivityPoint: Hashable, Sendable {
    public var frequencyHz: Double
    public var leftEarDBHL: Double?
    public var rightEarDBHL: Double?

    public init(
        frequencyHz: Double,
        leftEarDBHL: Double? = nil,
        rightEarDBHL: Double? = nil
    ) {
        self.frequencyHz = frequencyHz
        self.leftEarDBHL = leftEarDBHL
        self.rightEarDBHL = rightEarDBHL
    }
}

/// An `<Audiogram>`.
public struct Audiogram: Sendable {
    public var sourceName: String
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var sensitivityPoints: [SensitivityPoint]
    public var metadata: [MetadataEntry]
    public var line: Int

    public init(
        sourceName: String,
        startDate: Timestamp,
        endDate: Timestamp,
        sensitivityPoints: [SensitivityPoint] = [],
        metadata: [MetadataEntry] = [],
        line: Int = 0
    ) {
        self.sourceName = sourceName
        self.startDate = startDate
        self.endDate = endDate
        self.sensitivityPoints = sensitivityPoints
        self.metadata = metadata
        self.line = line
    }
}

/// A batch of parsed elements, handed to the consumer every `ReaderOptions.batchSize` elements
/// (earlier once its records hold 8192 `InstantaneousBeatsPerMinute`, so that a run of HRV
/// records stays small) and once at the end. Order is document order within each array.
public struct ExportBatch: Sendable {
    /// Records, in document order. Records nested in a correlation are included, marked
    /// `isNestedInCorrelation` (and also carried in their `Correlation`).
    public var records: [Record] = []
    public var correlations: [Correlation] = []
    public var workouts: [Workout] = []
    public var activitySummaries: [ActivitySummary] = []
    public var clinicalRecords: [ClinicalRecord] = []
    public var audiograms: [Audiogram] = []

    public init() {}

    /// Number of elements in the batch.
    public var count: Int {
        records.count + correlations.count + workouts.count + activitySummaries.count
            + clinicalRecords.count + audiograms.count
    }

    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        correlations.removeAll(keepingCapacity: true)
        workouts.removeAll(keepingCapacity: true)
        activitySummaries.removeAll(keepingCapacity: true)
        clinicalRecords.removeAll(keepingCapacity: true)
        audiograms.removeAll(keepingCapacity: true)
    }
}

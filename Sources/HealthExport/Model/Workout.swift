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
/// of the parent workout's: never add them to the workout's own (docs/export-format.md §7.7).
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

/// A `<Workout>`.
public struct Workout: SampleElement, Sendable {
    /// `HKWorkoutActivityTypeRunning`, …
    public var activityType: String
    /// The workout's duration in minutes, pauses excluded (as the export gives it).
    public var durationMinutes: Double?
    /// Total distance in km: the `totalDistance` attribute, or where it is absent (current
    /// exports) the sum of the workout's `Distance…` statistics.
    public var totalDistanceKm: Double?
    /// Total active energy in kcal: `totalEnergyBurned`, or the `ActiveEnergyBurned` statistic.
    public var totalEnergyBurnedKcal: Double?
    /// Source, device and dates (read as the element's own: `startDate`).
    public var attributes: SampleAttributes
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
        attributes: SampleAttributes,
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
        self.attributes = attributes
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.routes = routes
        self.line = line
    }
}

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

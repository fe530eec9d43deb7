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
public struct WorkoutRoute: SampleElement, Sendable {
    /// Source, device and dates (read as the element's own: `startDate`).
    public var attributes: SampleAttributes
    public var metadata: [MetadataEntry]
    public var filePaths: [String]
    public var locations: [RouteLocation]

    public init(
        attributes: SampleAttributes,
        metadata: [MetadataEntry] = [],
        filePaths: [String] = [],
        locations: [RouteLocation] = []
    ) {
        self.attributes = attributes
        self.metadata = metadata
        self.filePaths = filePaths
        self.locations = locations
    }
}

/// The attributes that `Correlation`, `Workout` and `WorkoutRoute` share, as Apple's DTD
/// declares them for every sample element (docs/export-format.md §5): who wrote the sample and
/// over which time. (`Record` has the same attributes as fields of its own, for the reader's
/// speed: see `Record.line`.)
public struct SampleAttributes: Sendable {
    public var sourceName: String
    public var sourceVersion: String?
    /// The parsed `device` attribute, without its per-element memory address.
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp

    public init(
        sourceName: String, sourceVersion: String? = nil, device: Device? = nil, creationDate: Timestamp? = nil,
        startDate: Timestamp, endDate: Timestamp
    ) {
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// An element with `SampleAttributes`, whose attributes read as its own properties
/// (`workout.startDate` is `workout.attributes.startDate`).
@dynamicMemberLookup
public protocol SampleElement {
    var attributes: SampleAttributes { get set }
}

extension SampleElement {
    public subscript<T>(dynamicMember path: WritableKeyPath<SampleAttributes, T>) -> T {
        get { attributes[keyPath: path] }
        set { attributes[keyPath: path] = newValue }
    }
}

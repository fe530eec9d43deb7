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

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

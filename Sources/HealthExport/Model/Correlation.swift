/// A `<Correlation>` (blood pressure, food). Its `records` are duplicates of top-level records
/// and are marked `isNestedInCorrelation`; use them only to pair values.
public struct Correlation: SampleElement, Sendable {
    public var type: String
    /// Source, device and dates (read as the element's own: `startDate`).
    public var attributes: SampleAttributes
    public var metadata: [MetadataEntry]
    public var records: [Record]
    public var line: Int

    public init(
        type: String,
        attributes: SampleAttributes,
        metadata: [MetadataEntry] = [],
        records: [Record] = [],
        line: Int = 0
    ) {
        self.type = type
        self.attributes = attributes
        self.metadata = metadata
        self.records = records
        self.line = line
    }
}

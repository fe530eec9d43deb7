import HealthExport

/// What the merge did to one type and source (a row of `sources.csv`).
public struct SourceContribution: Hashable, Sendable {
    public var type: String
    public var sourceName: String
    public var sourceClass: SourceClass
    /// Samples of this type and source that touch the reported days (after exact-duplicate
    /// removal).
    public var samples: Int
    /// Plain sum of the source's samples in the period (prorated by time at its first and last
    /// local midnight).
    public var rawTotal: Double
    /// What the de-duplicated total counted from this source.
    public var countedTotal: Double
    public var unit: CanonicalUnit

    public init(
        type: String, sourceName: String, sourceClass: SourceClass, samples: Int, rawTotal: Double,
        countedTotal: Double, unit: CanonicalUnit
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceClass = sourceClass
        self.samples = samples
        self.rawTotal = rawTotal
        self.countedTotal = countedTotal
        self.unit = unit
    }
}

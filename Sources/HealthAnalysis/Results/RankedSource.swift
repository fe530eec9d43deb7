import HealthExport

/// A source with its rank in the priority order (0 = highest).
public struct RankedSource: Hashable, Sendable {
    public var name: String
    public var sourceClass: SourceClass
    public var rank: Int
    public init(name: String, sourceClass: SourceClass, rank: Int) {
        self.name = name
        self.sourceClass = sourceClass
        self.rank = rank
    }
}

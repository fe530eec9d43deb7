import HealthExport

/// The class of a source for the default priority order (reference §2.6, §5.4).
public enum SourceClass: String, Hashable, Sendable, Comparable {
    case manual, watch, phone, other
    public static func < (a: SourceClass, b: SourceClass) -> Bool { a.order < b.order }
    var order: Int {
        switch self {
        case .manual: return 0
        case .watch: return 1
        case .phone: return 2
        case .other: return 3
        }
    }
}

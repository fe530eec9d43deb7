/// One `<MetadataEntry key value>` child, as written (entities decoded).
public struct MetadataEntry: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// Well-known metadata keys (reference §2.5).
public enum MetadataKey {
    /// IANA zone where the sample was recorded: the only reliable local-time information.
    public static let timeZone = "HKTimeZone"
    /// `1` for a manual entry (top default source priority, reference §5.4).
    public static let wasUserEntered = "HKWasUserEntered"
    /// `0` not set, `1` sedentary, `2` active.
    public static let heartRateMotionContext = "HKMetadataKeyHeartRateMotionContext"
}

extension Array where Element == MetadataEntry {
    /// The value of the last entry with `key` (workout metadata can repeat keys, reference §2.3).
    public func value(for key: String) -> String? {
        last(where: { $0.key == key })?.value
    }
}

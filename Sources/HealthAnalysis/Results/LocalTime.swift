import HealthExport

/// An instant with the UTC offset of the report's zone at that instant, printed as local time
/// (`2025-10-02T06:31:00+02:00`, ISO 8601).
public struct LocalTime: Hashable, Sendable, CustomStringConvertible {
    public var secondsSince1970: Int64
    /// Seconds east of UTC in the report's zone at the instant (DST included).
    public var utcOffsetSeconds: Int

    public init(secondsSince1970: Int64, utcOffsetSeconds: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public var description: String {
        let local = secondsSince1970 + Int64(utcOffsetSeconds)
        let day = Int(floorDiv(local, 86_400))
        let sod = Int(local - Int64(day) * 86_400)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let o = abs(utcOffsetSeconds)
        return "\(CivilDate(daysSince1970: day))T\(two(sod / 3600)):\(two(sod / 60 % 60)):\(two(sod % 60))"
            + "\(utcOffsetSeconds < 0 ? "-" : "+")\(two(o / 3600)):\(two(o / 60 % 60))"
    }
}

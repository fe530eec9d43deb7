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

extension LocalTime {
    /// Parses `yyyy-MM-ddTHH:mm:ss±HH:mm` exactly, as `description` writes it; nil for any other
    /// shape, an impossible date or time, or an offset beyond ±18:00.
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 25, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
            u[19] == UInt8(ascii: "+") || u[19] == UInt8(ascii: "-"), u[22] == UInt8(ascii: ":"),
            let date = CivilDate(String(decoding: u[0..<10], as: UTF8.self))
        else { return nil }
        func two(_ i: Int) -> Int? {
            let a = Int(u[i]) - 48
            let b = Int(u[i + 1]) - 48
            guard (0...9).contains(a), (0...9).contains(b) else { return nil }
            return a * 10 + b
        }
        guard let h = two(11), let m = two(14), let s = two(17), let oh = two(20), let om = two(23),
            h < 24, m < 60, s < 60, om < 60, oh * 60 + om <= 18 * 60
        else { return nil }
        let offset = (u[19] == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
        let local = Int64(date.daysSince1970) * 86_400 + Int64(h * 3600 + m * 60 + s)
        self.init(secondsSince1970: local - Int64(offset), utcOffsetSeconds: offset)
    }
}

import Foundation

/// Proleptic Gregorian date arithmetic on day numbers (days since 1970-01-01), after Howard
/// Hinnant's `days_from_civil` / `civil_from_days`. Pure integer code, no Foundation.
enum Civil {
    static func days(year y0: Int, month m: Int, day d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func date(days z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses exactly `YYYY-MM-DD` into a day number; `nil` for any other shape.
    static func parse(_ text: String) -> Int? {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D,
            let y = digits(u[0..<4]), let m = digits(u[5..<7]), let d = digits(u[8..<10]),
            (1...12).contains(m), d >= 1, d <= daysInMonth(y, m)
        else { return nil }
        return days(year: y, month: m, day: d)
    }

    /// Parses `YYYY-MM-DD HH:MM[:SS]` into local seconds since 1970 (wall clock read as UTC).
    static func parseLocalDateTime(_ text: String) -> Int64? {
        let u = Array(text.utf8)
        guard u.count == 16 || u.count == 19, u[10] == 0x20, u[13] == 0x3A,
            let day = parse(String(decoding: u[0..<10], as: UTF8.self)),
            let h = digits(u[11..<13]), let mi = digits(u[14..<16]), h < 24, mi < 60
        else { return nil }
        var s = 0
        if u.count == 19 {
            guard u[16] == 0x3A, let sec = digits(u[17..<19]), sec < 60 else { return nil }
            s = sec
        }
        return Int64(day) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    }

    /// `YYYY-MM-DD`.
    static func format(days: Int) -> String {
        let (y, m, d) = date(days: days)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }
}

@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Converts between instants (UTC seconds) and local wall-clock time in one IANA zone, DST
/// aware. Local times are "local seconds": the wall clock read as if it were UTC.
///
/// Only plan-level times go through here (a few dozen per day); record timestamps are
/// printed with the fixed export offset by `OutputBuffer`, never with this zone.
struct ZoneClock: Sendable {
    let zone: TimeZone

    init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.zone = zone
    }

    /// The zone's UTC offset (seconds east) at `utc`.
    func offset(at utc: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))))
    }

    func localSeconds(at utc: Int64) -> Int64 { utc + offset(at: utc) }

    /// The instant at which the wall clock shows `local`. An ambiguous time (autumn fall-back)
    /// gives its first occurrence; a time inside a spring-forward gap is moved forward by the
    /// gap (as `Calendar` does), e.g. 02:30 on the Berlin spring day gives 03:30 CEST.
    func instant(localSeconds local: Int64) -> Int64 {
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        var best: Int64?
        for o in [before, after, offset(at: local - offset(at: local))] {
            let u = local - o
            if u + offset(at: u) == local { best = min(best ?? u, u) }
        }
        if let best { return best }
        return local - min(before, after)
    }

    /// The instant of local midnight starting `day` (days since 1970).
    func midnight(day: Int) -> Int64 { instant(localSeconds: Int64(day) * 86_400) }

    /// The instant of `hour:minute` local on `day`.
    func instant(day: Int, hour: Int, minute: Int, second: Int = 0) -> Int64 {
        instant(localSeconds: Int64(day) * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and fully determined by its seed.
public struct SplitMix64 {
    var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// An independent stream for one (seed, day, purpose) triple, so that every record type
    /// can be regenerated for any day in any order with identical values.
    init(seed: UInt64, day: Int, stream: UInt64) {
        var s = SplitMix64(state: seed ^ 0x9E37_79B9_7F4A_7C15)
        let a = s.next()
        var t = SplitMix64(state: a &+ UInt64(bitPattern: Int64(day)) &* 0xD1B5_4A32_D192_ED03)
        let b = t.next()
        self.state = b ^ (stream &* 0xA24B_AED4_963E_E407)
        _ = next()
    }

    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range` (Lemire's multiply-shift; the tiny bias is irrelevant here).
    @inline(__always)
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next().multipliedFullWidth(by: span).high)
    }

    @inline(__always)
    mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int64(next().multipliedFullWidth(by: span).high)
    }

    /// True with probability `p`.
    @inline(__always)
    mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < p
    }
}

/// An instant from an export, with the UTC offset it was printed with.
///
/// Exports print every date as `yyyy-MM-dd HH:mm:ss ±hhmm`. The instant is exact; the printed
/// offset is the *export-time* offset of the exporting phone, applied to every timestamp in
/// the file whatever the sample's real local time was (docs/export-format.md §9). Never bucket days by
/// the printed wall clock: convert `secondsSince1970` with an IANA zone instead.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC (the instant; exports have 1-second resolution).
    public var secondsSince1970: Int64
    /// The UTC offset the timestamp was printed with, in seconds east of UTC (`+0530` is 19 800).
    public var printedOffsetSeconds: Int32

    public init(secondsSince1970: Int64, printedOffsetSeconds: Int32 = 0) {
        self.secondsSince1970 = secondsSince1970
        self.printedOffsetSeconds = printedOffsetSeconds
    }

    /// Orders by instant only.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// Equal when the instants are equal; the printed offset does not take part.
    public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 == rhs.secondsSince1970
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(secondsSince1970) }

    /// The timestamp as the export prints it: `yyyy-MM-dd HH:mm:ss ±hhmm`, in the printed offset.
    public var description: String {
        let local = secondsSince1970 + Int64(printedOffsetSeconds)
        let c = CivilDate(daysSince1970: Int(local.floorDiv(86_400)))
        let sod = Int(local - local.floorDiv(86_400) * 86_400)
        let off = Int(printedOffsetSeconds)
        let sign = off < 0 ? "-" : "+"
        let a = abs(off)
        return "\(c) \(pad2(sod / 3600)):\(pad2(sod / 60 % 60)):\(pad2(sod % 60)) "
            + "\(sign)\(pad2(a / 3600))\(pad2(a / 60 % 60))"
    }
}

/// A proleptic Gregorian calendar date without a time or zone (`YYYY-MM-DD`), such as
/// `ActivitySummary.dateComponents` or a local day of a report.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSince1970` days after 1970-01-01 (negative before it).
    /// Uses Howard Hinnant's `civil_from_days` algorithm.
    public init(daysSince1970 z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    public var daysSince1970: Int { daysFromCivil(year, month, day) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let y = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return "\(y)-\(pad2(month))-\(pad2(day))"
    }

    /// Parses `YYYY-MM-DD` exactly; `nil` for any other shape or an impossible date.
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D,
            let y = decimal(u[0..<4]), let m = decimal(u[5..<7]), let d = decimal(u[8..<10]),
            (1...12).contains(m), d >= 1, d <= daysInMonth(y, m)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }
}

@inline(__always)
func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

@inline(__always)
func daysInMonth(_ y: Int, _ m: Int) -> Int {
    switch m {
    case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

private func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
    var v = 0
    for b in bytes {
        guard b >= 0x30, b <= 0x39 else { return nil }
        v = v * 10 + Int(b - 0x30)
    }
    return v
}

func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inline(__always)
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}

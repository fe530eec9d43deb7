// Decoding attribute values straight from the parser's bytes (no String, no DateFormatter).

/// Decodes the export's fixed-width date form `yyyy-MM-dd HH:mm:ss ±hhmm` (25 bytes) into an
/// exact instant plus the printed offset (docs/export-format.md §9). Returns nil for any other shape,
/// an impossible date or time, or an offset beyond ±18:00.
@inline(__always)
public func decodeTimestamp(_ p: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    guard p.count == 25, let b = p.baseAddress else { return nil }
    @inline(__always) func d(_ i: Int) -> Int { Int(b[i]) &- 48 }
    // Separators.
    guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20
    else { return nil }
    let sign = b[20]
    guard sign == 0x2B || sign == 0x2D else { return nil }
    // Every digit position must hold 0-9.
    @inline(__always) func isDigit(_ i: Int) -> Bool { b[i] &- 48 < 10 }
    guard isDigit(0), isDigit(1), isDigit(2), isDigit(3), isDigit(5), isDigit(6), isDigit(8), isDigit(9),
        isDigit(11), isDigit(12), isDigit(14), isDigit(15), isDigit(17), isDigit(18),
        isDigit(21), isDigit(22), isDigit(23), isDigit(24)
    else { return nil }
    let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
    let month = d(5) * 10 + d(6)
    let day = d(8) * 10 + d(9)
    let hour = d(11) * 10 + d(12)
    let minute = d(14) * 10 + d(15)
    let second = d(17) * 10 + d(18)
    let offH = d(21) * 10 + d(22)
    let offM = d(23) * 10 + d(24)
    guard month >= 1, month <= 12, day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60,
        second < 61, offH <= 18, offM < 60
    else { return nil }
    let offset = (offH * 3600 + offM * 60) * (sign == 0x2D ? -1 : 1)
    let local = Int64(daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return Timestamp(secondsSince1970: local - Int64(offset), printedOffsetSeconds: Int32(offset))
}

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]` as a Double. Exact (correctly rounded) for up
/// to 15 significant digits with a small exponent, the form exports use; longer or unusual
/// forms fall back to the C library's `strtod`. Returns nil for anything that is not a number
/// (including empty, `nan`, `inf`, and trailing garbage).
@inline(__always)
public func decodeDouble(_ p: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = p.count
    guard n > 0, let b = p.baseAddress else { return nil }
    var i = 0
    var negative = false
    if b[0] == 0x2D || b[0] == 0x2B {
        negative = b[0] == 0x2D
        i = 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var significant = 0
    var fractionDigits = 0
    var sawDigit = false
    while i < n, b[i] &- 48 < 10 {
        if mantissa != 0 || b[i] != 0x30 { significant += 1 }
        mantissa = mantissa &* 10 &+ UInt64(b[i] &- 48)
        digits += 1
        sawDigit = true
        i += 1
    }
    if i < n, b[i] == 0x2E {
        i += 1
        while i < n, b[i] &- 48 < 10 {
            if mantissa != 0 || b[i] != 0x30 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(b[i] &- 48)
            fractionDigits += 1
            digits += 1
            sawDigit = true
            i += 1
        }
    }
    guard sawDigit else { return nil }
    var exponent = 0
    if i < n, b[i] == 0x65 || b[i] == 0x45 {
        i += 1
        var expNegative = false
        if i < n, b[i] == 0x2D || b[i] == 0x2B {
            expNegative = b[i] == 0x2D
            i += 1
        }
        var expDigits = 0
        while i < n, b[i] &- 48 < 10 {
            if exponent < 10_000 { exponent = exponent * 10 + Int(b[i] &- 48) }
            expDigits += 1
            i += 1
        }
        guard expDigits > 0 else { return nil }
        if expNegative { exponent = -exponent }
    }
    guard i == n else { return nil }
    let e10 = exponent - fractionDigits
    // Clinger's fast path: the mantissa and the power of ten are both exact doubles.
    if significant <= 15, e10 >= -22, e10 <= 22 {
        var v = Double(mantissa)
        if e10 < 0 { v /= powersOfTen[-e10] } else if e10 > 0 { v *= powersOfTen[e10] }
        return negative ? -v : v
    }
    return slowDecodeDouble(p)
}

private let powersOfTen: [Double] = (0...22).map { e in
    var v = 1.0
    for _ in 0..<e { v *= 10 }
    return v
}

private func slowDecodeDouble(_ p: UnsafeBufferPointer<UInt8>) -> Double? {
    guard p.count < 128 else { return nil }
    var buffer = [CChar](repeating: 0, count: p.count + 1)
    for i in 0..<p.count { buffer[i] = CChar(bitPattern: p[i]) }
    return buffer.withUnsafeBufferPointer { bp -> Double? in
        let (v, end) = Platform.strtod(bp.baseAddress!)
        guard let end, end - UnsafeMutablePointer(mutating: bp.baseAddress!) == p.count, v.isFinite else {
            return nil
        }
        return v
    }
}

/// Decodes timestamps exactly like `decodeTimestamp`, remembering the last date and offset:
/// consecutive records mostly share both, so the common case skips the validation and the
/// calendar arithmetic of the date part and decodes only the time of day.
struct TimestampDecoder {
    private var dateKey: (UInt64, UInt16) = (0, 0)  // bytes 0..<10, "YYYY-MM-DD"
    private var dateDays: Int64 = 0
    private var offsetKey: (UInt32, UInt8) = (0, 0)  // bytes 20..<25, "±hhmm"
    private var offsetSeconds: Int32 = 0
    private var hasDate = false
    private var hasOffset = false

    @inline(__always)
    mutating func decode(_ p: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard p.count == 25, let b = p.baseAddress else { return nil }
        let raw = UnsafeRawPointer(b)
        let date = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let offset = (raw.loadUnaligned(fromByteOffset: 20, as: UInt32.self), b[24])
        guard hasDate, date == dateKey, hasOffset, offset == offsetKey else {
            // Slow path: full validation, then remember this date and offset.
            guard let t = decodeTimestamp(p) else { return nil }
            let sod = secondsOfDay(b)!
            let local = t.secondsSince1970 + Int64(t.printedOffsetSeconds)
            dateKey = date
            dateDays = (local - Int64(sod)) / 86_400 * 86_400
            hasDate = true
            offsetKey = offset
            offsetSeconds = t.printedOffsetSeconds
            hasOffset = true
            return t
        }
        guard b[10] == 0x20, b[19] == 0x20, let sod = secondsOfDay(b) else { return nil }
        return Timestamp(
            secondsSince1970: dateDays + Int64(sod) - Int64(offsetSeconds), printedOffsetSeconds: offsetSeconds)
    }

    /// `HH:mm:ss` at bytes 11..<19, validated; nil when malformed. The eight bytes are checked
    /// as one word: the two colons, then every other byte a digit ('0'...'9' is 0x30...0x39: high
    /// nibble 3, low nibble at most 9, so adding 6 to the low nibble does not carry).
    @inline(__always)
    private func secondsOfDay(_ b: UnsafePointer<UInt8>) -> Int? {
        let x = UInt64(littleEndian: UnsafeRawPointer(b + 11).loadUnaligned(as: UInt64.self))
        // Bytes 0-1 hour, 2 ':', 3-4 minute, 5 ':', 6-7 second (byte k is bits 8k..<8k+8).
        let colonMask: UInt64 = 0x0000_FF00_00FF_0000
        let digitHigh: UInt64 = 0xF0F0_00F0_F000_F0F0
        let digitLow: UInt64 = 0x0F0F_000F_0F00_0F0F
        guard x & colonMask == 0x0000_3A00_003A_0000, x & digitHigh == 0x3030_0030_3000_3030,
            ((x & digitLow) &+ 0x0606_0006_0600_0606) & digitHigh == 0
        else { return nil }
        let n = x & digitLow
        let h = Int(n & 0xF) * 10 + Int(n >> 8 & 0xF)
        let m = Int(n >> 24 & 0xF) * 10 + Int(n >> 32 & 0xF)
        let s = Int(n >> 48 & 0xF) * 10 + Int(n >> 56 & 0xF)
        guard h < 24, m < 60, s < 61 else { return nil }
        return h * 3600 + m * 60 + s
    }
}

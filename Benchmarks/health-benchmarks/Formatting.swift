// Number formatting without Foundation: the benchmark's own code does not use it. (It is
// linked in all the same, through SyntheticExport, and adds about 6 MB to every child's RSS
// floor; the table prints that floor.)

import HealthExport

/// `x` with exactly `digits` decimals, rounded half away from zero: `fixed(3.14159, 2)` is "3.14".
func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    guard scaled < 9.0e18 else { return String(x) }
    let n = UInt64(scaled)
    let whole = n / UInt64(scale)
    var text = (x < 0 && n != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let fraction = String(n % UInt64(scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
}

/// An integer with thousands separators: 1234567 → "1,234,567".
func grouped(_ n: Int64) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

/// `text` padded with spaces on the left (right-aligned) or right (left-aligned) to `width` characters.
func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

/// A JSON string literal for `s`.
func jsonString(_ s: String) -> String { JSONText.quoted(s) }

/// A JSON number for `x` (`null` when not finite), with up to `digits` decimals.
func jsonNumber(_ x: Double, _ digits: Int = 6) -> String {
    guard x.isFinite else { return "null" }
    var s = fixed(x, digits)
    if s.contains(".") {
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
    }
    return s
}

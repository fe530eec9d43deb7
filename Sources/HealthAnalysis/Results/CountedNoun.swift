/// How the notes, report.md and the command line say a count: `1 day`, `1,800 days`.
///
/// The count is grouped by threes with commas (as report.md prints every count), and the noun is
/// singular for exactly 1 and plural otherwise (`0 days`), so no text says "1 day(s)" or "1 days".
///
/// - Parameters:
///   - n: the count.
///   - noun: the singular noun, `day`.
///   - plural: the plural when it is not the noun with an `s` (`people`, `entries`).
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(grouped(n)) \(n == 1 ? noun : plural ?? noun + "s")"
}

/// A whole number grouped by threes with commas: `1234567` → `1,234,567`, `-1200` → `-1,200`.
public func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return n < 0 ? "-" + out : out
}

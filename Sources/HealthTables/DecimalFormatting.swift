// Locale-independent number formatting for reports: `.` decimal point, no exponent, a fixed
// number of decimals, optional thousands grouping. Foundation's formatters are not used, so no
// setting of the machine (locale, LC_NUMERIC) can change a report.

/// Formats a number with a fixed number of decimals and never in scientific notation.
///
/// The value is first turned into its shortest round-trip decimal digits (Swift's own
/// `description`), and those digits are rounded half away from zero. Rounding the decimal
/// digits rather than the binary value gives what a reader expects: `1.005` with 2 decimals
/// is `1.01`, not the `1.00` that the binary value 1.00499999999999989… would round to.
package struct DecimalFormat: Hashable, Sendable {
    /// Digits after the decimal point (before trimming).
    package var decimals: Int
    /// Removes trailing zeros of the fraction, and the point when nothing is left
    /// (`12.50` → `12.5`, `12.00` → `12`).
    package var trimsTrailingZeros: Bool = false
    /// Inserted between groups of three integer digits (`12,345`); nil for none.
    package var groupingSeparator: Character? = nil
    /// Written before positive non-zero values (`+12.3`), for changes.
    package var showsPlusSign: Bool = false

    package init(
        decimals: Int, trimsTrailingZeros: Bool = false, groupingSeparator: Character? = nil,
        showsPlusSign: Bool = false
    ) {
        self.decimals = decimals
        self.trimsTrailingZeros = trimsTrailingZeros
        self.groupingSeparator = groupingSeparator
        self.showsPlusSign = showsPlusSign
    }

    /// The text of `value`, or nil when it is NaN or infinite (a report writes those as no value).
    ///
    /// A value that rounds to zero is written without a sign (`-0.001` with 2 decimals is `0.00`).
    /// Reports format tens of thousands of numbers (every chart coordinate), so the digits are
    /// rounded and written in stack buffers, without an array per step; `referenceString` is the
    /// same rule written plainly, and the tests compare the two.
    package func string(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        precondition(decimals >= 0, "negative decimals")
        if let text = scaledString(value) { return text }
        var description = value.magnitude.description
        return description.withUTF8 { text in
            // `description` is at most 24 bytes (`2.2250738585072014e-308`): every digit fits.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + 1) { digits in
                format(value, description: text, digits: digits)
            }
        }
    }

    /// Most values take a shorter way, without their decimal digits: the magnitude times
    /// 10^decimals, rounded to the nearest integer. When that product is below 10^9 its error
    /// (the value's shortest digits differ from the binary value by at most 2^-53 of it, the
    /// product adds as much again) is below 2.3 × 10^-7, so unless the product lies within 10^-6
    /// of a half, both round to the same integer. Nil for the other values (and more than 6
    /// decimals): they take the digit way.
    private func scaledString(_ value: Double) -> String? {
        guard decimals <= 6 else { return nil }
        let unit = Self.units[decimals]
        let scaled = value.magnitude * Double(unit)
        guard scaled < 1e9, abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else { return nil }
        let n = Int(scaled.rounded(.toNearestOrAwayFromZero))
        var fraction = n % unit
        var fractionCount = decimals
        if trimsTrailingZeros {
            while fractionCount > 0, fraction % 10 == 0 {
                fraction /= 10
                fractionCount -= 1
            }
        }
        var separator = groupingSeparator.map { String($0) } ?? ""
        return separator.withUTF8 { sep in
            // Sign, 10 integer digits (n < 10^9 + 1), 3 separators, point, 6 decimals.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18 + 3 * sep.count) { out in
                var count = 0
                if n != 0 {
                    if value < 0 {
                        out[count] = UInt8(ascii: "-")
                        count += 1
                    } else if showsPlusSign {
                        out[count] = UInt8(ascii: "+")
                        count += 1
                    }
                }
                var integer = n / unit
                var digits = 1
                var power = 1
                while integer / power >= 10 {
                    power *= 10
                    digits += 1
                }
                for i in 0..<digits {
                    if !sep.isEmpty, i > 0, (digits - i) % 3 == 0 {
                        for b in sep {
                            out[count] = b
                            count += 1
                        }
                    }
                    out[count] = UInt8(ascii: "0") + UInt8(integer / power)
                    count += 1
                    integer %= power
                    power /= 10
                }
                if fractionCount > 0 {
                    out[count] = UInt8(ascii: ".")
                    count += fractionCount
                    for i in 0..<fractionCount {
                        out[count - i] = UInt8(ascii: "0") + UInt8(fraction % 10)
                        fraction /= 10
                    }
                    count += 1
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
            }
        }
    }

    private static let units = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// Writes `value`, whose shortest round-trip digits are `text`, with the format's decimals,
    /// grouping and sign, rounding half away from zero on the decimal digits. One function on purpose
    /// (about 130 lines): the CSV writer's hot path, rounding and writing into one buffer
    /// without an intermediate String; the cases (no fraction, carries into a new digit,
    /// grouping) share its positions.
    private func format(
        _ value: Double, description text: UnsafeBufferPointer<UInt8>, digits: UnsafeMutableBufferPointer<UInt8>
    ) -> String {
        // The digits of `description` as in `decimalDigits`, one slot kept free in front for a
        // carry out of the first digit (so digit i is at digits[1 + i]).
        var count = 0
        var pointIndex: Int? = nil
        var exponent = 0
        var k = 0
        while k < text.count {
            let byte = text[k]
            k += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits[1 + count] = byte - UInt8(ascii: "0")
                count += 1
            case UInt8(ascii: "."):
                pointIndex = count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var sign = 1
                while k < text.count {
                    let e = text[k]
                    k += 1
                    if e == UInt8(ascii: "-") {
                        sign = -1
                    } else if e >= UInt8(ascii: "0"), e <= UInt8(ascii: "9") {
                        exponent = exponent * 10 + Int(e - UInt8(ascii: "0"))
                    }
                }
                exponent *= sign
            default:
                break
            }
        }
        var pointPosition = (pointIndex ?? count) + exponent
        var first = 1  // index in `digits` of digit 0
        while count > 0, digits[first] == 0 {
            first += 1
            count -= 1
            pointPosition -= 1
        }
        while count > 0, digits[first + count - 1] == 0 { count -= 1 }
        if count == 0 { pointPosition = 0 }
        // Round half away from zero after the first `kept` digits (see `referenceString`).
        let kept = pointPosition + decimals
        if kept < count {
            if kept < 0 {
                count = 0
            } else if kept == 0 {
                if digits[first] >= 5 {
                    digits[first] = 1
                    count = 1
                    pointPosition += 1
                } else {
                    count = 0
                }
            } else {
                let roundsUp = digits[first + kept] >= 5
                count = kept
                if roundsUp {
                    var i = kept - 1
                    while i >= 0, digits[first + i] == 9 {
                        digits[first + i] = 0
                        i -= 1
                    }
                    if i >= 0 {
                        digits[first + i] += 1
                    } else {
                        first -= 1  // the free slot in front (first was at least 1)
                        digits[first] = 1
                        count += 1
                        pointPosition += 1
                    }
                }
            }
        }
        @inline(__always) func digit(_ i: Int) -> UInt8 { i >= 0 && i < count ? digits[first + i] : 0 }
        // Integer digits: positions 0 ..< pointPosition, without leading zeros (at least one).
        var integerStart = 0
        let integerEnd = max(pointPosition, 0)
        while integerEnd - integerStart > 1, digit(integerStart) == 0 { integerStart += 1 }
        let integerCount = max(integerEnd - integerStart, 1)
        // Fraction digits: positions pointPosition ..< pointPosition + decimals, trimmed if asked.
        var fractionCount = decimals
        if trimsTrailingZeros {
            while fractionCount > 0, digit(pointPosition + fractionCount - 1) == 0 { fractionCount -= 1 }
        }
        var isZero = true
        for i in integerStart..<integerEnd where digit(i) != 0 { isZero = false }
        for i in 0..<fractionCount where digit(pointPosition + i) != 0 { isZero = false }

        var separator = groupingSeparator.map { String($0) } ?? ""
        return separator.withUTF8 { sep in
            let separators = sep.isEmpty ? 0 : (integerCount - 1) / 3
            let capacity = 1 + integerCount + separators * sep.count + 1 + fractionCount
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out in
                var n = 0
                if !isZero {
                    if value < 0 {
                        out[n] = UInt8(ascii: "-")
                        n += 1
                    } else if showsPlusSign {
                        out[n] = UInt8(ascii: "+")
                        n += 1
                    }
                }
                if integerEnd - integerStart <= 0 {
                    out[n] = UInt8(ascii: "0")
                    n += 1
                } else {
                    for i in 0..<integerCount {
                        if !sep.isEmpty, i > 0, (integerCount - i) % 3 == 0 {
                            for b in sep {
                                out[n] = b
                                n += 1
                            }
                        }
                        out[n] = UInt8(ascii: "0") + digit(integerStart + i)
                        n += 1
                    }
                }
                if fractionCount > 0 {
                    out[n] = UInt8(ascii: ".")
                    n += 1
                    for i in 0..<fractionCount {
                        out[n] = UInt8(ascii: "0") + digit(pointPosition + i)
                        n += 1
                    }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
            }
        }
    }

    /// `string(_:)` written plainly with arrays: the rule the fast version must follow exactly
    /// (the tests compare both on many values).
    package func referenceString(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        precondition(decimals >= 0, "negative decimals")
        var (digits, pointPosition) = Self.decimalDigits(value.magnitude)
        // Digit i has the place value 10^(pointPosition - 1 - i); keep the first `kept` digits
        // and round half away from zero on the digit after them.
        let kept = pointPosition + decimals
        if kept < digits.count {
            if kept < 0 {
                digits = []  // below half of the last kept place: rounds to zero
            } else if kept == 0 {
                if digits[0] >= 5 {
                    digits = [1]  // one unit of the last kept place
                    pointPosition += 1
                } else {
                    digits = []
                }
            } else {
                let roundsUp = digits[kept] >= 5
                digits.removeSubrange(kept...)
                if roundsUp {
                    var i = kept - 1
                    while i >= 0, digits[i] == 9 {
                        digits[i] = 0
                        i -= 1
                    }
                    if i >= 0 {
                        digits[i] += 1
                    } else {
                        digits.insert(1, at: 0)
                        pointPosition += 1
                    }
                }
            }
        }
        // Split into integer and fraction digits around the point.
        var integerDigits: [UInt8] = []
        if pointPosition > 0 {
            for i in 0..<pointPosition { integerDigits.append(i < digits.count ? digits[i] : 0) }
        }
        var fractionDigits: [UInt8] = []
        for i in 0..<decimals {
            let index = pointPosition + i
            fractionDigits.append(index >= 0 && index < digits.count ? digits[index] : 0)
        }
        while integerDigits.count > 1, integerDigits[0] == 0 { integerDigits.removeFirst() }
        if integerDigits.isEmpty { integerDigits = [0] }
        if trimsTrailingZeros {
            while fractionDigits.last == 0 { fractionDigits.removeLast() }
        }
        let isZero = !integerDigits.contains { $0 != 0 } && !fractionDigits.contains { $0 != 0 }

        var text = ""
        if !isZero {
            if value < 0 {
                text.append("-")
            } else if showsPlusSign {
                text.append("+")
            }
        }
        for (i, digit) in integerDigits.enumerated() {
            if let separator = groupingSeparator, i > 0, (integerDigits.count - i) % 3 == 0 {
                text.append(separator)
            }
            text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + digit))
        }
        if !fractionDigits.isEmpty {
            text.append(".")
            for digit in fractionDigits {
                text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + digit))
            }
        }
        return text
    }

    /// The shortest round-trip decimal digits of a finite, non-negative `value` and the position
    /// of the decimal point: the value is `0.d₀d₁d₂… × 10^pointPosition`, with no leading or
    /// trailing zero digits. Zero is `([], 0)`.
    package static func decimalDigits(_ value: Double) -> (digits: [UInt8], pointPosition: Int) {
        // `description` prints `123.456`, `1000000000.0`, `1e-07` or `1.5e+300`.
        var digits: [UInt8] = []
        var pointIndex: Int? = nil
        var exponent = 0
        var bytes = value.description.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."):
                pointIndex = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var sign = 1
                while let e = bytes.next() {
                    if e == UInt8(ascii: "-") {
                        sign = -1
                    } else if e >= UInt8(ascii: "0"), e <= UInt8(ascii: "9") {
                        exponent = exponent * 10 + Int(e - UInt8(ascii: "0"))
                    }
                }
                exponent *= sign
            default:
                break
            }
        }
        var pointPosition = (pointIndex ?? digits.count) + exponent
        while digits.first == 0 {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        return digits.isEmpty ? ([], 0) : (digits, pointPosition)
    }
}

/// `value` with `decimals` decimals and `,` between groups of three integer digits
/// (`12,277.5`), as report.md's tables write numbers; `—` for NaN or infinity. For the other
/// Markdown outputs of the package (the cohort report).
package func groupedDecimal(_ value: Double, decimals: Int) -> String {
    DecimalFormat(decimals: decimals, groupingSeparator: ",").string(value) ?? "—"
}

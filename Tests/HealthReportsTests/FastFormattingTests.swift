import Testing

@testable import HealthReports
@testable import HealthTables

/// The report's number formatting and SVG escaping take shortcuts (stack buffers, a byte scan)
/// for speed; these tests pin them to the plain rules they replace.
@Suite("Fast formatting agrees with the plain rules")
struct FastFormattingTests {
    /// Every option combination the reports use, and a few more.
    static let formats: [DecimalFormat] = [0, 1, 2, 3, 4, 6, 7].flatMap { decimals in
        [false, true].flatMap { trims in
            [nil, ",", "’"].flatMap { (separator: Character?) in
                [false, true].map { plus in
                    DecimalFormat(
                        decimals: decimals, trimsTrailingZeros: trims, groupingSeparator: separator,
                        showsPlusSign: plus)
                }
            }
        }
    }

    /// Values around every rounding boundary: halves, carries through nines, tiny and huge
    /// magnitudes, exponents in `description` (`1e-05`, `1.5e+300`), signed zeros.
    static let edgeValues: [Double] = [
        0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.05, 0.049, 0.95, 0.995, 9.995, 99.95, 999.95, 999_999.5, -999_999.5,
        1.005, 1.0049999, 0.125, 0.0004, 0.00049, 0.0005, 1e-5, 1e-7, 5e-8, 1e9, 1e15, 1e16, 1e21, 1.5e300,
        Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, 123.456,
        -1234.5678, 12_345.678_9, 0.1 + 0.2, 1 / 3.0, 2 / 3.0, 4_503_599_627_370_495.5, 9_007_199_254_740_992,
    ]

    @Test func agreesWithTheReferenceOnEdgeValues() {
        for format in Self.formats {
            for v in Self.edgeValues + Self.edgeValues.map({ -$0 }) {
                #expect(format.string(v) == format.referenceString(v), "\(format) \(v)")
            }
        }
    }

    @Test func agreesWithTheReferenceOnManyValues() {
        // A fixed xorshift sequence: values of every magnitude from 1e-9 to 1e12, and values
        // with few decimals (chart coordinates such as 123.45).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        for _ in 0..<2000 {
            let mantissa = Double(next() % 1_000_000_007) / 1_000_000_007
            let exponent = Int(next() % 22) - 9
            var v = mantissa * pow10(exponent)
            if next() % 3 == 0 { v = (v * 100).rounded() / 100 }
            if next() % 2 == 0 { v = -v }
            for format in Self.formats {
                #expect(format.string(v) == format.referenceString(v), "\(format) \(v)")
            }
        }
    }

    /// Values at (and one binary step around) the halves of the last decimal, where the scaled
    /// shortcut must leave the value to the digit rule, and scaled magnitudes around 10^9.
    @Test func agreesWithTheReferenceAtHalves() {
        var values: [Double] = []
        for decimals in 0...6 {
            let unit = pow10(decimals)
            for m in stride(from: 0, to: 3000, by: 7) {
                let v = (Double(m) + 0.5) / unit
                values += [v, v.nextUp, v.nextDown]
            }
            for e in [1e9, 1e9 - 0.5, 1e9 + 0.5, 999_999_999.4999] { values.append(e / unit) }
        }
        for format in Self.formats {
            for v in values + values.map({ -$0 }) {
                #expect(format.string(v) == format.referenceString(v), "\(format) \(v)")
            }
        }
    }

    @Test(
        arguments: [
            // 1234567.891 with 2 decimals: "1234567.89", grouped by 3 from the point: 1,234,567.89.
            (1_234_567.891, 2, false, ",", false, "1,234,567.89"),
            // 999.996 with 2 decimals: the third decimal 6 rounds up, 9s carry: 1000.00 → "1,000.00".
            (999.996, 2, false, ",", false, "1,000.00"),
            // 12.50 trimmed: "12.5"; 12.00 trimmed: "12".
            (12.5, 2, true, nil, false, "12.5"),
            (12.0, 2, true, nil, false, "12"),
            // +3.2 with the plus sign; 0.04 with one decimal rounds to 0.0: no sign.
            (3.2, 1, false, nil, true, "+3.2"),
            (0.04, 1, false, nil, true, "0.0"),
            // A multi-byte separator (U+2019, 3 bytes in UTF-8) between groups.
            (1_234_567, 0, false, "’", false, "1’234’567"),
        ] as [(Double, Int, Bool, Character?, Bool, String)])
    func formatsWorkedExamples(
        value: Double, decimals: Int, trims: Bool, separator: Character?, plus: Bool, expected: String
    ) {
        let format = DecimalFormat(
            decimals: decimals, trimsTrailingZeros: trims, groupingSeparator: separator, showsPlusSign: plus)
        #expect(format.string(value) == expected)
        #expect(format.referenceString(value) == expected)
    }

    @Test func escapesOnlyTheFourCharacters() {
        #expect(SVGCanvas.escape("Alex’s Apple Watch: 1,234 steps") == "Alex’s Apple Watch: 1,234 steps")
        #expect(SVGCanvas.escape("") == "")
        #expect(SVGCanvas.escape("a & b < c > \"d\"") == "a &amp; b &lt; c &gt; &quot;d&quot;")
        // "&" followed by a combining accent is one character that is not "&": left as it is,
        // as the character-by-character rule always did.
        #expect(SVGCanvas.escape("&\u{301}<") == "&\u{301}&lt;")
    }
}

private func pow10(_ e: Int) -> Double {
    var v = 1.0
    for _ in 0..<abs(e) { v *= 10 }
    return e < 0 ? 1 / v : v
}

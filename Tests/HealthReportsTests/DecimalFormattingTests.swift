import Testing

@testable import HealthReports
@testable import HealthTables

@Suite("Number formatting")
struct DecimalFormattingTests {
    @Test(arguments: [
        (1e-7, 3, "0.000"),
        (1e-7, 7, "0.0000001"),
        (1e-7, 9, "0.000000100"),
        (1e9, 0, "1000000000"),
        (1e9, 2, "1000000000.00"),
        (1.5e300, 0, "15" + String(repeating: "0", count: 299)),
        (1e21, 0, "1000000000000000000000"),
        (123.456, 2, "123.46"),
        (123.454, 2, "123.45"),
        (0.125, 2, "0.13"),
        (1.005, 2, "1.01"),
        (0.5, 0, "1"),
        (0.4, 0, "0"),
        (0.05, 1, "0.1"),
        (0.04, 1, "0.0"),
        (0.0004, 1, "0.0"),
        (9.995, 2, "10.00"),
        (999.96, 1, "1000.0"),
        (99_999.5, 0, "100000"),
        (-2.5, 0, "-3"),
        (-1234.5678, 1, "-1234.6"),
        (-0.0001, 2, "0.00"),
        (-0.0, 1, "0.0"),
        (0, 3, "0.000"),
        (42, 0, "42"),
        (Double.leastNonzeroMagnitude, 2, "0.00"),
    ])
    func writesFixedDecimalsWithoutExponent(value: Double, decimals: Int, expected: String) {
        #expect(DecimalFormat(decimals: decimals).string(value) == expected)
    }

    @Test(arguments: [
        (12.0, 1, "12"),
        (12.50, 2, "12.5"),
        (0.001, 1, "0"),
        (1e9, 3, "1000000000"),
        (1e-7, 8, "0.0000001"),
        (-0.04, 1, "0"),
        (100.0, 2, "100"),
    ])
    func trimsTrailingZerosButNeverIntegerZeros(value: Double, decimals: Int, expected: String) {
        #expect(DecimalFormat(decimals: decimals, trimsTrailingZeros: true).string(value) == expected)
    }

    @Test(arguments: [
        (0.0, 0, "0"),
        (999.0, 0, "999"),
        (1000.0, 0, "1,000"),
        (1_234_567.891, 1, "1,234,567.9"),
        (-1234.0, 0, "-1,234"),
        (999_999.6, 0, "1,000,000"),
    ])
    func groupsThousandsOnlyWhenAsked(value: Double, decimals: Int, expected: String) {
        #expect(DecimalFormat(decimals: decimals, groupingSeparator: ",").string(value) == expected)
    }

    @Test func usesAPointAsDecimalSeparatorWhateverTheValue() {
        // Four decimals always, a point between, no grouping, no exponent (1e-3 is 0.0010).
        let expected: [(Double, String)] = [
            (0.5, "0.5000"), (1234.25, "1234.2500"), (1e-3, "0.0010"), (98_765.4321, "98765.4321"),
        ]
        for (value, text) in expected {
            #expect(DecimalFormat(decimals: 4).string(value) == text)
        }
    }

    @Test func signsChangesWhenAsked() {
        let format = DecimalFormat(decimals: 1, showsPlusSign: true)
        #expect(format.string(12.34) == "+12.3")
        #expect(format.string(-12.34) == "-12.3")
        #expect(format.string(0.01) == "0.0")
    }

    @Test func hasNoTextForNaNOrInfinity() {
        #expect(DecimalFormat(decimals: 1).string(.nan) == nil)
        #expect(DecimalFormat(decimals: 1).string(.infinity) == nil)
        #expect(DecimalFormat(decimals: 1).string(-.infinity) == nil)
    }

    @Test func findsTheShortestDigitsAndThePointPosition() {
        #expect(DecimalFormat.decimalDigits(123.456) == ([1, 2, 3, 4, 5, 6], 3))
        #expect(DecimalFormat.decimalDigits(1e-7) == ([1], -6))
        #expect(DecimalFormat.decimalDigits(1e9) == ([1], 10))
        #expect(DecimalFormat.decimalDigits(0) == ([], 0))
    }
}

import HealthExport
import Testing

@Suite("Dates decoded from bytes")
struct TimestampDecodingTests {
    // 2024-03-10 is day 19 792 after 1970-01-01, so its midnight UTC is 19 792 × 86 400 = 1 710 028 800.
    // Local 12:00:00 is 1 710 028 800 + 43 200 = 1 710 072 000 at offset 0; the instant is
    // local − offset.
    @Test(arguments: [
        ("2024-03-10 12:00:00 +0530", Int64(1_710_072_000 - 19_800), Int32(19_800)),  // 06:30 UTC
        ("2024-03-10 12:00:00 -0000", Int64(1_710_072_000), Int32(0)),
        ("2024-03-10 12:00:00 +1400", Int64(1_710_072_000 - 50_400), Int32(50_400)),  // 22:00 UTC the day before
        ("2024-02-29 23:59:59 -1200", Int64(1_709_294_399), Int32(-43_200)),  // leap day, west of UTC
        ("1969-12-31 23:00:00 -0100", Int64(0), Int32(-3600)),  // the epoch itself
    ])
    func decodesInstantAndPrintedOffset(text: String, seconds: Int64, offset: Int32) {
        let t = ts(text)
        #expect(t.secondsSince1970 == seconds)
        #expect(t.printedOffsetSeconds == offset)
        #expect(t.description == text.replacingOccurrences(of: "-0000", with: "+0000"))
    }

    @Test(arguments: [
        "2024-13-01 00:00:00 +0000", "2023-02-29 00:00:00 +0000", "2024-01-01 24:00:00 +0000",
        "2024-01-01 00:60:00 +0000", "2024-01-01T00:00:00 +0000", "2024-01-01 00:00:00 0000",
        "2024-01-01 00:00:00 +0000 ", "2024-01-01 00:00:00", "", "2024-01-0a 00:00:00 +0000",
        "2024-01-01 00:00:00 +1900",
    ])
    func rejectsAnythingElse(text: String) {
        var bytes = Array(text.utf8)
        let t = bytes.withUnsafeMutableBufferPointer { decodeTimestamp(UnsafeBufferPointer($0)) }
        #expect(t == nil)
    }

    @Test func civilDatesRoundTripThroughDayNumbers() {
        #expect(CivilDate(daysSince1970: 19_792) == CivilDate(year: 2024, month: 3, day: 10))
        #expect(CivilDate(year: 2024, month: 3, day: 10).daysSince1970 == 19_792)
        #expect(CivilDate(daysSince1970: -1).description == "1969-12-31")
        #expect(CivilDate("2024-02-29") == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate("2023-02-29") == nil)
        #expect(CivilDate("2024-2-29") == nil)
    }
}

@Suite("Numbers decoded from bytes")
struct NumberDecodingTests {
    func decode(_ s: String) -> Double? {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBufferPointer { decodeDouble(UnsafeBufferPointer($0)) }
    }

    @Test(arguments: [
        ("0.12", 0.12), ("74", 74.0), ("-1", -1.0), ("+2.5", 2.5), ("48.74499999999999", 48.74499999999999),
        ("0.4971749504535062", 0.4971749504535062), ("1e3", 1000.0), ("2.5E-3", 0.0025), (".5", 0.5), ("5.", 5.0),
        ("180.15588000005408", 180.15588000005408), ("0", 0.0),
    ])
    func decodesLikeTheStandardLibrary(text: String, expected: Double) {
        #expect(decode(text) == expected)
        #expect(decode(text) == Double(text))
    }

    @Test(arguments: ["", "ten", "1.2.3", "1e", "-", ".", "nan", "inf", "1,5", " 1", "1 "])
    func rejectsNonNumbers(text: String) {
        #expect(decode(text) == nil)
    }
}

@Suite("Device strings")
struct DeviceTests {
    @Test func dropsTheMemoryAddressAndSplitsKnownKeys() {
        let d = Device(
            parsing:
                "<<HKDevice: 0x283a4c460>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>"
        )
        #expect(d.name == "Apple Watch")
        #expect(d.manufacturer == "Apple Inc.")
        #expect(d.model == "Watch")
        #expect(d.hardware == "Watch6,7")  // the comma inside the value is not a separator
        #expect(d.software == "10.2")
        #expect(d.isAppleWatch)
        #expect(!d.isIPhone)
        // Another address, same device.
        #expect(
            d
                == Device(
                    parsing:
                        "<<HKDevice: 0x9999>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>"
                ))
    }

    @Test func keepsCreationDateAndAccessoryKeys() {
        let d = Device(
            parsing:
                "<<HKDevice: 0x8c5183a80>, name:Polar H10, 1234, manufacturer:Polar Electro Oy, model:H10, firmware:3.1.1, localIdentifier:A1B2, creation date:2025-08-14 23:49:07 +0000>"
        )
        #expect(d.name == "Polar H10, 1234")  // ", 1234" is not followed by a known key
        #expect(d.model == "H10")
        #expect(d.creationDate == "2025-08-14 23:49:07 +0000")
        #expect(
            d.otherFields == [
                MetadataEntry(key: "firmware", value: "3.1.1"), MetadataEntry(key: "localIdentifier", value: "A1B2"),
            ])
        #expect(!d.isAppleWatch)
    }

    @Test func acceptsAPrefixWithoutAddressAndKeepsUnknownShapesAsName() {
        let d = Device(parsing: "<<HKDevice:>, name:iPhone, model:iPhone, hardware:iPhone14,2>")
        #expect(d.name == "iPhone")
        #expect(d.isIPhone)
        let raw = Device(parsing: "Some Scale v2")
        #expect(raw.name == "Some Scale v2")
        #expect(raw.model == nil)
    }
}

@Suite("Unit conversion")
struct UnitConversionTests {
    @Test(arguments: [
        ("Cal", 100.0, CanonicalUnit.kilocalorie, 100.0),
        ("kJ", 418.4, .kilocalorie, 100.0),
        ("mi", 1.0, .kilometre, 1.609344),
        ("m", 1500.0, .kilometre, 1.5),
        ("ft", 1000.0, .kilometre, 0.3048),
        ("yd", 100.0, .kilometre, 0.09144),
        ("s", 90.0, .minute, 1.5),
        ("hr", 2.0, .minute, 120.0),
        ("%", 0.97, .fraction, 0.97),
        ("lb", 100.0, .kilogram, 45.359237),
        ("degF", 212.0, .degreeCelsius, 100.0),
        ("mmol<180.15588000005408>/L", 5.5, .milligramPerDecilitre, 99.0858),
        ("mmol<180.1558800000541>/l", 1.0, .milligramPerDecilitre, 18.0156),
    ])
    func convertsToTheCanonicalUnit(unit: String, value: Double, canonical: CanonicalUnit, expected: Double) throws {
        let c = try #require(UnitConversion.forUnit(unit))
        #expect(c.unit == canonical)
        #expect(abs(c.apply(value) - expected) < 1e-9 * max(1, abs(expected)))
    }

    @Test func unknownUnitsAreNil() {
        #expect(UnitConversion.forUnit("furlong") == nil)
        #expect(UnitConversion.forUnit("") == nil)
    }
}

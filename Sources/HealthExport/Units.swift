// HKUnit strings seen in exports and their conversion to one canonical unit per dimension
// (docs/export-format.md §11). The original unit string always stays available on `Quantity`.

/// The canonical unit of a dimension. Every quantity the reader hands on is in one of these.
public enum CanonicalUnit: String, Hashable, Sendable, CaseIterable {
    /// Counts: steps, flights, strokes, BMI (`count`).
    case count
    /// Energy: kilocalories (from `kcal`, `Cal`, `kJ`, `J`, `cal`).
    case kilocalorie = "kcal"
    /// Length: kilometres (from `km`, `m`, `cm`, `mm`, `mi`, `ft`, `in`, `yd`).
    case kilometre = "km"
    /// Time: minutes (from `min`, `s`, `ms`, `hr`, `d`).
    case minute = "min"
    /// Ratio: a fraction 0–1 (`%` values are already fractions in exports, docs/export-format.md §11).
    case fraction
    /// Mass: kilograms (from `kg`, `g`, `mg`, `mcg`, `lb`, `st`, `oz`).
    case kilogram = "kg"
    /// Volume: litres (from `L`, `mL`, `dL`, `fl_oz_us`, `cup_us`).
    case litre = "L"
    /// Temperature: degrees Celsius (from `degC`, `degF`, `K`).
    case degreeCelsius = "degC"
    /// Frequency of events: per minute (`count/min`, `count/s`).
    case countPerMinute = "count/min"
    case hertz = "Hz"
    case millimetreOfMercury = "mmHg"
    case decibelSoundPressureLevel = "dBASPL"
    case decibelHearingLevel = "dBHL"
    /// Speed: km/h (from `km/hr`, `mi/hr`, `m/s`, `ft/s`).
    case kilometrePerHour = "km/hr"
    case watt = "W"
    /// VO2 max (`mL/min·kg`).
    case millilitrePerMinuteKilogram = "mL/min·kg"
    /// METs (`kcal/hr·kg`).
    case kilocaloriePerHourKilogram = "kcal/hr·kg"
    /// Blood glucose: mg/dL (from `mg/dL` and the molar `mmol<…>/L`, × 18.0156).
    case milligramPerDecilitre = "mg/dL"
    case internationalUnit = "IU"
    case microsiemens = "mcS"
    case litrePerMinute = "L/min"
}

/// How to turn a value written in one HKUnit string into its canonical unit:
/// `canonical = value × factor + offset`.
public struct UnitConversion: Hashable, Sendable {
    public var unit: CanonicalUnit
    public var factor: Double
    public var offset: Double

    public init(_ unit: CanonicalUnit, factor: Double = 1, offset: Double = 0) {
        self.unit = unit
        self.factor = factor
        self.offset = offset
    }

    @inline(__always)
    public func apply(_ value: Double) -> Double { value * factor + offset }

    /// The conversion for an HKUnit string as written in an export, or nil for a unit the
    /// reader does not know (such a record is skipped and counted as a diagnostic).
    public static func forUnit(_ unit: String) -> UnitConversion? {
        if let c = table[unit] { return c }
        // The glucose molar unit prints its molar mass with varying digits: mmol<180.15588000005408>/L.
        if unit.hasPrefix("mmol<"), unit.hasSuffix(">/L") || unit.hasSuffix(">/l") {
            return UnitConversion(.milligramPerDecilitre, factor: 18.0156)
        }
        return nil
    }

    private static let table: [String: UnitConversion] = {
        let mile = 1.609344
        let foot = 0.0003048
        let inch = 0.0000254
        let yard = 0.0009144
        let pound = 0.45359237
        var t: [String: UnitConversion] = [
            "count": .init(.count),
            "kcal": .init(.kilocalorie), "Cal": .init(.kilocalorie),
            "cal": .init(.kilocalorie, factor: 0.001),
            "kJ": .init(.kilocalorie, factor: 1 / 4.184), "J": .init(.kilocalorie, factor: 1 / 4184),
            "km": .init(.kilometre), "m": .init(.kilometre, factor: 0.001),
            "cm": .init(.kilometre, factor: 0.00001), "mm": .init(.kilometre, factor: 0.000001),
            "mi": .init(.kilometre, factor: mile), "ft": .init(.kilometre, factor: foot),
            "in": .init(.kilometre, factor: inch), "yd": .init(.kilometre, factor: yard),
            "min": .init(.minute), "s": .init(.minute, factor: 1.0 / 60),
            "ms": .init(.minute, factor: 1.0 / 60_000), "hr": .init(.minute, factor: 60),
            "d": .init(.minute, factor: 1440),
            "%": .init(.fraction),
            "kg": .init(.kilogram), "g": .init(.kilogram, factor: 0.001),
            "mg": .init(.kilogram, factor: 1e-6), "mcg": .init(.kilogram, factor: 1e-9),
            "lb": .init(.kilogram, factor: pound), "st": .init(.kilogram, factor: pound * 14),
            "oz": .init(.kilogram, factor: pound / 16),
            "L": .init(.litre), "mL": .init(.litre, factor: 0.001), "dL": .init(.litre, factor: 0.1),
            "fl_oz_us": .init(.litre, factor: 0.0295735295625),
            "cup_us": .init(.litre, factor: 0.2365882365),
            "degC": .init(.degreeCelsius), "degF": .init(.degreeCelsius, factor: 5.0 / 9, offset: -32 * 5.0 / 9),
            "K": .init(.degreeCelsius, offset: -273.15),
            "count/min": .init(.countPerMinute), "count/s": .init(.countPerMinute, factor: 60),
            "Hz": .init(.hertz),
            "mmHg": .init(.millimetreOfMercury),
            "dBASPL": .init(.decibelSoundPressureLevel), "dBHL": .init(.decibelHearingLevel),
            "km/hr": .init(.kilometrePerHour), "mi/hr": .init(.kilometrePerHour, factor: mile),
            "m/s": .init(.kilometrePerHour, factor: 3.6), "ft/s": .init(.kilometrePerHour, factor: 1.09728),
            "W": .init(.watt),
            "mL/min·kg": .init(.millilitrePerMinuteKilogram), "mL/(kg·min)": .init(.millilitrePerMinuteKilogram),
            "kcal/hr·kg": .init(.kilocaloriePerHourKilogram), "kcal/(kg·hr)": .init(.kilocaloriePerHourKilogram),
            "mg/dL": .init(.milligramPerDecilitre),
            "IU": .init(.internationalUnit),
            "mcS": .init(.microsiemens),
            "L/min": .init(.litrePerMinute),
        ]
        // Spellings with a hyphen instead of the middle dot have been seen (docs/export-format.md §7.5).
        t["mL/min-kg"] = t["mL/min·kg"]
        t["kcal/hr-kg"] = t["kcal/hr·kg"]
        return t
    }()
}

// The typed model of an Apple Health export (docs/export-format.md §7). Every value type here is what the
// reader hands its consumer; strings that repeat across records (type identifiers, source
// names, units) share one storage per distinct value, so copying a record allocates nothing.

/// A measured quantity: the value converted to the canonical unit of its dimension, and the
/// value and unit string as the export wrote them.
public struct Quantity: Hashable, Sendable {
    /// The value in `unit` (for example kcal for `Cal`, `kcal`, `kJ`; a fraction for `%`).
    public var value: Double
    /// The canonical unit of the value's dimension.
    public var unit: CanonicalUnit
    /// The value as written in the export.
    public var originalValue: Double
    /// The HKUnit string as written in the export (`Cal`, `mi`, `mmol<180.15588000005408>/L`).
    public var originalUnit: String

    public init(value: Double, unit: CanonicalUnit, originalValue: Double, originalUnit: String) {
        self.value = value
        self.unit = unit
        self.originalValue = originalValue
        self.originalUnit = originalUnit
    }
}

/// A sleep stage (`HKCategoryValueSleepAnalysis…`, docs/export-format.md §13). `…Asleep` (before iOS 16)
/// and `…AsleepUnspecified` (iOS 16+) are the same raw value and both map to `.asleepUnspecified`.
public enum SleepStage: String, Hashable, Sendable, CaseIterable {
    case inBed, asleepUnspecified, awake, asleepCore, asleepDeep, asleepREM

    /// True for the stages that count as asleep (Core, Deep, REM, Unspecified).
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: return true
        case .inBed, .awake: return false
        }
    }
}

/// The value of a category record (`HKCategoryValue…` string, docs/export-format.md §13), typed where the
/// reference lists its meaning. Unknown strings (new in each iOS) and bare integers are kept.
public enum CategoryValue: Hashable, Sendable {
    case sleepAnalysis(SleepStage)
    /// `HKCategoryValueAppleStandHourStood` (true) or `…Idle` (false).
    case appleStandHour(stood: Bool)
    /// `HKCategoryValueNotApplicable`.
    case notApplicable
    /// Any other value string, as written (severities, menstrual flow, audio events, …).
    case other(String)
}

/// What a `Record` carries in its `value` attribute.
public enum RecordValue: Hashable, Sendable {
    /// An `HKQuantityTypeIdentifier…` record with a numeric value and a unit.
    case quantity(Quantity)
    /// An `HKCategoryTypeIdentifier…` record.
    case category(CategoryValue)
    /// A record without a value (or a value kind the reader does not model, kept as text).
    case none(String?)
}

/// One beat of an HRV record's `HeartRateVariabilityMetadataList` (docs/export-format.md §7.4).
public struct InstantaneousBeatsPerMinute: Hashable, Sendable {
    public var bpm: Double
    /// Locale-formatted time of day in the *true local time* of the recording, as written
    /// (`6:14:48.94 PM`, `17:07:00,29`); it has no date and can differ from the parent record's
    /// printed clock by the DST delta.
    public var time: String
    public init(bpm: Double, time: String) {
        self.bpm = bpm
        self.time = time
    }
}

/// A `<Record>`: one HealthKit sample.
public struct Record: Sendable {
    /// The line of the record's start tag in the export file (1-based).
    ///
    /// (First, so that the synthesized memberwise initializer, which the reader uses, differs
    /// from the public one below: an initializer written out in the struct cost the reader a
    /// copy of the whole record, a retain and a release of each of its references, per record.)
    public var line: Int
    /// The type identifier, e.g. `HKQuantityTypeIdentifierStepCount`.
    public var type: String
    /// A small integer naming `type` within one read (equal ids ⇔ equal types); for fast
    /// per-type tables in consumers. Not stable across reads.
    public var typeSymbol: Int32
    public var value: RecordValue
    /// `sourceName` exactly as written (U+2019 and `'` stay distinct, docs/export-format.md §8).
    public var sourceName: String
    /// A small integer naming `sourceName` within one read, like `typeSymbol`.
    public var sourceSymbol: Int32
    public var sourceVersion: String?
    /// The parsed `device` attribute, without its per-record memory address.
    public var device: Device?
    public var creationDate: Timestamp?
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var metadata: [MetadataEntry]
    /// The beats of an Apple Watch HRV record; empty otherwise.
    public var heartbeats: [InstantaneousBeatsPerMinute]
    /// True for a record inside a `<Correlation>`: Apple's DTD says such records also appear as
    /// top-level records, so they must never be added to totals (docs/export-format.md §7.6).
    public var isNestedInCorrelation: Bool
}

extension Record {
    /// A record with the given fields (symbols -1: not from a read).
    public init(
        type: String, typeSymbol: Int32 = -1, value: RecordValue, sourceName: String,
        sourceSymbol: Int32 = -1, sourceVersion: String? = nil, device: Device? = nil,
        creationDate: Timestamp? = nil, startDate: Timestamp, endDate: Timestamp,
        metadata: [MetadataEntry] = [], heartbeats: [InstantaneousBeatsPerMinute] = [],
        isNestedInCorrelation: Bool = false, line: Int = 0
    ) {
        self.type = type
        self.typeSymbol = typeSymbol
        self.value = value
        self.sourceName = sourceName
        self.sourceSymbol = sourceSymbol
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.heartbeats = heartbeats
        self.isNestedInCorrelation = isNestedInCorrelation
        self.line = line
    }

    /// The quantity, for a quantity record.
    public var quantity: Quantity? {
        if case .quantity(let q) = value { return q }
        return nil
    }

    /// The category value, for a category record.
    public var categoryValue: CategoryValue? {
        if case .category(let c) = value { return c }
        return nil
    }

    /// The `HKTimeZone` metadata value (an IANA zone name), when present.
    public var timeZoneIdentifier: String? { metadata.value(for: MetadataKey.timeZone) }

    /// The record's source, device and dates, as a `Correlation` or `Workout` holds them.
    public var attributes: SampleAttributes {
        SampleAttributes(
            sourceName: sourceName, sourceVersion: sourceVersion, device: device, creationDate: creationDate,
            startDate: startDate, endDate: endDate)
    }

    /// True when `HKWasUserEntered` is `1` (a manual entry).
    public var wasUserEntered: Bool { metadata.value(for: MetadataKey.wasUserEntered) == "1" }
}

extension Array where Element == Record {
    /// Appends a top-level record built in place by the memberwise initializer (see
    /// `Record.line`), without metadata or heartbeats: for a replay of stored records
    /// (`report --db`), which adds those to the last element afterwards.
    package mutating func appendRecord(
        line: Int, type: String, typeSymbol: Int32, value: RecordValue, sourceName: String, sourceSymbol: Int32,
        sourceVersion: String?, device: Device?, creationDate: Timestamp?, startDate: Timestamp, endDate: Timestamp
    ) {
        append(
            Record(
                line: line, type: type, typeSymbol: typeSymbol, value: value, sourceName: sourceName,
                sourceSymbol: sourceSymbol, sourceVersion: sourceVersion, device: device, creationDate: creationDate,
                startDate: startDate, endDate: endDate, metadata: [], heartbeats: [], isNestedInCorrelation: false))
    }
}

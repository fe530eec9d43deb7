// A STAND-IN for the package's synthetic generator (module SyntheticExport, not on main yet).
// Delete this file once `writeSyntheticExport` calls `SyntheticExport.write` (GenerateInput.swift).
//
// It writes what the benchmark needs and nothing more: an export shaped like a real one
// (XML declaration, a well-formed internal DOCTYPE, ExportDate, Me, then Record elements on one
// line each with one-space indentation, some with MetadataEntry children, device strings with
// escaped `<<HKDevice: 0x…>>`), about 0.87 MB per day, deterministic, without control
// characters. Its values mean nothing: it has no "true values" to test against.

/// The stand-in generator.
enum StandInExport {
    static func write(days: Int, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        // The sink lives in `out`, which does not outlive this call.
        try withoutActuallyEscaping(sink) { try write(days: days, out: ByteSink($0)) }
    }

    private static func write(days: Int, out: ByteSink) throws {
        var out = out
        var rng = SplitMix64(seed: 42)
        let firstDay = daysFromCivil(2021, 1, 1)
        out.append(prolog)
        out.append(" <ExportDate value=\"")
        out.append(dateBytes(firstDay + days))
        out.append(" 12:00:00 +0200\"/>\n")
        out.append(me)
        for n in 0..<days {
            let day = dateBytes(firstDay + n)
            let watch = Array(
                ("&lt;&lt;HKDevice: 0x" + String(0x3_0000_0000 + rng.next(below: 1 << 28), radix: 16)
                    + "&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2&gt;")
                    .utf8)
            let phone = Array(
                ("&lt;&lt;HKDevice: 0x" + String(0x2_8000_0000 + rng.next(below: 1 << 28), radix: 16)
                    + "&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.2.1&gt;")
                    .utf8)
            let r = RecordWriter(day: day)

            // Heart rate every 2.5-5.5 minutes, with the motion context.
            var t = rng.next(below: 200)
            while t < 86_000 {
                r.begin(&out, &rng, "HKQuantityTypeIdentifierHeartRate", watchName, "10.2", watch, "count/min", t, t)
                out.appendInt(55 + rng.next(below: 86))
                out.append("\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"")
                out.appendInt(rng.next(below: 3))
                out.append("\"/>\n </Record>\n")
                t += 150 + rng.next(below: 181)
            }
            // Active energy about once a minute from 07:00 to 23:00, basal energy half as often.
            t = 7 * 3600
            while t < 23 * 3600 {
                let e = t + 30 + rng.next(below: 31)
                r.begin(
                    &out, &rng, "HKQuantityTypeIdentifierActiveEnergyBurned", watchName, "10.2", watch, "kcal", t, e)
                out.appendMillis(10 + rng.next(below: 7990))
                out.append("\"/>\n")
                if rng.next(below: 2) == 0 {
                    r.begin(
                        &out, &rng, "HKQuantityTypeIdentifierBasalEnergyBurned", watchName, "10.2", watch, "kcal", t, e)
                    out.appendMillis(500 + rng.next(below: 1000))
                    out.append("\"/>\n")
                }
                t = e + 1 + rng.next(below: 30)
            }
            // Steps and walking distance, from the watch and the phone.
            for (name, version, device) in [(watchName, "10.2" as StaticString, watch), (phoneName, "17.2.1", phone)] {
                t = 7 * 3600 + rng.next(below: 601)
                while t < 22 * 3600 {
                    let e = t + 60 + rng.next(below: 541)
                    let steps = 10 + rng.next(below: 891)
                    r.begin(&out, &rng, "HKQuantityTypeIdentifierStepCount", name, version, device, "count", t, e)
                    out.appendInt(steps)
                    out.append("\"/>\n")
                    r.begin(
                        &out, &rng, "HKQuantityTypeIdentifierDistanceWalkingRunning", name, version, device, "km", t, e)
                    out.appendMillis(steps * 3 / 4)
                    out.append("\"/>\n")
                    t = e + 60 + rng.next(below: 841)
                }
            }
            // Stand time and stand hours, 07:00 to 23:00.
            for hour in 7..<23 {
                let s = hour * 3600 + rng.next(below: 3001)
                r.begin(
                    &out, &rng, "HKQuantityTypeIdentifierAppleStandTime", watchName, "10.2", watch, "min", s, s + 300)
                out.appendInt(1 + rng.next(below: 5))
                out.append("\"/>\n")
                r.begin(
                    &out, &rng, "HKCategoryTypeIdentifierAppleStandHour", watchName, "10.2", watch, nil, hour * 3600,
                    hour * 3600 + 3599)
                out.append(
                    rng.next(below: 4) == 0 ? "HKCategoryValueAppleStandHourIdle" : "HKCategoryValueAppleStandHourStood"
                )
                out.append("\"/>\n")
            }
            // Exercise minutes.
            for i in 0..<(10 + rng.next(below: 51)) {
                let s = 8 * 3600 + i * 600
                r.begin(
                    &out, &rng, "HKQuantityTypeIdentifierAppleExerciseTime", watchName, "10.2", watch, "min", s, s + 60)
                out.append("1\"/>\n")
            }
            // A night of sleep stages, with the time zone.
            var s = rng.next(below: 3601)
            for stage in ["InBed", "AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "AsleepCore", "Awake"] {
                let e = s + 600 + rng.next(below: 3401)
                if e > 86_399 { break }
                r.begin(&out, &rng, "HKCategoryTypeIdentifierSleepAnalysis", watchName, "10.2", watch, nil, s, e)
                out.append("HKCategoryValueSleepAnalysis")
                out.append(Array(stage.utf8))
                out.append("\">\n  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Amsterdam\"/>\n </Record>\n")
                s = e
            }
            // Body mass, entered by hand on the phone.
            r.begin(&out, &rng, "HKQuantityTypeIdentifierBodyMass", phoneName, "17.2.1", nil, "kg", 25_000, 25_000)
            out.appendInt(60 + rng.next(below: 20))
            out.append(".")
            out.appendInt(rng.next(below: 10))
            out.append("\">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Record>\n")
        }
        out.append("</HealthData>\n")
        try out.flush()
        if let error = out.error { throw error }
    }

    static let watchName = Array("Alex’s Apple Watch".utf8)
    static let phoneName = Array("Alex’s iPhone".utf8)

    static let prolog: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
          value         CDATA #IMPLIED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">

        """

    static let me: StaticString = """
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>

        """

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01), after Howard Hinnant's civil_from_days.
    static func dateBytes(_ days: Int) -> [UInt8] {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int) -> [UInt8] { [UInt8(48 + v / 10), UInt8(48 + v % 10)] }
        return Array(String(y).utf8) + [0x2D] + two(m) + [0x2D] + two(d)
    }

    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }
}

/// Writes the attributes every record has, up to the opening quote of `value`.
private struct RecordWriter {
    let day: [UInt8]

    func begin(
        _ out: inout ByteSink, _ rng: inout SplitMix64, _ type: StaticString, _ source: [UInt8],
        _ version: StaticString,
        _ device: [UInt8]?, _ unit: StaticString?, _ start: Int, _ end: Int
    ) {
        out.append(" <Record type=\"")
        out.append(type)
        out.append("\" sourceName=\"")
        out.append(source)
        out.append("\" sourceVersion=\"")
        out.append(version)
        if let device {
            out.append("\" device=\"")
            out.append(device)
        }
        if let unit {
            out.append("\" unit=\"")
            out.append(unit)
        }
        out.append("\" creationDate=\"")
        timestamp(&out, min(end + 5 + rng.next(below: 86), 86_399))
        out.append("\" startDate=\"")
        timestamp(&out, start)
        out.append("\" endDate=\"")
        timestamp(&out, end)
        out.append("\" value=\"")
    }

    private func timestamp(_ out: inout ByteSink, _ seconds: Int) {
        out.append(day)
        let h = seconds / 3600
        let m = seconds / 60 % 60
        let s = seconds % 60
        out.append([
            0x20, UInt8(48 + h / 10), UInt8(48 + h % 10), 0x3A, UInt8(48 + m / 10), UInt8(48 + m % 10), 0x3A,
            UInt8(48 + s / 10), UInt8(48 + s % 10),
        ])
        out.append(" +0200")
    }
}

/// Bytes collected and handed to the sink about 1 MiB at a time.
private struct ByteSink {
    var bytes: [UInt8] = []
    let sink: (UnsafeRawBufferPointer) throws -> Void
    var error: Error?

    init(_ sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        bytes.reserveCapacity((1 << 20) + 65_536)
    }

    mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        if bytes.count >= 1 << 20 { try? flush() }
    }

    mutating func append(_ a: [UInt8]) {
        bytes.append(contentsOf: a)
        if bytes.count >= 1 << 20 { try? flush() }
    }

    mutating func appendInt(_ v: Int) {
        append(Array(String(v).utf8))
    }

    /// `v / 1000` with three decimals.
    mutating func appendMillis(_ v: Int) {
        appendInt(v / 1000)
        let f = v % 1000
        append([0x2E, UInt8(48 + f / 100), UInt8(48 + f / 10 % 10), UInt8(48 + f % 10)])
    }

    mutating func flush() throws {
        guard error == nil, !bytes.isEmpty else { return }
        do {
            try bytes.withUnsafeBytes { try sink($0) }
        } catch {
            self.error = error
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A small deterministic generator (SplitMix64).
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in `0..<n`.
    mutating func next(below n: Int) -> Int { Int(next() % UInt64(n)) }
}

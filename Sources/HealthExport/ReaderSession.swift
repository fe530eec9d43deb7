import CHealthSAX

/// Read access to one start tag's attributes, as byte ranges inside the parser's buffer.
/// Valid only during the start callback.
struct Attributes {
    let present: UInt64
    let base: UnsafePointer<hsax_value>

    static let offset = MemoryLayout<hsax_start>.offset(of: \hsax_start.attributes)!

    init(_ start: UnsafePointer<hsax_start>) {
        present = start.pointee.present
        base = UnsafeRawPointer(start).advanced(by: Attributes.offset).assumingMemoryBound(to: hsax_value.self)
    }

    @inline(__always) func has(_ a: hsax_attribute_id) -> Bool { present & (1 << UInt64(a.rawValue)) != 0 }

    @inline(__always) func bytes(_ a: hsax_attribute_id) -> UnsafeBufferPointer<UInt8>? {
        guard has(a) else { return nil }
        let v = base[Int(a.rawValue)]
        return UnsafeBufferPointer(start: v.bytes, count: Int(v.length))
    }

    @inline(__always) func raw(_ a: hsax_attribute_id) -> hsax_value? {
        guard has(a) else { return nil }
        return base[Int(a.rawValue)]
    }

    func string(_ a: hsax_attribute_id) -> String? {
        bytes(a).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The state of one parse. Not thread-safe; lives exactly as long as `ExportReader.read`.
final class ReaderSession {
    var parser: OpaquePointer?
    let inputName: String
    let batchSize: Int
    let deliver: (ExportBatch) throws -> Void

    @exclusivity(unchecked) var batch = ExportBatch()
    /// `InstantaneousBeatsPerMinute` entries in `batch`: an HRV record carries ~70 (24 bytes
    /// each), so a batch of 4096 such records would hold 7 MB per parsing thread.
    @exclusivity(unchecked) var batchBeats = 0
    /// A batch is delivered early once it holds this many beats (about 200 KB).
    static let batchBeatLimit = 8192
    @exclusivity(unchecked) var failure: Error?
    @exclusivity(unchecked) var elementsRead = 0
    @exclusivity(unchecked) var sawRoot = false
    /// True once the root element's end tag was read: a later error is content after it.
    @exclusivity(unchecked) var rootEnded = false

    // Header.
    @exclusivity(unchecked) var exportDate: Timestamp?
    /// One decoder per date attribute of a record (start, end, creation), so that each one's
    /// remembered date and offset is the previous record's same attribute.
    @exclusivity(unchecked) var dates = TimestampDecoder()
    @exclusivity(unchecked) var endDates = TimestampDecoder()
    @exclusivity(unchecked) var creationDates = TimestampDecoder()
    @exclusivity(unchecked) var locale: String?
    @exclusivity(unchecked) var me: Me?
    /// The segments of the last `ExportDate` and `Me` (parallel reads keep the last in document order).
    @exclusivity(unchecked) var exportDateSegment = Int32.min
    @exclusivity(unchecked) var meSegment = Int32.min
    @exclusivity(unchecked) var timeZoneCounts: [String: Int] = [:]
    /// The latest plausible instant: a day after `ExportDate`, or after the time of the read
    /// until an `ExportDate` is seen (see `plausible`).
    @exclusivity(unchecked) var latestPlausible = Platform.now + 86_400 {
        didSet { boundByExportDate = true }
    }
    /// True once `latestPlausible` comes from an `ExportDate` (this session's or, in a parallel
    /// read, the first segment's).
    @exclusivity(unchecked) var boundByExportDate = false
    /// See `ExportSummary.rejectedRecordStarts`.
    @exclusivity(unchecked) var rejectedStarts: Set<Int64> = []

    // Counts.
    @exclusivity(unchecked) var knownElementCounts = [Int](repeating: 0, count: Int(HSAX_EL_COUNT.rawValue))
    @exclusivity(unchecked) var unknownElementCounts: [UnsafeRawPointer: Int] = [:]
    @exclusivity(unchecked) var diagnostics: [DiagnosticKey: (count: Int, firstLine: Int)] = [:]
    /// Names longer than `HSAX_NAME_CAP` bytes, which the glue interns cut, by what they name.
    @exclusivity(unchecked) var cutNames: [String: CutNames] = [:]

    // Interned strings and what was decided about each, indexed by symbol id.
    @exclusivity(unchecked) var symbols: [String] = []
    @exclusivity(unchecked) var unitState: [UInt8] = []  // 0 not looked at, 1 known, 2 unknown
    @exclusivity(unchecked) var unitConversions: [UnitConversion] = []
    @exclusivity(unchecked) var devices: [Device?] = []
    @exclusivity(unchecked) var categoryValues: [CategoryValue?] = []
    @exclusivity(unchecked) var typeKinds: [UInt8] = []  // 0 not looked at, else typeKind

    // Element stack (element id per depth) and the elements being built.
    @exclusivity(unchecked) var stack: [Int32] = []
    /// Index in `batch.records` of the record whose children are being read, or -1. Records are
    /// appended at their start tag and completed in place (no copy of the struct per record).
    @exclusivity(unchecked) var recordIndex = -1
    @exclusivity(unchecked) var correlation: Correlation?
    @exclusivity(unchecked) var workout: Workout?
    @exclusivity(unchecked) var activity: WorkoutActivity?
    @exclusivity(unchecked) var event: WorkoutEvent?
    @exclusivity(unchecked) var route: WorkoutRoute?
    @exclusivity(unchecked) var audiogram: Audiogram?

    struct DiagnosticKey: Hashable {
        var kind: Diagnostic.Kind
        var detail: String
    }

    init(inputName: String, batchSize: Int, deliver: @escaping (ExportBatch) throws -> Void) {
        self.inputName = inputName
        self.batchSize = max(1, batchSize)
        self.deliver = deliver
        batch.records.reserveCapacity(self.batchSize)
    }

    // MARK: Symbols

    /// Interning slots: the glue compares with the value last interned through the same slot
    /// before hashing (consecutive records mostly repeat these).
    enum Slot: Int32 {
        case type = 0
        case source, unit, sourceVersion, device, metadataKey, categoryValue, other
    }

    @inline(__always)
    func symbol(_ v: hsax_value, _ slot: Slot = .other) -> Int32 {
        var isNew: Int32 = 0
        let id = hsax_intern_cached(parser, slot.rawValue, v.bytes, v.length, &isNew)
        if isNew != 0 {
            if isNew & 2 != 0 { noteCut(slot, length: Int(v.length)) }
            guard isNew & 1 != 0 else { return id }
            if isNew & 2 != 0 {  // the name as kept (cut), not as read
                var length: Int32 = 0
                let kept = hsax_interned(parser, id, &length)
                symbols.append(String(decoding: UnsafeBufferPointer(start: kept, count: Int(length)), as: UTF8.self))
            } else {
                symbols.append(
                    String(decoding: UnsafeBufferPointer(start: v.bytes, count: Int(v.length)), as: UTF8.self))
            }
            unitState.append(0)
            unitConversions.append(UnitConversion(.count))
            devices.append(nil)
            categoryValues.append(nil)
            typeKinds.append(0)
        }
        return id
    }

    /// Counts a name the glue kept cut (its first `HSAX_NAME_CAP` bytes and a hash): the
    /// record, the bytes left out, the longest, the first line (docs/export-format.md §8).
    @inline(never)
    func noteCut(_ slot: Slot, length: Int) {
        let what: String
        switch slot {
        case .type: what = "type identifiers"
        case .source: what = "source names"
        case .unit: what = "units"
        case .sourceVersion: what = "source versions"
        case .device: what = "device strings"
        case .metadataKey: what = "metadata keys"
        case .categoryValue: what = "category values"
        case .other: what = "names"
        }
        let line = Int(hsax_parser_current_line(parser))
        var c = cutNames[what] ?? CutNames(records: 0, bytesLeftOut: 0, longest: 0, firstLine: line)
        c.records += 1
        c.bytesLeftOut += Int64(length - Int(HSAX_NAME_CAP))
        c.longest = max(c.longest, length)
        c.firstLine = min(c.firstLine, line)
        cutNames[what] = c
    }

    @inline(__always)
    func conversion(_ unit: Int32) -> UnitConversion? {
        let i = Int(unit)
        if unitState[i] == 0 {
            if let c = UnitConversion.forUnit(symbols[i]) {
                unitConversions[i] = c
                unitState[i] = 1
            } else {
                unitState[i] = 2
            }
        }
        return unitState[i] == 1 ? unitConversions[i] : nil
    }

    /// The parsed device for a raw `device` attribute. The memory address is cut off in bytes
    /// before interning, so one device is parsed once however many records name it.
    func device(_ v: hsax_value) -> Device? {
        guard v.length > 0, let p = v.bytes else { return nil }
        let n = Int(v.length)
        var start = 0
        var end = n
        // "<<HKDevice:" then up to the first '>' (the address), then ", "; drop the final '>'.
        if n > 11, p[0] == 0x3C, p[1] == 0x3C, p[2] == 0x48, p[3] == 0x4B, p[4] == 0x44, p[5] == 0x65,
            p[6] == 0x76, p[7] == 0x69, p[8] == 0x63, p[9] == 0x65, p[10] == 0x3A
        {
            var i = 11
            while i < n, p[i] != 0x3E { i += 1 }
            i += 1
            if i + 1 < n, p[i] == 0x2C, p[i + 1] == 0x20 { i += 2 }
            if end > i, p[end - 1] == 0x3E { end -= 1 }
            start = min(i, end)
        }
        let s = symbol(hsax_value(bytes: p + start, length: Int32(end - start)), .device)
        if let d = devices[Int(s)] { return d }
        let d = Device(parsingWithoutAddress: Substring(symbols[Int(s)]))
        devices[Int(s)] = d
        return d
    }

    func categoryValue(_ s: Int32) -> CategoryValue {
        if let c = categoryValues[Int(s)] { return c }
        let c = mapCategoryValue(symbols[Int(s)])
        categoryValues[Int(s)] = c
        return c
    }

    /// 1 for `HKCategoryTypeIdentifier…`, 2 for `HKQuantityTypeIdentifier…`, 3 for anything else.
    func typeKind(_ s: Int32) -> UInt8 {
        if typeKinds[Int(s)] == 0 {
            let name = symbols[Int(s)]
            typeKinds[Int(s)] =
                name.hasPrefix("HKCategoryTypeIdentifier") ? 1 : name.hasPrefix("HKQuantityTypeIdentifier") ? 2 : 3
        }
        return typeKinds[Int(s)]
    }

    // MARK: Diagnostics

    func diagnose(_ kind: Diagnostic.Kind, _ detail: @autoclosure () -> String, line: Int32) {
        let key = DiagnosticKey(kind: kind, detail: detail())
        if let d = diagnostics[key] {
            diagnostics[key] = (d.count + 1, d.firstLine)
        } else {
            diagnostics[key] = (1, Int(line))
        }
    }

    func quoted(_ b: UnsafeBufferPointer<UInt8>?) -> String {
        guard let b else { return "(missing)" }
        let s = String(decoding: b.prefix(80), as: UTF8.self)
        return "'\(s)'" + (b.count > 80 ? "…" : "")
    }

    /// `latestPlausible` as a serial read sets it from the first `<ExportDate value="…">` in
    /// `bytes` (the first segment of a parallel read), or nil when there is none or it is not
    /// plausible itself.
    static func exportDateBound(in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let tag = Array("<ExportDate value=\"".utf8)
        let limit = min(bytes.count, 64 * 1024)
        var i = 0
        while i + tag.count + 25 <= limit {
            if bytes[i] == tag[0], (0..<tag.count).allSatisfy({ bytes[i + $0] == tag[$0] }) {
                let value = UnsafeBufferPointer(rebasing: bytes[(i + tag.count)..<(i + tag.count + 25)])
                guard let t = decodeTimestamp(value), t.secondsSince1970 >= earliestPlausible,
                    t.secondsSince1970 <= Platform.now + 86_400
                else { return nil }
                return t.secondsSince1970 + 86_400
            }
            i += 1
        }
        return nil
    }

    /// Notes the start of a record skipped for its value or unit.
    func rejected(_ start: Timestamp) {
        guard rejectedStarts.count < 100_000 else { return }
        rejectedStarts.insert(start.secondsSince1970.floorDiv(900) * 900)
    }

    /// 1900-01-01 00:00:00 UTC, the earliest plausible instant.
    static let earliestPlausible: Int64 = -2_208_988_800

    /// True for instants from 1900 to a day after the export's `ExportDate` (or after the time of
    /// the read while no `ExportDate` was seen). Health data cannot be from the future, and one
    /// record dated 9999-12-31 must not make a report of three million empty days.
    @inline(__always)
    func plausible(_ t: Timestamp) -> Bool {
        t.secondsSince1970 >= Self.earliestPlausible && t.secondsSince1970 <= latestPlausible
    }

    /// The diagnostic detail for an implausible date.
    func implausible(_ element: String, _ name: String, _ t: Timestamp) -> String {
        "\(element) \(name) "
            + (t.secondsSince1970 < Self.earliestPlausible
                ? "before 1900" : boundByExportDate ? "more than a day after the ExportDate" : "after today")
    }

    /// A required date attribute; records a diagnostic and returns nil when missing, bad or
    /// implausible.
    func requiredDate(_ a: Attributes, _ id: hsax_attribute_id, _ name: String, element: String, line: Int32)
        -> Timestamp?
    {
        date(a, id, name, element: element, line: line, required: true)
    }

    /// An optional date attribute; a bad or implausible value is ignored with a diagnostic.
    func optionalDate(_ a: Attributes, _ id: hsax_attribute_id, _ name: String, element: String, line: Int32)
        -> Timestamp?
    {
        date(a, id, name, element: element, line: line, required: false)
    }

    /// The date attribute `id`, decoded and plausible, else nil: with a diagnostic where it is
    /// missing (only when `required`), not a date (`.badDate` when `required`: its element is
    /// dropped; else `.ignoredAttribute`) or implausible. Not on a record's fast path.
    private func date(
        _ a: Attributes, _ id: hsax_attribute_id, _ name: String, element: String, line: Int32, required: Bool
    ) -> Timestamp? {
        guard let b = a.bytes(id) else {
            if required { diagnose(.missingAttribute, "\(element) without \(name)", line: line) }
            return nil
        }
        guard let t = decodeTimestamp(b) else {
            if required {
                diagnose(.badDate, "\(element) \(name)=\(quoted(b))", line: line)
            } else {
                diagnose(.ignoredAttribute, "\(element) \(name)=\(quoted(b)) is not a date", line: line)
            }
            return nil
        }
        guard plausible(t) else {
            diagnose(.implausibleDate, implausible(element, name, t), line: line)
            return nil
        }
        return t
    }

    /// The largest magnitude a number may have: what a `Float` holds (the analysis stores
    /// cumulative values as `Float`), so that no value becomes infinity and no sum overflows.
    static let largestValue = Double(Float.greatestFiniteMagnitude)

    /// An optional number attribute; a bad or out-of-range value is ignored with a diagnostic.
    func optionalNumber(_ a: Attributes, _ id: hsax_attribute_id, _ name: String, element: String, line: Int32)
        -> Double?
    {
        guard let b = a.bytes(id), b.count > 0 else { return nil }
        guard let v = decodeDouble(b) else {
            diagnose(.ignoredAttribute, "\(element) \(name)=\(quoted(b)) is not a number", line: line)
            return nil
        }
        guard abs(v) <= Self.largestValue else {
            diagnose(.valueOutOfRange, "\(element) \(name)=\(quoted(b)) is beyond ±3.4e38", line: line)
            return nil
        }
        return v
    }

    /// `optionalNumber` for a quantity that cannot be negative (a duration, distance, energy,
    /// count, rate): a negative value is ignored with a diagnostic, never a negative total.
    func optionalNonNegativeNumber(
        _ a: Attributes, _ id: hsax_attribute_id, _ name: String, element: String, line: Int32
    ) -> Double? {
        guard let v = optionalNumber(a, id, name, element: element, line: line) else { return nil }
        guard v >= 0 else {
            diagnose(.ignoredAttribute, "\(element) \(name)=\(quoted(a.bytes(id))) is negative", line: line)
            return nil
        }
        return v
    }

    /// A number with a unit attribute beside it, converted to the canonical unit; never negative
    /// (every caller reads a duration, distance or energy).
    func optionalQuantity(
        _ a: Attributes, value: hsax_attribute_id, unit: hsax_attribute_id?, expected: CanonicalUnit?,
        _ name: String, element: String, line: Int32
    ) -> Double? {
        guard let v = optionalNonNegativeNumber(a, value, name, element: element, line: line) else { return nil }
        guard let unit, let u = a.raw(unit), u.length > 0 else { return v }
        guard let c = conversion(symbol(u)), expected == nil || c.unit == expected else {
            diagnose(
                .ignoredAttribute, "\(element) \(name) in unit \(quoted(a.bytes(unit))) ignored", line: line)
            return nil
        }
        return c.apply(v)
    }

    // MARK: Batches

    @inline(__always)
    func elementDone() {
        elementsRead += 1
        if batch.count >= batchSize || batchBeats >= Self.batchBeatLimit { flush() }
    }

    /// The segment of the elements read now (`ExportBatch.segment`; set by a parallel read's
    /// worker at each segment's start).
    var segment = 0

    func flush() {
        if batch.count > 0 { deliverBatch(endingSegment: false) }
    }

    /// Hands on the rest of the current segment as its last batch (`endsSegment`, possibly
    /// empty; `ReaderOptions.marksSegments`).
    func endSegment() { deliverBatch(endingSegment: true) }

    private func deliverBatch(endingSegment: Bool) {
        guard failure == nil else { return }
        batch.segment = segment
        batch.endsSegment = endingSegment
        do {
            try deliver(batch)
        } catch {
            fail(error)
        }
        batch.removeAll()
        batch.endsSegment = false
        batchBeats = 0
    }

    func fail(_ error: Error) {
        if failure == nil { failure = error }
        hsax_parser_stop(parser)
    }

    func makeSummary(bytesRead: Int64) -> ExportSummary {
        tally().summary(
            inputName: inputName, bytesRead: bytesRead, removed: hsax_parser_removed_control_characters(parser),
            droppedDoctype: hsax_parser_dropped_doctype(parser) != 0,
            exportVersion: hsax_parser_export_version(parser))
    }

    /// What this session found, with names instead of the parser's pointers (so it outlives the
    /// parser and can be merged with other sessions' tallies).
    func tally() -> SessionTally {
        var counts: [String: Int] = [:]
        var unmodeled: [String: Int] = [:]
        for (pointer, n) in unknownElementCounts {
            let name = String(cString: pointer.assumingMemoryBound(to: CChar.self))
            counts[name, default: 0] += n
            unmodeled[name, default: 0] += n
        }
        for id in 1..<knownElementCounts.count where knownElementCounts[id] > 0 {
            let name = elementName(Int32(id))
            counts[name, default: 0] += knownElementCounts[id]
            if id == Int(HSAX_EL_VISION_PRESCRIPTION.rawValue) { unmodeled[name, default: 0] += knownElementCounts[id] }
        }
        return SessionTally(
            elementCounts: counts, unmodeledElementCounts: unmodeled, diagnostics: diagnostics,
            timeZoneCounts: timeZoneCounts, exportDate: exportDate, exportDateSegment: exportDateSegment, me: me,
            meSegment: meSegment, locale: locale, elementsRead: elementsRead, rejectedStarts: rejectedStarts,
            cutNames: cutNames)
    }
}

/// The mergeable part of what one parse found (see `ReaderSession.tally`). Parallel reads merge
/// one tally per worker into the summary of the whole export.
struct SessionTally {
    var elementCounts: [String: Int]
    var unmodeledElementCounts: [String: Int]
    var diagnostics: [ReaderSession.DiagnosticKey: (count: Int, firstLine: Int)]
    var timeZoneCounts: [String: Int]
    var exportDate: Timestamp?
    /// The segment of the last `ExportDate` (`Int32.min` when none was seen).
    var exportDateSegment: Int32
    var me: Me?
    var meSegment: Int32
    var locale: String?
    var elementsRead: Int
    /// See `ExportSummary.rejectedRecordStarts`.
    var rejectedStarts: Set<Int64>
    /// See `ReaderSession.noteCut`.
    var cutNames: [String: CutNames] = [:]

    /// Adds `other`, a tally of other segments of the same document: counts add up, a
    /// diagnostic's first line is the smaller one, and the header elements come from the later
    /// segment (as a serial read keeps the last one it sees).
    mutating func merge(_ other: SessionTally) {
        elementCounts.merge(other.elementCounts, uniquingKeysWith: +)
        unmodeledElementCounts.merge(other.unmodeledElementCounts, uniquingKeysWith: +)
        diagnostics.merge(other.diagnostics) { ($0.count + $1.count, min($0.firstLine, $1.firstLine)) }
        timeZoneCounts.merge(other.timeZoneCounts, uniquingKeysWith: +)
        if other.exportDateSegment > exportDateSegment {
            exportDate = other.exportDate
            exportDateSegment = other.exportDateSegment
        }
        if other.meSegment > meSegment {
            me = other.me
            meSegment = other.meSegment
        }
        locale = locale ?? other.locale
        elementsRead += other.elementsRead
        if rejectedStarts.count < 100_000 { rejectedStarts.formUnion(other.rejectedStarts) }
        cutNames.merge(other.cutNames) {
            CutNames(
                records: $0.records + $1.records, bytesLeftOut: $0.bytesLeftOut + $1.bytesLeftOut,
                longest: max($0.longest, $1.longest), firstLine: min($0.firstLine, $1.firstLine))
        }
    }

    func summary(inputName: String, bytesRead: Int64, removed: Int64, droppedDoctype: Bool, exportVersion: Int32)
        -> ExportSummary
    {
        var diags = diagnostics.map {
            Diagnostic(kind: $0.key.kind, detail: $0.key.detail, count: $0.value.count, firstLine: $0.value.firstLine)
        }
        if removed > 0 {
            diags.append(
                Diagnostic(
                    kind: .controlCharactersRemoved,
                    detail: "bytes 0x00-0x1F other than tab, LF and CR, and 0x7F (DEL), deleted before parsing",
                    count: Int(removed), firstLine: 0))
        }
        for (what, c) in cutNames {
            diags.append(
                Diagnostic(
                    kind: .nameCut,
                    detail: "\(what) longer than \(HSAX_NAME_CAP) bytes, each kept as its first \(HSAX_NAME_CAP) bytes"
                        + " and a hash of the whole; \(c.bytesLeftOut) bytes left out over these records, the"
                        + " longest \(c.longest) bytes",
                    count: c.records, firstLine: c.firstLine))
        }
        diags.sort { ($0.firstLine, $0.kind.rawValue, $0.detail) < ($1.firstLine, $1.kind.rawValue, $1.detail) }
        return ExportSummary(
            inputName: inputName, exportDate: exportDate, exportVersion: exportVersion >= 0 ? Int(exportVersion) : nil,
            locale: locale, me: me, bytesRead: bytesRead, elementCounts: elementCounts,
            unmodeledElementCounts: unmodeledElementCounts, timeZoneCounts: timeZoneCounts,
            removedControlCharacters: removed, droppedDoctype: droppedDoctype, diagnostics: diags,
            rejectedRecordStarts: rejectedStarts.sorted())
    }
}

/// Names one session kept cut, of one kind (see `ReaderSession.noteCut`).
struct CutNames {
    var records: Int
    var bytesLeftOut: Int64
    var longest: Int
    var firstLine: Int
}

/// The element names the glue recognizes, by `hsax_element_id` (the glue's own table).
func elementName(_ id: Int32) -> String {
    hsax_element_name(id).map { String(cString: $0) } ?? "?"
}

/// Maps an `HKCategoryValue…` string (or a bare raw integer) to a typed value (docs/export-format.md §13).
func mapCategoryValue(_ s: String) -> CategoryValue {
    switch s {
    case "HKCategoryValueSleepAnalysisInBed": return .sleepAnalysis(.inBed)
    case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified":
        return .sleepAnalysis(.asleepUnspecified)
    case "HKCategoryValueSleepAnalysisAwake": return .sleepAnalysis(.awake)
    case "HKCategoryValueSleepAnalysisAsleepCore": return .sleepAnalysis(.asleepCore)
    case "HKCategoryValueSleepAnalysisAsleepDeep": return .sleepAnalysis(.asleepDeep)
    case "HKCategoryValueSleepAnalysisAsleepREM": return .sleepAnalysis(.asleepREM)
    case "HKCategoryValueAppleStandHourStood": return .appleStandHour(stood: true)
    case "HKCategoryValueAppleStandHourIdle": return .appleStandHour(stood: false)
    case "HKCategoryValueNotApplicable": return .notApplicable
    default: return .other(s)
    }
}

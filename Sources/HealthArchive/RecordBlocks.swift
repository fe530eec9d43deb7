import HealthExport

// The stored form of top-level records (schema version 3, docs/archive.md "Record blocks"): the
// records of one type whose starts share a 2^16-second stretch (about 18 hours) are one row of
// `record_blocks`, a JSON array with one array per record: its numbers, then its metadata and
// heartbeats. One row per block instead of one per record (and none per metadata entry or beat)
// is what makes an import and `report --db` cheap: SQLite's cost is per row, and a block holds a
// few dozen to a few thousand records. The `records`, `record_metadata` and `heartbeats` views
// unpack the blocks for people (`json_each`).

/// One top-level record as a block holds it: the lookup ids and numbers of the `records` view's
/// columns. Instants: `id` carries the type and the start (`Schema.recordID`); the end is the start
/// plus `duration`, the creation date the end plus `creationDelay` (seconds, UTC).
struct StoredRecord: Equatable {
    var id: Int64
    var source: Int64
    var duration: Int64
    /// In the canonical unit of `unit`'s dimension (docs/export-format.md §11).
    var value: Double?
    var unit: Int64?
    /// The offset the export printed the start in, minutes east of UTC.
    var offsetMinutes: Int64
    var export: Int64
    /// The record's line in the export it was first imported from.
    var line: Int64?
    var version: Int64?
    var device: Int64?
    var creationDelay: Int64?
    /// The value as written, where it differs from `value`.
    var original: Double?
    var text: Int64?
    /// The record's `MetadataEntry` children in document order.
    var metadata: [StoredMetadataEntry] = []
    /// An HRV record's `InstantaneousBeatsPerMinute` children in document order (bpm, and the
    /// time of day as written: docs/export-format.md §7.4).
    var heartbeats: [InstantaneousBeatsPerMinute] = []
}

/// A `MetadataEntry` of a top-level record as its block holds it: the key's id in
/// `metadata_keys`, and the value as written.
struct StoredMetadataEntry: Equatable {
    var key: Int64
    var value: String
}

/// A value that the archive's schema and importer never write (a NULL in a NOT NULL column, an
/// offset of days, a block that is not `RecordBlock.encode`'s JSON), found in a hand-edited or
/// damaged archive: `ArchiveError.damaged` for the archive's path.
struct DamagedRow: Error, Equatable {
    var problem: String
}

/// The encoding of a block: `[[s,n,source,duration,value,unit,offset,export,line,version,device,
/// creation_delay,original_value,value_text,metadata,heartbeats],…]` in record id order, trailing
/// nulls (and an empty metadata list before no heartbeats) left out. `s` is the low 16 bits of the
/// start biased by 2^31, `n` the record's counter in its start second (`Schema.recordID`): the
/// record id is `block << 37 | s << 21 | n`. `metadata` is `[[key_id,"value"],…]` and
/// `heartbeats` `[[bpm,"time"],…]`, JSON strings with `"`, `\` and control characters escaped
/// (docs/archive.md §6.1).
enum RecordBlock {
    /// The names of a record's 14 numeric fields in a block, in order (docs/archive.md §6.1).
    static let fieldNames = [
        "s", "n", "source_id", "duration_s", "value", "unit_id", "printed_offset_min", "export_id", "line",
        "source_version_id", "device_id", "creation_delay_s", "original_value", "value_text_id",
    ]
    /// Record id bits below the block id.
    static let shift: Int64 = 37

    static func blockID(ofRecord id: Int64) -> Int64 { id >> shift }
    static func firstRecordID(ofBlock block: Int64) -> Int64 { block << shift }
    static func lastRecordID(ofBlock block: Int64) -> Int64 { block << shift | ((1 << shift) - 1) }

    /// Writes `records` (sorted by id, all of block `block`) as that block's row with `statement`,
    /// an `INSERT … INTO record_blocks (id, count, records) VALUES (?, ?, ?)`; `text` is scratch
    /// space kept by the caller between blocks.
    static func write(
        _ records: [StoredRecord], block: Int64, with statement: Statement, text: inout [UInt8]
    ) throws {
        text.removeAll(keepingCapacity: true)
        encode(records, into: &text)
        statement.bind(1, block)
        statement.bind(2, records.count)
        statement.bindText(3, text)
        try statement.run()
    }

    /// Bytes one record's numbers can take: 14 fields of at most 24 bytes
    /// ("-1.2345678901234567e-300"), with commas and brackets.
    static let maxRecordBytes = 14 * 25 + 3

    /// Appends the JSON of `records` (sorted by id, all of one block) to `out`.
    static func encode(_ records: [StoredRecord], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (k, r) in records.enumerated() {
            // Room for the longest record, written through a pointer, then the rest cut off:
            // an append per byte would cost several times more.
            write(into: &out, room: maxRecordBytes) { w in
                if k > 0 { w.byte(UInt8(ascii: ",")) }
                w.record(r)
            }
            if !r.metadata.isEmpty || !r.heartbeats.isEmpty {
                out.append(UInt8(ascii: ","))
                if r.metadata.isEmpty { out.append(contentsOf: null) }
                list(r.metadata, into: &out) { e, out in
                    write(into: &out, room: 21) { $0.integer(e.key) }
                    out.append(UInt8(ascii: ","))
                    appendString(e.value, to: &out)
                }
                if !r.heartbeats.isEmpty {
                    out.append(UInt8(ascii: ","))
                    list(r.heartbeats, into: &out) { beat, out in
                        write(into: &out, room: 25) { $0.double(beat.bpm) }
                        out.append(UInt8(ascii: ","))
                        appendString(beat.time, to: &out)
                    }
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Appends what `body` writes, at most `room` bytes, to `out` through a pointer.
    @inline(__always)
    private static func write(into out: inout [UInt8], room: Int, _ body: (inout JSONWriter) -> Void) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: room))
        let used = out.withUnsafeMutableBufferPointer { b in
            var w = JSONWriter(p: b.baseAddress! + start)
            body(&w)
            return w.count
        }
        out.removeLast(room - used)
    }

    /// `[[…],[…]]`, one inner array per element of `items` (nothing for none), its insides
    /// written by `body`.
    private static func list<T>(_ items: [T], into out: inout [UInt8], _ body: (T, inout [UInt8]) -> Void) {
        guard !items.isEmpty else { return }
        out.append(UInt8(ascii: "["))
        for (k, item) in items.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            body(item, &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `s` as a JSON string: `"` and `\` escaped with a backslash, control characters (below
    /// U+0020) as `\u00XX`, everything else as its UTF-8 bytes.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                out.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), b])
                case ..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 15)])
                default: out.append(b)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    fileprivate static let null = Array("null".utf8)

    /// Numbers and `null` as JSON, written at a pointer the caller has room behind.
    private struct JSONWriter {
        let p: UnsafeMutablePointer<UInt8>
        var count = 0

        init(p: UnsafeMutablePointer<UInt8>) { self.p = p }

        @inline(__always) mutating func byte(_ b: UInt8) {
            p[count] = b
            count += 1
        }

        /// The record's numbers, without the `]` that closes it.
        mutating func record(_ r: StoredRecord) {
            byte(UInt8(ascii: "["))
            integer((r.id >> 21) & 0xFFFF)
            byte(UInt8(ascii: ","))
            integer(r.id & 0x1F_FFFF)
            byte(UInt8(ascii: ","))
            integer(r.source)
            byte(UInt8(ascii: ","))
            integer(r.duration)
            byte(UInt8(ascii: ","))
            double(r.value)
            byte(UInt8(ascii: ","))
            integer(r.unit)
            byte(UInt8(ascii: ","))
            integer(r.offsetMinutes)
            byte(UInt8(ascii: ","))
            integer(r.export)
            // Trailing nulls are left out.
            let last: Int
            if r.text != nil || !r.metadata.isEmpty || !r.heartbeats.isEmpty {
                last = 13  // the metadata and heartbeat lists follow field 13
            } else if r.original != nil {
                last = 12
            } else if r.creationDelay != nil {
                last = 11
            } else if r.device != nil {
                last = 10
            } else if r.version != nil {
                last = 9
            } else {
                last = r.line != nil ? 8 : 7
            }
            for k in 8...13 where k <= last {
                byte(UInt8(ascii: ","))
                switch k {
                case 8: integer(r.line)
                case 9: integer(r.version)
                case 10: integer(r.device)
                case 11: integer(r.creationDelay)
                case 12: double(r.original)
                default: integer(r.text)
                }
            }
        }

        mutating func null() {
            for b in RecordBlock.null { byte(b) }
        }

        mutating func integer(_ v: Int64?) {
            guard let v else { return null() }
            if v >= 0 && v < 10 { return byte(UInt8(48 + v)) }
            digits(v.magnitude, negative: v < 0, point: 0)
        }

        /// The digits of `m`, with a decimal point before the last `point` of them (and "0."
        /// first when there are no more digits than that).
        mutating func digits(_ m: UInt64, negative: Bool, point: Int) {
            if negative { byte(UInt8(ascii: "-")) }
            var n = 1
            var t = m
            while t >= 10 {
                t /= 10
                n += 1
            }
            n = max(n, point + 1)
            var at = count + n + (point > 0 ? 1 : 0) - 1
            count = at + 1
            var m = m
            for i in 0..<n {
                if point > 0 && i == point {
                    p[at] = UInt8(ascii: ".")
                    at -= 1
                }
                p[at] = UInt8(truncatingIfNeeded: 48 + m % 10)
                m /= 10
                at -= 1
            }
        }

        /// A double as JSON that reads back as the same double in any correctly rounding reader:
        /// with the fewest decimals k (up to 15) such that `v == m / 10^k` for an integer
        /// `m < 2^53`. Both `m` and `10^k` are exact doubles, so that quotient is the correctly
        /// rounded value of the decimal written (and what `decodeDouble` computes). Otherwise
        /// Swift's shortest form ("1e-20"), which is valid JSON too. Exports hold only finite
        /// values (the reader refuses others); `-0` is written `0`, as SQLite stored it.
        mutating func double(_ v: Double?) {
            guard let v, v.isFinite else { return null() }
            let a = v.magnitude
            if a < 9_007_199_254_740_992 {
                for k in 0...15 {
                    let power = JSONWriter.powers[k]
                    let scaled = (a * power).rounded()
                    guard scaled < 9_007_199_254_740_992 else { break }
                    if scaled / power == a {
                        return digits(UInt64(scaled), negative: v < 0 && scaled != 0, point: k)
                    }
                }
            }
            for b in v.description.utf8 { byte(b) }
        }

        static let powers: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }
    }

    /// The records of block `block` from its JSON `text`, in stored order, into `out` (emptied first).
    /// - Throws: `DamagedRow` for anything `encode` does not write: other JSON, a missing required
    ///   field, a number out of its range.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, block: Int64, into out: inout [StoredRecord]) throws {
        out.removeAll(keepingCapacity: true)
        try decode(text, block: block) { out.append($0) }
    }

    /// `decode(_:block:into:)` handing each record to `body` as it is read (the whole block is
    /// checked only as far as it is read: a damaged byte ends it there with `DamagedRow`).
    @inline(__always)
    static func decode(
        _ text: UnsafeBufferPointer<UInt8>, block: Int64, _ body: (StoredRecord) throws -> Void
    ) throws {
        // 14 numbers and a scratch slot for the numbers inside the metadata and heartbeat lists.
        let slots = UnsafeMutablePointer<Int64>.allocate(capacity: 15)
        let kinds = UnsafeMutablePointer<Kind>.allocate(capacity: 15)
        defer {
            slots.deallocate()
            kinds.deallocate()
        }
        var p = Parser(bytes: text, block: block, slots: slots, kinds: kinds)
        try p.expect(UInt8(ascii: "["))
        if p.peek() == UInt8(ascii: "]") {
            p.i += 1
            return try p.end()
        }
        while true {
            try p.expect(UInt8(ascii: "["))
            var n = 0
            while true {
                guard n < 16 else { throw p.damaged("more than 16 fields in a record") }
                if n >= 14 {
                    try n == 14 ? p.metadataList() : p.heartbeatList()
                    n += 1
                    if try p.next() { break }
                    continue
                }
                if p.unsignedInteger(n) {
                    // It stopped at the ',' or ']' after the digits.
                    n += 1
                    p.i += 1
                    if p.bytes[p.i - 1] == UInt8(ascii: "]") { break }
                    continue
                }
                try p.value(n)
                n += 1
                if try p.next() { break }
            }
            while n < 14 {
                p.kinds[n] = .null
                n += 1
            }
            try body(try p.record())
            p.index += 1
            if !p.metadata.isEmpty { p.metadata = [] }
            if !p.heartbeats.isEmpty { p.heartbeats = [] }
            if try p.next() { break }
        }
        try p.end()
    }

    private enum Kind: UInt8 {
        case null, integer, real
    }

    /// A parser of one block's text: the numbers of the current record in `kinds` and `slots`
    /// (14 of each, reused for every record; a real's slot holds its bit pattern), its metadata
    /// and heartbeats in `metadata` and `heartbeats`.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let block: Int64
        let slots: UnsafeMutablePointer<Int64>
        let kinds: UnsafeMutablePointer<Kind>
        var i = 0
        /// The record being read: its index in the block.
        var index = 0
        var metadata: [StoredMetadataEntry] = []
        var heartbeats: [InstantaneousBeatsPerMinute] = []

        init(
            bytes: UnsafeBufferPointer<UInt8>, block: Int64, slots: UnsafeMutablePointer<Int64>,
            kinds: UnsafeMutablePointer<Kind>
        ) {
            self.bytes = bytes
            self.block = block
            self.slots = slots
            self.kinds = kinds
        }

        func damaged(_ what: String) -> DamagedRow {
            DamagedRow(problem: "record block \(block) is damaged at byte \(i): \(what)")
        }

        @inline(__always) mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 || bytes[i] == 0x0D {
                i += 1
            }
        }

        @inline(__always) mutating func peek() -> UInt8? {
            if i < bytes.count, bytes[i] > 0x20 { return bytes[i] }
            skipSpace()
            return i < bytes.count ? bytes[i] : nil
        }

        mutating func expect(_ c: UInt8) throws(DamagedRow) {
            guard peek() == c else { throw damaged("expected '\(Character(Unicode.Scalar(c)))'") }
            i += 1
        }

        /// After a value: true at the `]` that closes the array, false at a `,`.
        @inline(__always) mutating func next() throws(DamagedRow) -> Bool {
            switch peek() {
            case UInt8(ascii: ","):
                i += 1
                return false
            case UInt8(ascii: "]"):
                i += 1
                return true
            default: throw damaged("expected ',' or ']'")
            }
        }

        mutating func end() throws(DamagedRow) {
            skipSpace()
            guard i == bytes.count else { throw damaged("text after the block's array") }
        }

        /// Field `k` when it is what most are, digits right before a `,` or `]` (up to 18): true
        /// when it was; else nothing is read and `value` reads the field.
        @inline(__always) mutating func unsignedInteger(_ k: Int) -> Bool {
            let n = bytes.count
            var j = i
            var v: Int64 = 0
            while j < n {
                let d = bytes[j] &- 48
                if d >= 10 { break }
                v = v &* 10 &+ Int64(d)
                j += 1
            }
            guard j > i, j - i <= 18, j < n, bytes[j] == UInt8(ascii: ",") || bytes[j] == UInt8(ascii: "]") else {
                return false
            }
            kinds[k] = .integer
            slots[k] = v
            i = j
            return true
        }

        /// Field `k`: `null`, an integer of up to 18 digits, or another JSON number (read by
        /// `decodeDouble`, which is exact).
        @inline(__always) mutating func value(_ k: Int) throws(DamagedRow) {
            skipSpace()
            let start = i
            let n = bytes.count
            if i + 3 < n, bytes[i] == UInt8(ascii: "n"), bytes[i + 1] == UInt8(ascii: "u"),
                bytes[i + 2] == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "l")
            {
                i += 4
                kinds[k] = .null
                return
            }
            let negative = i < n && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var v: Int64 = 0
            var digits = 0
            while i < n {
                let d = bytes[i] &- 48
                guard d < 10 else { break }
                if digits < 18 { v = v &* 10 &+ Int64(d) }
                digits += 1
                i += 1
            }
            let c = i < n ? bytes[i] : 0
            if digits > 18 || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                while i < n {
                    let b = bytes[i]
                    guard
                        b &- 48 < 10 || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                            || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                    else { break }
                    i += 1
                }
                guard let d = decodeDouble(UnsafeBufferPointer(rebasing: bytes[start..<i])) else {
                    i = start
                    throw damaged("not a number")
                }
                kinds[k] = .real
                slots[k] = Int64(bitPattern: d.bitPattern)
                return
            }
            guard digits > 0 else {
                i = start
                throw damaged("not a number")
            }
            kinds[k] = .integer
            slots[k] = negative ? -v : v
        }

        @inline(__always) func integer(_ k: Int) -> Int64? { kinds[k] == .integer ? slots[k] : nil }

        /// Field 14: `null`, or `[[key_id,"value"],…]` (at least one entry) into `metadata`.
        mutating func metadataList() throws(DamagedRow) {
            if try nullOrList() { return }
            try pairs { p throws(DamagedRow) in
                guard let key = p.integer(14) else { throw p.damaged("a metadata key is not an integer") }
                return key
            } add: { p, key, value in
                p.metadata.append(StoredMetadataEntry(key: key, value: value))
            }
        }

        /// Field 15: `[[bpm,"time"],…]` (at least one beat) into `heartbeats`.
        mutating func heartbeatList() throws(DamagedRow) {
            if try nullOrList() { throw damaged("a heartbeat list is null") }
            try pairs { p throws(DamagedRow) in
                guard let bpm = p.double(14) else { throw p.damaged("a heartbeat's bpm is null") }
                return bpm
            } add: { p, bpm, time in
                p.heartbeats.append(InstantaneousBeatsPerMinute(bpm: bpm, time: time))
            }
        }

        /// The entries `[number,"text"]` of a list whose `[` is read, through its `]`: each
        /// one's number is read into slot 14 and checked by `number`, then `add` gets it and
        /// the text.
        @inline(__always)
        mutating func pairs<N>(
            _ number: (Parser) throws(DamagedRow) -> N, add: (inout Parser, N, String) -> Void
        ) throws(DamagedRow) {
            while true {
                try expect(UInt8(ascii: "["))
                try value(14)
                let n = try number(self)
                try expect(UInt8(ascii: ","))
                let text = try string()
                add(&self, n, text)
                try expect(UInt8(ascii: "]"))
                if try next() { return }
            }
        }

        /// True after a `null`; false after the `[` of a list that is not empty.
        mutating func nullOrList() throws(DamagedRow) -> Bool {
            skipSpace()
            if i + 3 < bytes.count, bytes[i] == UInt8(ascii: "n"), bytes[i + 1] == UInt8(ascii: "u"),
                bytes[i + 2] == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "l")
            {
                i += 4
                return true
            }
            try expect(UInt8(ascii: "["))
            guard peek() != UInt8(ascii: "]") else { throw damaged("an empty list") }
            return false
        }

        /// A JSON string: its escapes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
        /// `\uXXXX` with surrogate pairs) undone; a raw control character, another escape or a
        /// lone surrogate is damage.
        mutating func string() throws(DamagedRow) -> String {
            try expect(UInt8(ascii: "\""))
            let start = i
            let n = bytes.count
            while i < n, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
            guard i < n else { throw damaged("a string is not closed") }
            if bytes[i] == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
            }
            var out = Array(bytes[start..<i])
            do {
                try JSONText.unescape(bytes, at: &i, into: &out)
            } catch {
                i = error.offset
                throw damaged(Self.message(error.problem))
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// What `damaged` says of a string that `JSONText.unescape` could not read.
        static func message(_ problem: JSONText.StringError.Problem) -> String {
            switch problem {
            case .notClosed: return "a string is not closed"
            case .controlCharacter: return "a control character in a string"
            case .escapeCutShort: return "a \\u escape is cut short"
            case .escapeNotHex: return "a \\u escape is not hex"
            case .loneSurrogate: return "a lone surrogate in a string"
            case .unknownEscape: return "an unknown escape in a string"
            }
        }

        @inline(__always) func double(_ k: Int) -> Double? {
            switch kinds[k] {
            case .null: return nil
            case .integer: return Double(slots[k])
            case .real: return Double(bitPattern: UInt64(bitPattern: slots[k]))
            }
        }

        /// The `DamagedRow` of field `k` of the current record: "table record_blocks, row 12,
        /// column records (record 0, field duration_s): 1e+308 is not a length of time in seconds".
        func damagedField(_ k: Int, _ what: String) -> DamagedRow {
            let value: String
            switch kinds[k] {
            case .null: value = "null"
            case .integer: value = String(slots[k])
            case .real: value = String(describing: Double(bitPattern: UInt64(bitPattern: slots[k])))
            }
            return DamagedRow(
                problem: "table record_blocks, row \(block), column records (record \(index), field "
                    + "\(RecordBlock.fieldNames[k])): \(value) is not \(what)")
        }

        /// Field `k`, an integer in `range` (null: nil).
        @inline(__always) func checked(_ k: Int, _ range: ClosedRange<Int64>, _ what: String) throws(DamagedRow)
            -> Int64?
        {
            switch kinds[k] {
            case .null: return nil
            case .integer:
                guard range.contains(slots[k]) else { throw damagedField(k, what) }
                return slots[k]
            case .real: throw damagedField(k, what)
            }
        }

        /// `checked` of a field every record has.
        @inline(__always) func required(_ k: Int, _ range: ClosedRange<Int64>, _ what: String) throws(DamagedRow)
            -> Int64
        {
            guard let v = try checked(k, range, what) else { throw damagedField(k, what) }
            return v
        }

        /// Field `k`, a finite number (null: nil).
        @inline(__always) func finite(_ k: Int) throws(DamagedRow) -> Double? {
            guard let d = double(k) else { return nil }
            guard d.isFinite else { throw damagedField(k, "a finite number") }
            return d
        }

        /// The current record, every field range-checked (docs/archive.md §11).
        func record() throws(DamagedRow) -> StoredRecord {
            let s = try required(0, 0...(1 << 16 - 1), "the low 16 bits of a start")
            let n = try required(1, 0...(1 << 21 - 1), "a counter below 2^21")
            let id = "an id"
            return StoredRecord(
                id: block << RecordBlock.shift | s << 21 | n, source: try required(2, ArchiveRange.id, id),
                duration: try required(3, ArchiveRange.span, "a length of time in seconds"),
                value: try finite(4), unit: try checked(5, ArchiveRange.id, id),
                offsetMinutes: try required(6, ArchiveRange.offsetMinutes, "an offset of any zone in minutes"),
                export: try required(7, ArchiveRange.id, id), line: try checked(8, ArchiveRange.count, "a line number"),
                version: try checked(9, ArchiveRange.id, id), device: try checked(10, ArchiveRange.id, id),
                creationDelay: try checked(11, ArchiveRange.span, "a length of time in seconds"),
                original: try finite(12), text: try checked(13, ArchiveRange.id, id),
                metadata: metadata, heartbeats: heartbeats)
        }
    }
}

import HealthAnalysis
import HealthExport

// Reading a report's CSV file back as its declared table: every cell parsed as its column's kind
// (`ColumnKind`), so that a file that is not what the table writes (random bytes, another
// table's header, `NaN`, a date that is not a date) is an error naming the line and the column,
// never rows with empty or made-up values. The cohort reads person folders this way.

/// Why a CSV file does not read back as its declared table. `description` is one line naming
/// the file, the line (1 is the header) and the column.
public struct TableReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The table's file name (`daily.csv`).
    public var file: String
    /// The line of the file, 1 for the header (a record with a quoted line break counts once).
    public var line: Int
    /// The column's name, when the problem is in one cell.
    public var column: String?
    public var problem: String

    public var description: String {
        "\(file) line \(line)\(column.map { " (column \($0))" } ?? ""): \(problem)"
    }
}

extension ColumnKind {
    /// The cell that CSV field `field` holds in a column of this kind, exactly as `TableCell.csvText`
    /// writes it (an empty field is `.null`); nil when the field is not of this kind (`NaN`,
    /// `1e5`, `yes`, a date that does not exist).
    public func cell(fromCSV field: String) -> TableCell? {
        if field.isEmpty { return .null }
        switch self {
        case .text: return .text(field)
        case .integer:
            guard Self.isDecimal(field, fraction: false), let n = Int(field) else { return nil }
            return .integer(n)
        case .number:
            guard Self.isDecimal(field, fraction: true), let v = Double(field), v.isFinite else { return nil }
            return .number(v)
        case .boolean:
            switch field {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .date: return CivilDate(field).map(TableCell.date)
        case .timestamp: return LocalTime(field).map(TableCell.timestamp)
        }
    }

    /// `-?[0-9]+`, with `(\.[0-9]+)?` when `fraction`: what the CSV writer writes (never an
    /// exponent, a `+`, `inf` or `nan`).
    private static func isDecimal(_ field: String, fraction: Bool) -> Bool {
        var bytes = field.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var digits = 0
        var point = false
        var afterPoint = 0
        for b in bytes {
            if b == UInt8(ascii: "."), fraction, !point {
                point = true
            } else if b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                if point { afterPoint += 1 } else { digits += 1 }
            } else {
                return false
            }
        }
        return digits > 0 && (!point || afterPoint > 0)
    }
}

extension TableSchema {
    /// The typed cells of CSV `text` that this table wrote: one array per row, in the schema's
    /// column order (`columns.count` cells each).
    ///
    /// The header must name columns of this table only, each once, starting with the first (the
    /// key: `date`, `week`, …). A declared column missing from the header (a file written by an
    /// earlier version, before the column was added) reads as `.null`. A UTF-8 byte-order mark
    /// before the header is skipped.
    ///
    /// - Throws: `TableReadError` for an empty file, a header that is not this table's, a row
    ///   with another number of fields than the header, or a cell that is not of its column's
    ///   kind.
    /// - Complexity: O(text length).
    public func rows(fromCSV text: String) throws(TableReadError) -> [[TableCell]] {
        func failure(_ line: Int, _ column: String?, _ problem: String) -> TableReadError {
            TableReadError(file: fileName, line: line, column: column, problem: problem)
        }
        var text = Substring(text)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        let records = CSV.parse(String(text))
        guard let header = records.first else { throw failure(1, nil, "the file is empty (expected a header)") }
        let slots = try slots(forHeader: header)
        var rows: [[TableCell]] = []
        rows.reserveCapacity(records.count - 1)
        for (index, record) in records.enumerated().dropFirst() {
            guard record.count == header.count else {
                throw failure(index + 1, nil, "\(record.count) fields where the header has \(header.count)")
            }
            var row = [TableCell](repeating: .null, count: columns.count)
            for (field, slot) in zip(record, slots) {
                let column = columns[slot]
                guard let cell = column.kind.cell(fromCSV: field) else {
                    throw failure(index + 1, column.name, "'\(printable(field))' is not a \(column.kind.noun)")
                }
                row[slot] = cell
            }
            rows.append(row)
        }
        return rows
    }

    /// The column (index into `columns`) of each field of `header`, checked as
    /// `rows(fromCSV:)` says: columns of this table only, each once, the key first.
    fileprivate func slots(forHeader header: [String]) throws(TableReadError) -> [Int] {
        func failure(_ problem: String) -> TableReadError {
            TableReadError(file: fileName, line: 1, column: nil, problem: problem)
        }
        var position: [String: Int] = [:]
        for (i, column) in columns.enumerated() { position[column.name] = i }
        var slots: [Int] = []
        var seen = Set<String>()
        for name in header {
            guard let slot = position[name] else {
                throw failure("'\(printable(name))' is not a column of \(self.name)")
            }
            guard seen.insert(name).inserted else { throw failure("column '\(name)' appears twice") }
            slots.append(slot)
        }
        guard header.first == columns.first?.name else {
            throw failure("the first column must be '\(columns.first?.name ?? "")'")
        }
        return slots
    }

    /// CSV `text` of this table read back as `rows(fromCSV:)` reads it (the same checks, the
    /// same first error), and written again as CSV lines: for each row, `prefix` (as given: an
    /// escaped field), then for each of `kept` (indices into `columns`, ascending) a comma and
    /// the row's cell exactly as `CSV.escape(cell.csvText(kind))` writes it, empty for a column
    /// the header lacks; each line ends with `CSV.lineEnding`. The cohort's long tables are
    /// these lines (docs/batch.md §7).
    ///
    /// A field that already is that text (canonical: what the report's CSV writer gives for its
    /// value, such as `12.5` in a column of 2 decimals; `ColumnKind.cell(fromCSVBytes:typed:)`)
    /// is copied as it is; only the others are parsed into a value and formatted again. The
    /// bytes are the same either way; the tests compare the two.
    ///
    /// - Parameter typed: also return the typed rows, as `rows(fromCSV:)` returns them.
    /// - Returns: the lines as UTF-8 bytes, and the typed rows when `typed` (else none).
    /// - Throws: `TableReadError` as `rows(fromCSV:)` does.
    /// - Complexity: O(text length).
    public func csvLines(fromCSV text: String, prefix: String, kept: [Int], typed: Bool) throws(TableReadError)
        -> (lines: [UInt8], rows: [[TableCell]])
    {
        var reader = LineWriter(schema: self, prefix: Array(prefix.utf8), kept: kept, typed: typed)
        var text = text
        let outcome: Result<Void, LineWriter.Stop> = text.withUTF8 { all in
            var bytes = all
            // A UTF-8 byte-order mark before the header is skipped, as rows(fromCSV:) does.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
            reader.lines.reserveCapacity(bytes.count + bytes.count / 8)
            do throws(LineWriter.Stop) {
                try CSV.fields(bytes) { (field) throws(LineWriter.Stop) in
                    try reader.field(field)
                } endOfRecord: {
                    () throws(LineWriter.Stop) in
                    try reader.endOfRecord()
                }
                return .success(())
            } catch { return .failure(error) }
        }
        switch outcome {
        case .success:
            guard reader.slots != nil else {
                throw TableReadError(
                    file: fileName, line: 1, column: nil, problem: "the file is empty (expected a header)")
            }
            return (reader.lines, reader.rows)
        case .failure(.failed(let error)): throw error
        case .failure(.columnsOutOfOrder):
            // A header in another order than the declaration's: rows, then each cell formatted.
            let rows = try self.rows(fromCSV: text)
            var lines: [UInt8] = []
            for row in rows {
                lines += prefix.utf8
                for i in kept {
                    lines.append(UInt8(ascii: ","))
                    lines += CSV.escape(row[i].csvText(columns[i].kind)).utf8
                }
                lines += CSV.lineEnding.utf8
            }
            return (lines, typed ? rows : [])
        }
    }
}

/// The state of `TableSchema.csvLines` while the fields go by: the header's columns, then for
/// each row its line, written field by field as the columns of the header follow those of the
/// declaration.
private struct LineWriter {
    enum Stop: Error {
        case failed(TableReadError)
        /// The header's columns are not in the declaration's order: lines cannot be written field
        /// by field.
        case columnsOutOfOrder
    }

    let schema: TableSchema
    let kinds: [ColumnKind]
    let prefix: [UInt8]
    let kept: [Int]
    let typed: Bool
    var lines: [UInt8] = []
    var rows: [[TableCell]] = []
    /// The header's names until it ends, then its columns (nil before).
    var header: [String] = []
    var slots: [Int]? = nil
    /// The record's line (1 is the header), its fields so far, the next of `kept` to write.
    var line = 1
    var fieldCount = 0
    var nextKept = 0
    /// The row being read (typed only), and the first field of the record that is not of its
    /// column's kind (reported after the field count, as rows(fromCSV:) does).
    var row: [TableCell] = []
    var bad: (column: Int, field: String)? = nil
    /// Consecutive kept fields copied as they are, with the commas between them: one run of the
    /// input, `runStart ..< runEnd`, appended at once (a daily.csv row is one run).
    var runStart: UnsafePointer<UInt8>? = nil
    var runEnd: UnsafePointer<UInt8>? = nil

    init(schema: TableSchema, prefix: [UInt8], kept: [Int], typed: Bool) {
        self.schema = schema
        kinds = schema.columns.map(\.kind)
        self.prefix = prefix
        self.kept = kept
        self.typed = typed
        if typed { row = [TableCell](repeating: .null, count: kinds.count) }
    }

    func failure(_ column: String?, _ problem: String) -> Stop {
        .failed(TableReadError(file: schema.fileName, line: line, column: column, problem: problem))
    }

    @inline(__always)
    mutating func field(_ field: UnsafeBufferPointer<UInt8>) throws(Stop) {
        guard let slots else {
            header.append(String(decoding: field, as: UTF8.self))
            return
        }
        if fieldCount == 0 { lines.append(contentsOf: prefix) }
        defer { fieldCount += 1 }
        guard fieldCount < slots.count, bad == nil else { return }
        let slot = slots[fieldCount]
        if nextKept < kept.count, kept[nextKept] < slot {
            flushRun()  // columns the header lacks: empty fields
            repeat {
                lines.append(UInt8(ascii: ","))
                nextKept += 1
            } while nextKept < kept.count && kept[nextKept] < slot
        }
        let isKept = nextKept < kept.count && kept[nextKept] == slot
        let kind = kinds[slot]
        guard let read = kind.cell(fromCSVBytes: field, typed: typed) else {
            bad = (slot, String(decoding: field, as: UTF8.self))
            return
        }
        if typed { row[slot] = read.cell }
        guard isKept else {
            flushRun()
            return
        }
        nextKept += 1
        if read.canonical, let start = field.baseAddress {
            // The field follows the run's last one and the comma after it: the run grows.
            if let end = runEnd, runStart != nil, start == end + 1 {
                runEnd = start + field.count
                return
            }
            flushRun()
            lines.append(UInt8(ascii: ","))
            runStart = start
            runEnd = start + field.count
            return
        }
        flushRun()
        lines.append(UInt8(ascii: ","))
        if read.canonical {
            lines.append(contentsOf: field)
        } else {
            lines.append(contentsOf: CSV.escape(read.cell.csvText(kind)).utf8)
        }
    }

    /// Appends the run being copied, if any.
    @inline(__always)
    mutating func flushRun() {
        guard let start = runStart, let end = runEnd else { return }
        lines.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
        runStart = nil
        runEnd = nil
    }

    mutating func endOfRecord() throws(Stop) {
        defer { line += 1 }
        guard let slots else {
            let slots: [Int]
            do throws(TableReadError) { slots = try schema.slots(forHeader: header) } catch { throw .failed(error) }
            guard zip(slots, slots.dropFirst()).allSatisfy({ $0 < $1 }) else { throw .columnsOutOfOrder }
            self.slots = slots
            return
        }
        guard fieldCount == slots.count else {
            throw failure(nil, "\(fieldCount) fields where the header has \(slots.count)")
        }
        if let bad {
            let column = schema.columns[bad.column]
            throw failure(column.name, "'\(printable(bad.field))' is not a \(column.kind.noun)")
        }
        flushRun()
        while nextKept < kept.count {
            lines.append(UInt8(ascii: ","))
            nextKept += 1
        }
        lines.append(0x0A)
        fieldCount = 0
        nextKept = 0
        if typed {
            rows.append(row)
            row = [TableCell](repeating: .null, count: kinds.count)
        }
    }
}

extension ColumnKind {
    /// `cell(fromCSV:)` over a field's UTF-8 bytes, and whether the field already is the text
    /// `TableCell.csvText` and `CSV.escape` write for that cell (canonical), so that it can be
    /// copied rather than formatted again. Canonical fields: an empty field; text without `,`
    /// `"` CR or LF; an integer without a leading zero or `-0`; a number of at most 15 digits,
    /// without a leading zero, with at most the column's decimals and no trailing zero after the
    /// point, not `-0` (its value is then `m / 10^k` for integers below 2^53, which one
    /// division gives correctly rounded, as the text's own reading; and its shortest digits are
    /// the field's, which the number format writes unchanged); `true`, `false`; every date
    /// (`yyyy-MM-dd`); a local time unless its offset is `-00:00`. Nil when the field is not of
    /// this kind.
    /// - Parameter typed: when false, the cell of a canonical field may be left `.null`.
    @inline(__always)
    func cell(fromCSVBytes f: UnsafeBufferPointer<UInt8>, typed: Bool) -> (cell: TableCell, canonical: Bool)? {
        if f.isEmpty { return (.null, true) }
        switch self {
        case .text:
            for b in f where b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 0x0D || b == 0x0A {
                return (.text(String(decoding: f, as: UTF8.self)), false)
            }
            return (typed ? .text(String(decoding: f, as: UTF8.self)) : .null, true)
        case .integer: return Self.integer(f)
        case .number(let decimals): return Self.number(f, decimals: decimals)
        case .boolean:
            if f.elementsEqual("true".utf8) { return (.boolean(true), true) }
            if f.elementsEqual("false".utf8) { return (.boolean(false), true) }
            return nil
        case .date:
            guard f.count == 10, let date = CivilDate(String(decoding: f, as: UTF8.self)) else { return nil }
            return (.date(date), true)
        case .timestamp:
            guard f.count == 25, let time = LocalTime(String(decoding: f, as: UTF8.self)) else { return nil }
            // `-00:00` reads as offset 0, which is written `+00:00`.
            return (.timestamp(time), !(f[19] == UInt8(ascii: "-") && time.utcOffsetSeconds == 0))
        }
    }

    /// An integer field's cell and whether it is canonical (see `cell(fromCSVBytes:typed:)`).
    private static func integer(_ f: UnsafeBufferPointer<UInt8>) -> (cell: TableCell, canonical: Bool)? {
        let negative = f[0] == UInt8(ascii: "-")
        let first = negative ? 1 : 0
        let digits = f.count - first
        guard digits > 0 else { return nil }
        guard digits <= 18 else {
            // Beyond 18 digits an Int may overflow: the text's own reading.
            return ColumnKind.integer.cell(fromCSV: String(decoding: f, as: UTF8.self)).map { ($0, false) }
        }
        var value = 0
        for k in first..<f.count {
            let d = f[k] &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            value = value * 10 + Int(d)
        }
        let canonical = f[first] != UInt8(ascii: "0") || (digits == 1 && !negative)
        return (.integer(negative ? -value : value), canonical)
    }

    /// A number field's cell and whether it is canonical with `decimals` decimals (see
    /// `cell(fromCSVBytes:typed:)`).
    private static func number(_ f: UnsafeBufferPointer<UInt8>, decimals: Int) -> (cell: TableCell, canonical: Bool)? {
        let negative = f[0] == UInt8(ascii: "-")
        let first = negative ? 1 : 0
        var mantissa = 0
        var digits = 0
        var fraction = 0
        var point = false
        var last: UInt8 = 0
        for k in first..<f.count {
            let b = f[k]
            if b == UInt8(ascii: ".") {
                guard !point else { return nil }
                point = true
                continue
            }
            let d = b &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            if digits < 18 { mantissa = mantissa * 10 + Int(d) }
            digits += 1
            if point { fraction += 1 }
            last = b
        }
        guard digits > fraction, !point || fraction > 0 else { return nil }
        guard digits <= 15 else {
            // More digits than a double keeps: the text's own reading.
            return ColumnKind.number(decimals: decimals).cell(fromCSV: String(decoding: f, as: UTF8.self)).map {
                ($0, false)
            }
        }
        // m and 10^k are exact doubles (m < 10^15 < 2^53, k ≤ 15): one correctly rounded division.
        var value = Double(mantissa)
        if fraction > 0 { value /= powersOfTen[fraction] }
        if negative { value = -value }
        let canonical =
            fraction <= decimals && (fraction == 0 || last != UInt8(ascii: "0"))
            && (digits - fraction == 1 || f[first] != UInt8(ascii: "0")) && !(negative && mantissa == 0)
        return (.number(value), canonical)
    }

    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]
}

extension ReportTable {
    /// The rows of CSV `text` that this table wrote, read back into the row type: each cell of a
    /// column declared on a plain property is written back into it (numbers as the file rounds
    /// them, to the column's decimals); a computed column is not read back.
    ///
    /// - Throws: `TableReadError` as `TableSchema.rows(fromCSV:)` does.
    /// - Precondition: the table is declared with a `blank` row (`daily`, `sleep`).
    public func values(fromCSV text: String) throws(TableReadError) -> [Row] {
        values(fromCells: try schema.rows(fromCSV: text))
    }

    /// The rows of typed `cells` (as `TableSchema.rows(fromCSV:)` reads them, in the columns'
    /// order), read back into the row type as `values(fromCSV:)` does.
    /// - Precondition: the table is declared with a `blank` row (`daily`, `sleep`).
    /// Inlinable, so that it is specialized for the row type where it is called (the cohort
    /// reads every person's days through it).
    @inlinable
    public func values(fromCells cells: [[TableCell]]) -> [Row] {
        guard let blank else { preconditionFailure("\(name) is not declared to be read back into rows") }
        let columns = self.columns
        var rows: [Row] = []
        rows.reserveCapacity(cells.count)
        for line in cells {
            var row = blank()
            for i in 0..<min(columns.count, line.count) {
                // A pattern, not `!= .null`: the derived `==` costs a call per cell.
                if case .null = line[i] { continue }
                columns[i].assign?(&row, line[i])
            }
            rows.append(row)
        }
        return rows
    }
}

extension ColumnKind {
    /// What a value of this kind is called in a message (`a number`).
    var noun: String {
        switch self {
        case .text: return "text"
        case .integer: return "whole number"
        case .number: return "number"
        case .boolean: return "true or false"
        case .date: return "date (yyyy-MM-dd)"
        case .timestamp: return "local time with its offset (ISO 8601)"
        }
    }
}

/// `text` with control characters shown as `\u{…}` and cut at 40 characters, for a message.
func printable(_ text: String) -> String {
    var out = ""
    for (n, scalar) in text.unicodeScalars.enumerated() {
        if n == 40 { return out + "…" }
        if scalar.properties.generalCategory == .control {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

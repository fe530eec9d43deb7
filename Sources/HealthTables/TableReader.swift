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
        var position: [String: Int] = [:]
        for (i, column) in columns.enumerated() { position[column.name] = i }
        var slots: [Int] = []
        var seen = Set<String>()
        for name in header {
            guard let slot = position[name] else {
                throw failure(1, nil, "'\(printable(name))' is not a column of \(self.name)")
            }
            guard seen.insert(name).inserted else { throw failure(1, nil, "column '\(name)' appears twice") }
            slots.append(slot)
        }
        guard header.first == columns.first?.name else {
            throw failure(1, nil, "the first column must be '\(columns.first?.name ?? "")'")
        }
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
            for i in 0..<min(columns.count, line.count) where line[i] != .null { columns[i].assign?(&row, line[i]) }
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

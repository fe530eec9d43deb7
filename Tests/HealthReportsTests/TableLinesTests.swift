import HealthAnalysis
import HealthExport
import SyntheticExport
import Testing

@testable import HealthTables

/// `TableSchema.csvLines`, the cohort's way of writing a person's rows again: a field already in
/// the writer's form is copied, the others are read and formatted. Either way the bytes must be
/// those of reading the cells (`rows(fromCSV:)`) and formatting each one (`csvText`, `escape`).
@Suite("Table lines copied or formatted")
struct TableLinesTests {
    /// One column of each kind, numbers at 0 to 3 decimals; `source` identifying (left out).
    static let schema = TableSchema(
        name: "t", fileName: "t.csv",
        columns: [
            ColumnSchema(name: "date", kind: .date),
            ColumnSchema(name: "source", kind: .text, identifying: true),
            ColumnSchema(name: "note", kind: .text),
            ColumnSchema(name: "n", kind: .integer),
            ColumnSchema(name: "a0", kind: .number(decimals: 0)),
            ColumnSchema(name: "a1", kind: .number(decimals: 1)),
            ColumnSchema(name: "a2", kind: .number(decimals: 2)),
            ColumnSchema(name: "a3", kind: .number(decimals: 3)),
            ColumnSchema(name: "b", kind: .boolean),
            ColumnSchema(name: "t", kind: .timestamp),
        ])
    static let kept = schema.columns.indices.filter { !schema.columns[$0].identifying }

    /// The lines as the cells read back and formatted one by one write them.
    static func reference(_ text: String, prefix: String) throws(TableReadError) -> String {
        let rows = try schema.rows(fromCSV: text)
        return rows.map { row in
            prefix + kept.map { "," + CSV.escape(row[$0].csvText(schema.columns[$0].kind)) }.joined() + "\n"
        }.joined()
    }

    /// `csvLines` and the reference give the same bytes, the same typed rows, or the same error.
    static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let expected: Result<String, TableReadError>
        do throws(TableReadError) { expected = .success(try reference(text, prefix: "p1")) } catch {
            expected = .failure(error)
        }
        do throws(TableReadError) {
            let got = try schema.csvLines(fromCSV: text, prefix: "p1", kept: kept, typed: true)
            let lines = String(decoding: got.lines, as: UTF8.self)
            #expect(expected == .success(lines), sourceLocation: sourceLocation)
            #expect(got.rows == (try? schema.rows(fromCSV: text)), sourceLocation: sourceLocation)
            let untyped = try schema.csvLines(fromCSV: text, prefix: "p1", kept: kept, typed: false)
            #expect(untyped.lines == got.lines && untyped.rows.isEmpty, sourceLocation: sourceLocation)
            return lines
        } catch {
            #expect(expected == .failure(error), sourceLocation: sourceLocation)
            return "error: \(error)"
        }
    }

    static let header = schema.header.joined(separator: ",") + "\n"

    /// A row with `field` in column `name`, the others empty (the date 2025-01-01).
    static func row(_ name: String, _ field: String) -> String {
        schema.columns.map { $0.name == "date" ? "2025-01-01" : $0.name == name ? field : "" }.joined(separator: ",")
            + "\n"
    }

    /// Fields in and out of the writer's form, and what the line keeps of them (worked by hand
    /// from the CSV rules at the top of CSV.swift: decimals rounded half away from zero on the decimal
    /// digits, trailing zeros trimmed, no `-0`, offsets `+00:00`):
    @Test(
        arguments: [
            ("a1", "12.5", "12.5"),  // canonical: copied
            ("a1", "12.50", "12.5"),  // trailing zero trimmed
            ("a1", "1.25", "1.3"),  // 2 decimals in a 1-decimal column: 1.25 → 1.3
            ("a0", "-0", "0"),  // no negative zero
            ("a2", "-0.004", "0"),  // rounds to zero: no sign
            ("a2", "007.5", "7.5"),  // leading zeros dropped
            ("a3", "0.001", "0.001"),
            ("a3", "123456789012.345", "123456789012.345"),  // 15 digits: copied
            ("a3", "1234567890123.4567", "1234567890123.457"),  // 17 digits: read as text, rounded
            ("a0", "1e5", nil),  // not a number of the writer: an error
            ("n", "007", "7"),
            ("n", "-0", "0"),
            ("n", "-12", "-12"),
            ("n", "9223372036854775807", "9223372036854775807"),  // Int.max, 19 digits: read as text
            ("n", "-0009223372036854775807", "-9223372036854775807"),
            ("n", "9223372036854775808", nil),  // beyond Int: an error
            ("n", "1.5", nil),
            ("b", "true", "true"),
            ("b", "yes", nil),
            ("note", "\"plain\"", "plain"),  // quotes not needed: dropped
            ("note", "\"a,b\"", "\"a,b\""),
            ("note", "\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\""),
            ("note", "a\rb", "ab"),  // a CR outside quotes is dropped by the reader
            ("t", "2025-10-02T06:31:00+02:00", "2025-10-02T06:31:00+02:00"),
            ("t", "2025-10-02T06:31:00-00:00", "2025-10-02T06:31:00+00:00"),  // offset 0 is +00:00
            ("t", "2025-10-02T24:00:00+02:00", nil),
            ("date", "2025-02-29", nil),
        ] as [(String, String, String?)])
    func aFieldIsCopiedOrFormattedAsItsCellIsWritten(name: String, field: String, kept: String?) throws {
        let text = Self.header + (name == "date" ? "\(field),,,,,,,,,\n" : Self.row(name, field))
        let lines = try Self.check(text)
        if let kept {
            let fields = Self.kept.map { Self.schema.columns[$0].name }
            let cells = fields.map { $0 == "date" ? (name == "date" ? kept : "2025-01-01") : $0 == name ? kept : "" }
            #expect(lines == "p1," + cells.joined(separator: ",") + "\n")
        } else {
            #expect(lines.hasPrefix("error: t.csv line 2 (column \(name)): '"))
        }
    }

    /// Numbers of every shape the reader takes (1 to 20 digits, integers to 18, a point anywhere, signs, leading
    /// and trailing zeros) in the four number columns and the integer column, 2,000 rows in one
    /// file: the same bytes and rows as the cells formatted one by one.
    @Test func randomNumbersGiveTheBytesOfTheirFormattedCells() throws {
        var random = SplitMix64(state: 0x35)  // seeded: a failure can be run again
        var text = Self.header
        for _ in 0..<2000 {
            func number(point: Bool) -> String {
                // Integers to 18 digits (19 and more may not fit an Int: cases of their own above).
                let digits = Int.random(in: 1...(point ? 20 : 18), using: &random)
                var s = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
                if Bool.random(using: &random) {  // without leading zeros
                    let trimmed = s.drop { $0 == "0" }
                    s = trimmed.isEmpty ? "0" : String(trimmed)
                }
                if point, s.count > 1, Bool.random(using: &random) {
                    let at = Int.random(in: 1..<s.count, using: &random)
                    s = String(s.prefix(at)) + "." + String(s.dropFirst(at))
                }
                return (Bool.random(using: &random) ? "-" : "") + s
            }
            let cells =
                ["2025-01-01", "", "x", number(point: false)] + (0..<4).map { _ in number(point: true) } + [
                    "false", "",
                ]
            text += cells.joined(separator: ",") + "\n"
        }
        let lines = try Self.check(text)
        #expect(!lines.hasPrefix("error"))
    }

    /// A header without some columns (an earlier version's file) leaves them empty between the
    /// copied ones; a quoted field and one to format sit between copied ones. The kept columns
    /// are date, note, n, a0, a1, a2, a3, b, t; this header has date, note, a1, a2, t, so each
    /// line is date, note, two empty (n, a0), a1, a2, two empty (a3, b), t:
    @Test func missingColumnsQuotedAndFormattedFieldsBetweenCopiedOnes() throws {
        let text = """
            date,note,a1,a2,t
            2025-01-01,"x",1.5,2.25,2025-10-02T06:31:00+02:00
            2025-01-02,plain,1.50,3,
            2025-01-03,"a,b",,0.125,2025-10-02T06:31:00-00:00

            """
        #expect(
            try Self.check(text) == """
                p1,2025-01-01,x,,,1.5,2.25,,,2025-10-02T06:31:00+02:00
                p1,2025-01-02,plain,,,1.5,3,,,
                p1,2025-01-03,"a,b",,,,0.13,,,2025-10-02T06:31:00+00:00

                """)
    }

    /// What the report writer writes (DecimalFormat, trailing zeros trimmed) is canonical: every
    /// such field is copied, never formatted again, and the line is the row without its
    /// identifying column.
    @Test func theWritersNumbersAreCopiedAsTheyAre() throws {
        var random = SplitMix64(state: 0x36)
        var written = Self.header
        var expected = ""
        for _ in 0..<2000 {
            let value = Double.random(in: -1e6...1e6, using: &random) / [1, 7, 1000][Int.random(in: 0...2)]
            let cells = (0...3).map { DecimalFormat(decimals: $0, trimsTrailingZeros: true).string(value) ?? "" }
            for (d, cell) in cells.enumerated() {
                #expect(ColumnKind.number(decimals: d).canonical(cell), "\(cell) at \(d) decimals")
            }
            let rest = "\(Int(value)),\(cells.joined(separator: ",")),true,2025-10-02T06:31:00+02:00"
            written += "2025-01-01,Alex’s Watch,a note,\(rest)\n"
            expected += "p1,2025-01-01,a note,\(rest)\n"
        }
        #expect(try Self.check(written) == expected)
    }
}

extension ColumnKind {
    /// True when `field` takes the copy path of `csvLines`.
    fileprivate func canonical(_ field: String) -> Bool {
        var field = field
        return field.withUTF8 { cell(fromCSVBytes: $0, typed: false)?.canonical ?? false }
    }
}

extension SplitMix64: RandomNumberGenerator {}

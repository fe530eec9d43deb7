import HealthExport

// CSV as every CSV file of a report writes it (RFC 4180 quoting, Unix line endings):
//
// - UTF-8, no byte-order mark; a header row, then one row per record; `,` between fields.
// - Every line ends with LF (`\n`), including the last: what pandas, DuckDB and csvkit write on
//   Unix and what `grep`, `awk` and `wc -l` expect; every CSV reader (spreadsheets included)
//   reads it. RFC 4180's CRLF is not used: a CR left on the last field of each line breaks
//   shell tools. (`.gitattributes` keeps git from converting the committed reports.)
// - A field is quoted when it contains `,`, `"`, CR or LF; a quote inside is doubled. Other
//   fields (including ones with spaces or non-ASCII text such as U+2019 or emoji) are not.
// - Numbers use `.` as the decimal point, never an exponent and never a thousands separator;
//   each column has a fixed number of decimals with trailing zeros trimmed (`12.5`, `12`).
// - No value (nil, NaN, infinity) is an empty field, never `0`.
// - Booleans are `true` / `false`.

/// One field of a CSV row, before formatting.
enum CSVValue: Hashable, Sendable {
    case text(String)
    case integer(Int?)
    /// A number written with at most `decimals` digits after the point, trailing zeros trimmed.
    case number(Double?, decimals: Int)
    case boolean(Bool)
    case date(CivilDate)

    /// The field as written, before quoting.
    var formatted: String {
        switch self {
        case .text(let text): return text
        case .integer(let value): return value.map(String.init) ?? ""
        case .number(let value, let decimals):
            guard let value else { return "" }
            return DecimalFormat(decimals: decimals, trimsTrailingZeros: true).string(value) ?? ""
        case .boolean(let value): return value ? "true" : "false"
        case .date(let date): return date.description
        }
    }
}

/// A column of a CSV file: its header name and how a row's value is read.
struct CSVColumn<Row>: Sendable {
    var name: String
    var value: @Sendable (Row) -> CSVValue

    init(_ name: String, _ value: @escaping @Sendable (Row) -> CSVValue) {
        self.name = name
        self.value = value
    }
}

/// The CSV conventions of the reports (see the comment at the top of this file).
enum CSV {
    /// The line terminator of every row, including the header and the last row.
    static let lineEnding = "\n"

    /// `field`, quoted when it contains a comma, a double quote, CR or LF (quotes doubled).
    static func escape(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { byte in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0D || byte == 0x0A
        }
        guard needsQuotes else { return field }
        var quoted = "\""
        for character in field.unicodeScalars {
            if character == "\"" { quoted.unicodeScalars.append("\"") }
            quoted.unicodeScalars.append(character)
        }
        quoted.append("\"")
        return quoted
    }

    /// One line: the fields escaped, joined by commas, terminated by `lineEnding`.
    static func line(_ fields: some Sequence<String>) -> String {
        fields.lazy.map(escape).joined(separator: ",") + lineEnding
    }

    /// A whole file: the header row, then one line per row.
    ///
    /// - Complexity: O(rows × columns).
    static func table<Row>(_ columns: [CSVColumn<Row>], rows: some Sequence<Row>) -> String {
        var text = line(columns.map(\.name))
        for row in rows {
            text += line(columns.map { $0.value(row).formatted })
        }
        return text
    }
}

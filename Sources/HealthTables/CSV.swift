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

/// The CSV conventions of the reports (see the comment at the top of this file).
public enum CSV {
    /// The line terminator of every row, including the header and the last row.
    public static let lineEnding = "\n"

    /// `field`, quoted when it contains a comma, a double quote, CR or LF (quotes doubled).
    public static func escape(_ field: String) -> String {
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
    public static func line(_ fields: some Sequence<String>) -> String {
        fields.lazy.map(escape).joined(separator: ",") + lineEnding
    }

    /// The records of CSV `text` written by these conventions (RFC 4180 quoting; LF or CRLF line
    /// ends): one array of fields per line, the header included. A quoted field keeps its commas,
    /// quotes and line breaks. Used to read a report's own CSV files back (the cohort tables).
    ///
    /// - Complexity: O(text length).
    public static func parse(_ text: String) -> [[String]] {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `parse` over the UTF-8 bytes: the separators (`,` `"` CR LF) are ASCII, which never occurs
    /// inside a multi-byte sequence, so a field's bytes are gathered and decoded once.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> [[String]] {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        field.reserveCapacity(256)
        var quoted = false
        var i = 0
        let n = bytes.count
        func take() -> String {
            let text = String(decoding: field, as: UTF8.self)
            field.removeAll(keepingCapacity: true)
            return text
        }
        while i < n {
            let c = bytes[i]
            i += 1
            if quoted {
                if c == quote {
                    if i < n && bytes[i] == quote {
                        field.append(quote)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case quote: quoted = true
            case comma: row.append(take())
            case 0x0D: break
            case 0x0A:
                row.append(take())
                rows.append(row)
                row = []
                row.reserveCapacity(rows[rows.count - 1].count)
            default: field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(take())
            rows.append(row)
        }
        return rows
    }
}

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

    /// `parse` over the UTF-8 bytes (`fields` splits them).
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        fields(bytes) { field in
            row.append(String(decoding: field, as: UTF8.self))
        } endOfRecord: {
            rows.append(row)
            row = []
            row.reserveCapacity(rows[rows.count - 1].count)
        }
        return rows
    }

    /// Splits CSV bytes written by these conventions into fields, as `parse` reads them: `field`
    /// gets each field's bytes (outer quotes removed, doubled quotes halved, a CR outside quotes
    /// dropped; valid during the call only), `endOfRecord` follows each record's last field. A
    /// last line without its LF is a record unless nothing is on it.
    ///
    /// The separators (`,` `"` CR LF) are ASCII, which never occurs inside a multi-byte
    /// sequence. A field without a quote or CR (nearly every field a report writes) is passed as
    /// a slice of `bytes`, never copied; the others are gathered in one scratch buffer.
    /// - Complexity: O(bytes.count).
    @inline(__always)
    static func fields<E: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, field: (UnsafeBufferPointer<UInt8>) throws(E) -> Void,
        endOfRecord: () throws(E) -> Void
    ) throws(E) {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let n = bytes.count
        var fieldsInRecord = 0
        var scratch: [UInt8] = []
        var i = 0
        while i < n {
            // A field without a quote or CR: a slice of the input.
            let start = i
            var c: UInt8 = 0
            while i < n {
                c = bytes[i]
                if c == comma || c == 0x0A || c == quote || c == 0x0D { break }
                i += 1
            }
            if i == n {
                if i > start || fieldsInRecord > 0 {
                    try field(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    try endOfRecord()
                }
                return
            }
            if c == comma || c == 0x0A {
                try field(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                i += 1
                if c == comma {
                    fieldsInRecord += 1
                } else {
                    try endOfRecord()
                    fieldsInRecord = 0
                }
                continue
            }
            // A quote or CR: the field is gathered byte by byte until its end (RFC 4180 quoting).
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            var quoted = false
            var end: UInt8? = nil
            while i < n {
                let c = bytes[i]
                i += 1
                if quoted {
                    if c == quote {
                        if i < n && bytes[i] == quote {
                            scratch.append(quote)
                            i += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        scratch.append(c)
                    }
                    continue
                }
                if c == comma || c == 0x0A {
                    end = c
                    break
                }
                if c == quote {
                    quoted = true
                } else if c != 0x0D {
                    scratch.append(c)
                }
            }
            if end == nil, scratch.isEmpty, fieldsInRecord == 0 { return }
            try scratch.withUnsafeBufferPointer { (b) throws(E) in try field(b) }
            if end == comma {
                fieldsInRecord += 1
            } else {
                try endOfRecord()
                fieldsInRecord = 0
            }
        }
        // The input ends just after a comma: that record's last field is empty.
        if fieldsInRecord > 0 {
            try field(UnsafeBufferPointer(start: nil, count: 0))
            try endOfRecord()
        }
    }
}

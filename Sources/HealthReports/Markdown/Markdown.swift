// Small helpers for writing GitHub-flavoured Markdown deterministically.

enum Markdown {
    /// `text` as literal Markdown inline text: characters that could start emphasis, code,
    /// links, HTML, tables or strikethrough are backslash-escaped, `&` becomes `&amp;`, and
    /// line breaks become spaces (so a value can never break out of its line or table cell).
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "-" where index == 0, "+" where index == 0:
                // Would start a list item at the start of a line or list item.
                escaped.unicodeScalars.append("\\")
                escaped.unicodeScalars.append(scalar)
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "#":
                escaped.unicodeScalars.append("\\")
                escaped.unicodeScalars.append(scalar)
            case "&":
                escaped.append("&amp;")
            case "\r", "\n", "\u{2028}", "\u{2029}":
                escaped.append(" ")
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `text` as inline code, or escaped text when it contains a backtick or a line break.
    static func code(_ text: String) -> String {
        if text.isEmpty || text.contains(where: { $0 == "`" || $0.isNewline }) { return escape(text) }
        return "`" + text + "`"
    }

    typealias Alignment = DocumentTable.Alignment

    /// A table. Cells are Markdown already (escape text cells with `escape(_:)`); an empty cell
    /// is written as a single space so that every row keeps its columns.
    static func table(_ header: [String], _ alignments: [Alignment], _ rows: [[String]]) -> String {
        precondition(header.count == alignments.count, "one alignment per column")
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |\n"
        }
        var text = line(header)
        text += "|" + alignments.map { $0 == .left ? "---" : "---:" }.joined(separator: "|") + "|\n"
        for row in rows {
            precondition(row.count == header.count, "one cell per column")
            text += line(row)
        }
        return text
    }
}

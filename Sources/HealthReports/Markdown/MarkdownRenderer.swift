// `report.md`: the report document (`ReportDocument`) as GitHub-flavoured Markdown. Blocks are
// separated by one blank line; the program's words are written as they are, text from the input
// is escaped (`Markdown.escape`), charts are images beside the file linked by relative paths
// (GitHub renders them), each with alt text that says what it shows.

enum MarkdownRenderer {
    /// The text of `report.md` for `document`.
    static func render(_ document: ReportDocument) -> String {
        // Every block ends with a line break; an empty list writes nothing but keeps its blank
        // line, as report.md always had it.
        document.blocks.map(block).joined(separator: "\n")
    }

    static func block(_ block: Block) -> String {
        switch block {
        case .heading(let level, let runs):
            return String(repeating: "#", count: level) + " " + inline(runs) + "\n"
        case .paragraph(let runs):
            return inline(runs) + "\n"
        case .bullets(let items):
            return items.map { item in
                "- " + inline(item.content) + "\n" + item.children.map { "  - " + inline($0) + "\n" }.joined()
            }.joined()
        case .numbered(let items):
            return items.enumerated().map { "\($0.offset + 1). " + inline($0.element) + "\n" }.joined()
        case .table(let table):
            return Markdown.table(table.header, table.alignments, table.rows.map { $0.map(inline) })
        case .warning(let runs):
            return "> [!WARNING]\n> " + inline(runs) + "\n"
        case .chart(let chart):
            let alt = chart.altText.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
            return "![\(alt)](\(chart.fileName))\n"
        }
    }

    static func inline(_ runs: [Inline]) -> String {
        runs.map { run -> String in
            switch run {
            case .text(let s): return s
            case .input(let s): return Markdown.escape(s)
            case .code(let s): return Markdown.code(s)
            case .strong(let inner): return "**" + inline(inner) + "**"
            case .link(let s, let href): return "[\(s)](\(href))"
            case .lineBreak: return "\n"
            }
        }.joined()
    }
}

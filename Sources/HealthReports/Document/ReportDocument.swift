// The report as a document: headings, paragraphs, lists, tables and charts, with the text in typed
// runs (the program's own words, text from the input, code, links). The sections
// (Document/Sections/) build it once from the analysis result; `report.md`
// (Markdown/MarkdownRenderer.swift) and `report.html` (HTML/HTMLRenderer.swift) are two renderings
// of the same document, so that a number, a sentence or a table is decided in one place only.

/// A run of text inside a block.
enum Inline: Equatable {
    /// The program's own words and the numbers it formatted: safe in every format as they are
    /// (Markdown writes them unchanged; HTML escapes `<`, `>`, `&`).
    case text(String)
    /// Text from the input (source and activity names, notes, the generator): Markdown escapes
    /// every character that could start markup (`Markdown.escape`), HTML escapes it as text.
    case input(String)
    /// Inline code: a zone name, a file name, a command.
    case code(String)
    case strong([Inline])
    /// A link to a file beside the report (`daily.csv`); never to the network.
    case link(String, href: String)
    /// A line break inside a paragraph.
    case lineBreak
}

/// One item of a list, with an optional list of its own below it.
struct ListItem: Equatable {
    var content: [Inline]
    var children: [[Inline]] = []
}

/// A table: a header of the program's words, one alignment per column, rows of typed cells.
struct DocumentTable: Equatable {
    enum Alignment: Equatable { case left, right }

    var header: [String]
    var alignments: [Alignment]
    var rows: [[[Inline]]]

    init(_ header: [String], _ alignments: [Alignment], _ rows: [[[Inline]]]) {
        precondition(header.count == alignments.count, "one alignment per column")
        precondition(rows.allSatisfy { $0.count == header.count }, "one cell per column")
        self.header = header
        self.alignments = alignments
        self.rows = rows
    }

    /// A table whose cells are all the program's words and numbers (no text from the input).
    init(_ header: [String], _ alignments: [Alignment], text rows: [[String]]) {
        self.init(header, alignments, rows.map { $0.map { [Inline.text($0)] } })
    }
}

/// A block of the report, in reading order.
enum Block: Equatable {
    /// `level` 1 for the title, 2 for a section.
    case heading(level: Int, [Inline])
    case paragraph([Inline])
    /// An unordered list; an empty one is no list (but still a block: see `MarkdownRenderer`).
    case bullets([ListItem])
    /// An ordered list numbered from 1.
    case numbered([[Inline]])
    case table(DocumentTable)
    /// A warning the reader must not miss.
    case warning([Inline])
    /// A chart (`ReportCharts`): a linked image in Markdown, inline SVG in HTML.
    case chart(ChartFile)
}

/// The whole report: its blocks in reading order.
struct ReportDocument: Equatable {
    var blocks: [Block] = []

    /// The title (the first heading) as plain text, or "Activity report".
    var title: String {
        for case .heading(1, let runs) in blocks { return Inline.plain(runs) }
        return "Activity report"
    }
}

extension Inline {
    /// The program's words with inline code written between backticks, as runs: "given with
    /// `--tz`" is the text "given with " and the code "--tz". Only for the program's own words
    /// (a backtick from the input would split them): text from the input is `.input`.
    static func words(_ phrase: String) -> [Inline] {
        var runs: [Inline] = []
        for (k, part) in phrase.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        where !part.isEmpty {
            runs.append(k % 2 == 0 ? .text(String(part)) : .code(String(part)))
        }
        return runs
    }

    /// The runs as plain text, without any markup.
    static func plain(_ runs: [Inline]) -> String {
        runs.map { run -> String in
            switch run {
            case .text(let s), .input(let s), .code(let s), .link(let s, _): return s
            case .strong(let inner): return plain(inner)
            case .lineBreak: return " "
            }
        }.joined()
    }
}

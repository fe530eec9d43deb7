// `report.html`: the report document (`ReportDocument`) as one self-contained HTML page, the
// same sections, tables and charts as `report.md` (docs/outputs.md, "report.html"):
// - self-contained: the charts are inline SVG, the style sheet is inline (`HTMLStyle`); no
//   script, no image file, no font, no reference to the network (links go only to the files
//   beside it, such as `daily.csv`);
// - readable on a phone: a wide table scrolls sideways inside its own box, never the page, and
//   charts scale to the width of the page;
// - printable: a print style sheet; a chart or a table row is never split across pages;
// - every text is escaped as HTML (`&`, `<`, `>`, and `"` in attributes), text from the input
//   (source names, notes) included.
// Deterministic, like report.md: the same document gives the same bytes.

enum HTMLRenderer {
    /// The text of `report.html` for `document`.
    static func render(_ document: ReportDocument) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>" + escape(document.title) + "</title>\n"
        html += "<style>\n" + HTMLStyle.sheet + "</style>\n</head>\n<body>\n<main>\n"
        for block in document.blocks { html += self.block(block) }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    static func block(_ block: Block) -> String {
        switch block {
        case .heading(let level, let runs):
            return "<h\(level)>" + inline(runs) + "</h\(level)>\n"
        case .paragraph(let runs):
            return "<p>" + inline(runs) + "</p>\n"
        case .bullets(let items):
            guard !items.isEmpty else { return "" }
            return "<ul>\n" + items.map(item).joined() + "</ul>\n"
        case .numbered(let items):
            guard !items.isEmpty else { return "" }
            return "<ol>\n" + items.map { "<li>" + inline($0) + "</li>\n" }.joined() + "</ol>\n"
        case .table(let table):
            return self.table(table)
        case .warning(let runs):
            return "<p class=\"warning\"><strong>Warning:</strong> " + inline(runs) + "</p>\n"
        case .chart(let chart):
            return "<figure>\n" + inlineSVG(chart.svg) + "</figure>\n"
        }
    }

    static func item(_ item: ListItem) -> String {
        var html = "<li>" + inline(item.content)
        if !item.children.isEmpty {
            html += "\n<ul>\n" + item.children.map { "<li>" + inline($0) + "</li>\n" }.joined() + "</ul>\n"
        }
        return html + "</li>\n"
    }

    /// The table inside a box of its own that scrolls sideways when the table is wider than the
    /// page (`.table` in `HTMLStyle`); numbers right-aligned as in report.md.
    static func table(_ table: DocumentTable) -> String {
        func cellClass(_ k: Int) -> String { table.alignments[k] == .right ? " class=\"n\"" : "" }
        var html = "<div class=\"table\"><table>\n<thead><tr>"
        for (k, title) in table.header.enumerated() { html += "<th\(cellClass(k))>" + escape(title) + "</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            html += "<tr>"
            for (k, cell) in row.enumerated() { html += "<td\(cellClass(k))>" + inline(cell) + "</td>" }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    static func inline(_ runs: [Inline]) -> String {
        runs.map { run -> String in
            switch run {
            case .text(let s), .input(let s): return escape(s)
            case .code(let s): return "<code>" + escape(s) + "</code>"
            case .strong(let inner): return "<strong>" + inline(inner) + "</strong>"
            case .link(let s, let href): return "<a href=\"" + escape(href) + "\">" + escape(s) + "</a>"
            case .lineBreak: return "<br>\n"
            }
        }.joined()
    }

    /// A chart file's SVG as an element of the page: without its XML declaration (an SVG file's
    /// first line, `SVGCanvas.document`). Its text is escaped as XML already.
    static func inlineSVG(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
        return String(svg[svg.index(after: end)...])
    }

    /// `text` as HTML text or attribute value: `&`, `<`, `>` and `"` as character references, as
    /// the charts escape their text (`SVGCanvas.escape`; attributes are double-quoted); a NUL or
    /// other control character (never valid in HTML text) as U+FFFD, a carriage return as a space.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return SVGCanvas.escape(text)
        }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\t": cleaned.append(scalar)
            case "\r": cleaned.append(" ")
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): cleaned.append("\u{FFFD}")
            default: cleaned.append(scalar)
            }
        }
        return SVGCanvas.escape(String(cleaned))
    }
}

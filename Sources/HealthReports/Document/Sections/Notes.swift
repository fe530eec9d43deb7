import HealthAnalysis
import HealthExport

// The report: notes of the analysis and the reader's diagnostics.

extension ReportSections {
    mutating func notes() {
        heading("Notes")
        var lines = result.notes.map(Self.line)
        // The route files the export names but does not hold (also on standard error without --quiet).
        if let route = ReportWriter.routeWarning(result, routes: context.routes) { lines.append("warning: " + route) }
        add(lines.isEmpty ? .paragraph([.text("None.")]) : bullets(lines))
        heading("Reader diagnostics")
        add(context.diagnostics.isEmpty ? .paragraph([.text("None.")]) : bullets(context.diagnostics))
    }

    /// A note as its bullet says it: a warning marked as one.
    static func line(_ note: AnalysisNote) -> String {
        switch note.severity {
        case .warning: return "warning: " + note.text
        case .info: return note.text
        }
    }
}

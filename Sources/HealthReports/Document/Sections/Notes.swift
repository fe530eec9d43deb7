import HealthAnalysis
import HealthExport

// The report: notes of the analysis and the reader's diagnostics.

extension ReportSections {
    mutating func notes() {
        heading("Notes")
        add(result.notes.isEmpty ? .paragraph([.text("None.")]) : bullets(result.notes.map(Self.line)))
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

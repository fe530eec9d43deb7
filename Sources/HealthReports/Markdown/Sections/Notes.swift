import HealthAnalysis
import HealthExport

// report.md: Notes of the analysis and the reader's diagnostics.

extension MarkdownReport {
    mutating func notes() {
        text += "## Notes\n\n"
        text += result.notes.isEmpty ? "None.\n\n" : bullets(result.notes.map(Self.line))
        text += "## Reader diagnostics\n\n"
        text += context.diagnostics.isEmpty ? "None.\n\n" : bullets(context.diagnostics)
    }

    /// A note as its bullet says it: a warning marked as one.
    static func line(_ note: AnalysisNote) -> String {
        switch note.severity {
        case .warning: return "warning: " + note.text
        case .info: return note.text
        }
    }
}

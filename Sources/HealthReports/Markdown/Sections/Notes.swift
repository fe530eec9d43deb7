import HealthAnalysis
import HealthExport

// report.md: Notes of the analysis and the reader's diagnostics.

extension MarkdownReport {
    mutating func notes() {
        text += "## Notes\n\n"
        text += result.notes.isEmpty ? "None.\n\n" : bullets(result.notes)
        text += "## Reader diagnostics\n\n"
        text += context.diagnostics.isEmpty ? "None.\n\n" : bullets(context.diagnostics)
    }
}

import HealthAnalysis

extension AnalysisResult {
    /// The texts of the notes, in order, for tests that look for a sentence.
    var noteTexts: [String] { notes.map(\.text) }

    /// The texts of the notes of severity `.warning`, in order.
    var warningTexts: [String] { notes.filter { $0.severity == .warning }.map(\.text) }
}

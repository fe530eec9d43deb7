import HealthReports

@testable import HealthAnalysis

extension AnalysisResult {
    /// The texts of the notes, in order, for tests that look for a sentence.
    var noteTexts: [String] { notes.map(\.text) }

    /// The texts of the notes of severity `.warning`, in order.
    var warningTexts: [String] { notes.filter { $0.severity == .warning }.map(\.text) }
}

extension ZoneTimeline.Period {
    /// The clause report.md's zone list shows after this period (HealthReports' `TimeZonePeriod.changeText`).
    var changeText: String? {
        TimeZonePeriod(identifier: identifier, reason: reason, change: change, instant: instant).changeText
    }
}

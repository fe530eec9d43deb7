/// One note of the analysis for the report: what it says and how much it matters.
///
/// The text is a sentence or more without any prefix: whoever shows a note marks a warning from
/// its `severity` (report.md in its Notes section, the command line on standard error).
public struct AnalysisNote: Hashable, Sendable {
    /// How much a note matters to the reader of the report.
    public enum Severity: Hashable, Sendable {
        /// The numbers may be wrong or missing (days cut at a fixed offset, rings that disagree with
        /// the ActivitySummary, a window without data): the command line repeats it on standard error.
        case warning
        /// What helps read the numbers (dropped samples, left-out runs, filler sources, the zone chosen).
        case info
    }

    public var severity: Severity
    public var text: String

    public init(severity: Severity, text: String) {
        self.severity = severity
        self.text = text
    }

    /// A note of severity `.warning`.
    public static func warning(_ text: String) -> AnalysisNote { AnalysisNote(severity: .warning, text: text) }

    /// A note of severity `.info`.
    public static func info(_ text: String) -> AnalysisNote { AnalysisNote(severity: .info, text: text) }
}

/// One note of the analysis for the report: what it says and how much it matters.
///
/// The message is a sentence or more without any prefix, or a typed value the report writes as
/// one (`AnalysisNote.text` in HealthReports): whoever shows a note marks a warning from its
/// `severity` (report.md in its Notes section, the command line on standard error).
public struct AnalysisNote: Hashable, Sendable {
    /// How much a note matters to the reader of the report.
    public enum Severity: Hashable, Sendable {
        /// The numbers may be wrong or missing (days cut at a fixed offset, rings that disagree with
        /// the ActivitySummary, a window without data): the command line repeats it on standard error.
        case warning
        /// What helps read the numbers (dropped samples, left-out runs, filler sources, the zone chosen).
        case info
    }

    /// What a note says: a sentence, or a typed value the report writes as one.
    public enum Message: Hashable, Sendable {
        /// A sentence, as the report shows it.
        case text(String)
        /// A note of the zone timeline (docs/days-and-time-zones.md §5, §6); HealthReports writes
        /// its sentence.
        case zone(ZoneNote)
    }

    public var severity: Severity
    public var message: Message

    public init(severity: Severity, message: Message) {
        self.severity = severity
        self.message = message
    }

    /// A note of severity `.warning` that says `text`.
    public static func warning(_ text: String) -> AnalysisNote {
        AnalysisNote(severity: .warning, message: .text(text))
    }

    /// A note of severity `.info` that says `text`.
    public static func info(_ text: String) -> AnalysisNote { AnalysisNote(severity: .info, message: .text(text)) }
}

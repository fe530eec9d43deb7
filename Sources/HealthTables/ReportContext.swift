import HealthExport

/// What a report says about where its numbers came from: the input, the export and the
/// generator, and what the reader reported while reading.
///
/// Nothing here may depend on when the report is generated: a report regenerated from the same
/// input must be byte-identical.
public struct ReportContext: Hashable, Sendable {
    /// The input file's name as the user gave it (`export.zip`), shown in the report's header.
    public var inputFileName: String
    /// The export's `ExportDate`; when nil, the report uses `AnalysisResult.exportDate`.
    public var exportDate: Timestamp?
    /// The `HealthKit Export Version` of the export (`14`), when known.
    public var exportVersion: String?
    /// The program and its version, e.g. `health-analyzer 0.1.0`.
    public var generator: String
    /// The reader's diagnostics, one line each, e.g.
    /// `3 records skipped: unknown unit 'foo' (first at line 12)`.
    public var diagnostics: [String]
    /// The export's route files (`workout-routes/*.gpx`), for `workouts.csv`; nil when they were
    /// not looked for (then every route column but the file name is empty).
    public var routes: RouteFileIndex?

    public init(
        inputFileName: String, exportDate: Timestamp? = nil, exportVersion: String? = nil,
        generator: String = "health-analyzer 0.1.0", diagnostics: [String] = []
    ) {
        self.inputFileName = inputFileName
        self.exportDate = exportDate
        self.exportVersion = exportVersion
        self.generator = generator
        self.diagnostics = diagnostics
    }
}

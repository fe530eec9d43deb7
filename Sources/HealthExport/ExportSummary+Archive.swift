// What a store of exports (the SQLite archive of HealthArchive) needs to hand the same values
// back as the reader does: a public way to build an `ExportSummary`, and the export's text of
// a category value.

extension ExportSummary {
    /// A summary built by hand, for consumers that replay stored exports rather than parse one.
    /// The fields mean what they mean on a summary `ExportReader.read` returns.
    public init(
        replaying inputName: String, exportDate: Timestamp?, exportVersion: Int?, locale: String?, me: Me?,
        bytesRead: Int64, elementCounts: [String: Int] = [:], unmodeledElementCounts: [String: Int] = [:],
        timeZoneCounts: [String: Int], removedControlCharacters: Int64 = 0, droppedDoctype: Bool = false,
        diagnostics: [Diagnostic]
    ) {
        self.inputName = inputName
        self.exportDate = exportDate
        self.exportVersion = exportVersion
        self.locale = locale
        self.me = me
        self.bytesRead = bytesRead
        self.elementCounts = elementCounts
        self.unmodeledElementCounts = unmodeledElementCounts
        self.timeZoneCounts = timeZoneCounts
        self.removedControlCharacters = removedControlCharacters
        self.droppedDoctype = droppedDoctype
        self.diagnostics = diagnostics
    }
}

extension CategoryValue {
    /// The value as an export writes it (`HKCategoryValueSleepAnalysisAsleepCore`, …); the
    /// pre-iOS 16 `…Asleep` reads as `.asleepUnspecified` and is written as `…AsleepUnspecified`.
    public var exportText: String {
        switch self {
        case .sleepAnalysis(let stage):
            let name: String
            switch stage {
            case .inBed: name = "InBed"
            case .asleepUnspecified: name = "AsleepUnspecified"
            case .awake: name = "Awake"
            case .asleepCore: name = "AsleepCore"
            case .asleepDeep: name = "AsleepDeep"
            case .asleepREM: name = "AsleepREM"
            }
            return "HKCategoryValueSleepAnalysis" + name
        case .appleStandHour(let stood):
            return stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle"
        case .notApplicable:
            return "HKCategoryValueNotApplicable"
        case .other(let text):
            return text
        }
    }

    /// The value the reader makes of `text`, an export's `value` attribute of a category record.
    public init(exportText text: String) {
        self = mapCategoryValue(text)
    }
}

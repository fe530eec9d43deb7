import HealthAnalysis
import HealthExport
import HealthTables

// The report's sections (one file each in Document/Sections/), built once into a
// `ReportDocument` that `report.md` and `report.html` both render. Numbers with `,` thousands
// separators and a fixed number of decimals per column; no value is `—`. Deterministic: nothing
// in it depends on the current time, the locale or the machine.

extension ReportWriter {
    /// The text of `report.md`.
    ///
    /// Sections: header (period, input, generator), overview (time zone and why, weeks,
    /// de-duplication, source priority), at a glance (per-day means), the last
    /// `options.weeksInReport` weeks, Activity rings (closed-day counts, longest all-rings
    /// streak), the stand-hour profile, de-duplication per type, the ActivitySummary
    /// cross-check, notes, reader diagnostics, and the list of files.
    public func markdownReport(_ result: AnalysisResult, context: ReportContext) -> String {
        MarkdownRenderer.render(reportDocument(result, context: context, charts: nil))
    }

    /// The text of `report.html`: the sections of `report.md` as one self-contained HTML page
    /// (docs/outputs.md, "report.html").
    public func htmlReport(_ result: AnalysisResult, context: ReportContext) -> String {
        HTMLRenderer.render(reportDocument(result, context: context, charts: nil))
    }

    /// The report's document, with the charts already made (`charts(result)`), or nil to make them.
    func reportDocument(_ result: AnalysisResult, context: ReportContext, charts: [ChartFile]?) -> ReportDocument {
        var report = ReportSections(result: result, context: context, options: options, charts: charts)
        report.build()
        return report.document
    }
}

/// What no value looks like in the report.
let none = "—"

struct ReportSections {
    let result: AnalysisResult
    let context: ReportContext
    let options: ReportOptions
    /// The charts with data, made once (each section that shows one looks it up here).
    let charts: [ChartFile]
    var document = ReportDocument()

    /// `charts`: those of `result` when the caller made them already; nil to make them here.
    init(result: AnalysisResult, context: ReportContext, options: ReportOptions, charts: [ChartFile]? = nil) {
        self.result = result
        self.context = context
        self.options = options
        self.charts = charts ?? ReportCharts.all(ReportWriter.chartInputs(result))
    }

    mutating func build() {
        header()
        overview()
        atAGlance()
        activityTrends()
        trendCharts()
        weeks()
        monthlyOverview()
        rings()
        standHourProfile()
        sleepSection()
        workoutsSection()
        deduplication()
        crossCheck()
        notes()
        files()
    }

    mutating func add(_ block: Block) { document.blocks.append(block) }

    mutating func heading(_ title: String) { add(.heading(level: 2, [.text(title)])) }

    /// A section's heading and, where it has nothing to show (`isEmpty`), the one sentence that
    /// says so; false then, and the section ends there.
    mutating func heading(_ title: String, emptyWhen isEmpty: Bool, _ emptyText: String) -> Bool {
        heading(title)
        if isEmpty { paragraph(emptyText) }
        return !isEmpty
    }

    /// A paragraph of the program's words (inline code between backticks).
    mutating func paragraph(_ words: String) { add(.paragraph(Inline.words(words))) }

    var firstDay: CivilDate? { result.firstDay ?? result.days.first?.date }
    var lastDay: CivilDate? { result.lastDay ?? result.days.last?.date }
    // MARK: - Formatting

    /// A list of lines that may carry text from the input (escaped as such).
    func bullets(_ lines: [String]) -> Block {
        .bullets(lines.map { ListItem(content: [.input($0)]) })
    }

    func number(_ value: Double?, _ decimals: Int) -> String {
        guard let value else { return none }
        return DecimalFormat(decimals: decimals, groupingSeparator: ",").string(value) ?? none
    }

    /// `part / whole` in whole percent (`71%`), or `—` when `whole` is 0.
    func percent(_ part: Double, of whole: Double) -> String {
        guard whole != 0 else { return none }
        return number(part / whole * 100, 0) + "%"
    }

    static func describe(_ reason: TimeZonePeriodReason) -> [Inline] {
        if case .exportOffsetCandidates(let candidates, let region?) = reason {
            // The region comes from the export's locale: text from the input.
            return Inline.words(
                "the export names no zone (no `HKTimeZone`) and has nothing to score zones with: "
                    + "of the \(counted(candidates, "IANA zone")) with the export's offset at the export instant, "
                    + "a zone of the export's locale region ") + [.input(region), .text(" (see the notes)")]
        }
        return Inline.words(describeInWords(reason))
    }

    /// `describe(_:)` in the program's words (no text from the input in it).
    private static func describeInWords(_ reason: TimeZonePeriodReason) -> String {
        switch reason {
        case .option:
            return "given with `--tz`"
        case .hkTimeZone(let count):
            let samples = DecimalFormat(decimals: 0, groupingSeparator: ",").string(Double(count)) ?? "\(count)"
            return "the most frequent `HKTimeZone` in the export (on \(samples) \(count == 1 ? "sample" : "samples"))"
        case .activitySummaryAgreement(let candidates, let agreeing, let compared):
            return describeAgreement(candidates: candidates, agreeing: agreeing, compared: compared)
        case .hrvBeatOffsets(let candidates, let matching, let records):
            return "the export names no zone (no `HKTimeZone`) and has no ActivitySummary days to compare: "
                + "of the \(counted(candidates, "IANA zone")) with the export's offset at the export instant, the one "
                + "whose offsets match the true local time of the most HRV beat lists (\(grouped(matching)) of "
                + "\(grouped(records)))"
        case .changePoints(let agreeing, let compared, let matching, let records):
            return "the export names no zone (no `HKTimeZone`): the zone its days fit best, found where the "
                + "ActivitySummary agreement and HRV beat times change zone (\(grouped(agreeing)) of "
                + "\(counted(compared, "day")) agree; \(grouped(matching)) of \(counted(records, "HRV beat list")) match)"
        case .exportOffsetCandidates(let candidates, let region):
            return "the export names no zone (no `HKTimeZone`) and has nothing to score zones with: "
                + "of the \(counted(candidates, "IANA zone")) with the export's offset at the export instant, "
                + (region.map { "a zone of the export's locale region \($0)" }
                    ?? "one that gives the same days as the others")
                + " (see the notes)"
        case .environment:
            return
                "the machine's time zone (`TZ`), because nothing in the export tells the zones apart (see the warning)"
        case .exportOffset:
            return "the fixed UTC offset of the export date, because no time zone was found (see the warning)"
        }
    }

    static func describe(_ sourceClass: SourceClass) -> String {
        switch sourceClass {
        case .manual: return "manual entries"
        case .watch: return "Apple Watch"
        case .phone: return "iPhone"
        case .other: return "other app or device"
        }
    }

    /// `StepCount` for `HKQuantityTypeIdentifierStepCount`.
    static func shortTypeName(_ type: String) -> String {
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataType"]
        where type.hasPrefix(prefix) && type.count > prefix.count {
            return String(type.dropFirst(prefix.count))
        }
        return type
    }

    /// Decimals for totals shown in `unit`.
    static func decimals(for unit: CanonicalUnit) -> Int {
        switch unit {
        case .count, .kilocalorie, .minute: return 0
        default: return 2
        }
    }

    static func metricName(_ metric: SummaryDisagreement.Metric) -> String {
        switch metric {
        case .moveKcal: return "Move (kcal)"
        case .moveMinutes: return "Move (min)"
        case .exerciseMinutes: return "Exercise (min)"
        case .standHours: return "Stand (hours)"
        }
    }

    static func metricOrder(_ metric: SummaryDisagreement.Metric) -> Int {
        SummaryDisagreement.Metric.allCases.firstIndex(of: metric)!
    }

    static func metricDecimals(_ metric: SummaryDisagreement.Metric) -> Int {
        metric == .standHours ? 0 : 1
    }
}

import HealthAnalysis
import HealthExport
import HealthTables

// `report.json`: how the report was made, for programs and for a file read much later: the
// tool and its version, the input, the zone and why, the source order, the de-duplication mode,
// the period, and the files written.

extension ReportWriter {
    /// The text of `report.json` (UTF-8, keys in a fixed order, two-space indentation).
    public func reportJSON(_ result: AnalysisResult, context: ReportContext) -> String {
        func string(_ s: String?) -> String { s.map(JSONText.quoted) ?? "null" }
        let parts = context.generator.split(separator: " ", maxSplits: 1).map(String.init)
        let reason: String
        switch result.timeZone.reason {
        case .option: reason = "option --tz"
        case .hkTimeZone: reason = "most frequent HKTimeZone"
        case .activitySummaryAgreement: reason = "export-time offset candidates, ActivitySummary agreement"
        case .hrvBeatOffsets: reason = "export-time offset candidates, HRV beat offsets"
        case .changePoints: reason = "change points of ActivitySummary agreement and HRV beat offsets"
        case .exportOffsetCandidates(_, let region):
            reason =
                region.map { "export-time offset candidates, locale region \($0)" } ?? "export-time offset candidates"
        case .environment: reason = "environment TZ"
        case .exportOffset: reason = "export-time UTC offset"
        }
        // The period's days, as every output counts them (docs/weeks.md §8).
        let periodDays = PeriodDays(result)
        let days = result.firstDay == nil ? nil : periodDays.inPeriod
        let files = ReportFile.allCases.map(\.fileName) + charts(result).map(\.fileName)
        var lines: [String] = []
        lines.append("  \"tool\": \(string(parts.first))")
        lines.append("  \"version\": \(string(parts.count > 1 ? parts[1] : nil))")
        lines.append("  \"input\": \(string(context.inputFileName))")
        lines.append("  \"export_date\": \(string(context.exportDate.map { String(describing: $0) }))")
        lines.append("  \"export_version\": \(string(context.exportVersion))")
        lines.append(
            "  \"time_zone\": {\"identifier\": \(string(result.timeZone.identifier)), \"reason\": \(string(reason))}")
        var zones: [String] = []
        for p in result.timeZonePeriods where !zones.contains(p.identifier) { zones.append(p.identifier) }
        if zones.isEmpty { zones = [result.timeZone.identifier] }
        lines.append("  \"zones\": [\(zones.map { string($0) }.joined(separator: ", "))]")
        lines.append(
            "  \"source_order\": [\n"
                + result.sourceOrder.map {
                    "    {\"rank\": \($0.rank), \"name\": \(string($0.name)), \"class\": \(string($0.sourceClass.rawValue))}"
                }.joined(separator: ",\n") + (result.sourceOrder.isEmpty ? "]" : "\n  ]"))
        lines.append(
            "  \"deduplication\": \(string(result.deduplicated ? "priority coverage with time proration (docs/deduplication.md §4)" : "off (plain sums over all sources)"))"
        )
        lines.append("  \"week_start\": \(string(result.weekStart == .iso8601 ? "ISO 8601 (Monday)" : "Sunday"))")
        lines.append(
            "  \"period\": {\"first_day\": \(string(result.firstDay?.description)), \"last_day\": \(string(result.lastDay?.description)), \"days\": \(days.map(String.init) ?? "null"), "
                + "\"days_with_data\": \(days == nil ? "null" : String(periodDays.withData))}"
        )
        lines.append(
            "  \"heart_rate_average\": \"time-weighted, each sample weighs the time to the next, at most 600 s (docs/deduplication.md §9)\""
        )
        lines.append(
            "  \"sleep\": \"nights by wake-up date; the highest-priority source with asleep samples (docs/sleep-and-workouts.md §2)\""
        )
        func num(_ v: Double?) -> String {
            guard let v, v.isFinite else { return "null" }
            return DecimalFormat(decimals: 3).string(v) ?? "null"
        }
        // Two kinds of night, each averaged over its own nights (docs/sleep-and-workouts.md §6).
        let sleep = SleepSummary(result.sleep)
        lines.append(
            "  \"sleep_nights\": {\"asleep_nights\": \(sleep.asleepNights), \"asleep_mean_min\": \(num(sleep.asleepMeanMinutes)), "
                + "\"in_bed_nights\": \(sleep.inBedNights), \"in_bed_mean_min\": \(num(sleep.inBedMeanMinutes)), "
                + "\"in_bed_only_nights\": \(sleep.inBedOnlyNights)}")
        let trendLines = (result.trends?.trends ?? []).map { t in
            "    {\"metric\": \(string(t.metric.rawValue)), \"unit\": \(string(t.unit)), "
                + "\"recent_days\": \(t.recentDays), \"recent_mean\": \(num(t.recentMean)), "
                + "\"year_days\": \(t.yearDays), \"year_mean\": \(num(t.yearMean)), "
                + "\"direction\": \(string(t.direction?.rawValue)), \"why_none\": \(string(t.whyNone))}"
        }
        lines.append("  \"trends_end\": \(string(result.trends?.end.description))")
        lines.append(
            "  \"trends\": [" + (trendLines.isEmpty ? "]" : "\n" + trendLines.joined(separator: ",\n") + "\n  ]"))
        // The warnings report.md's Notes hold, so that a quiet cron run's warnings are kept.
        let warnings =
            result.notes.filter { $0.severity == .warning }.map(\.text)
            + (Self.routeWarning(result, routes: context.routes).map { [$0] } ?? [])
        lines.append("  \"warnings\": [" + warnings.map(string).joined(separator: ", ") + "]")
        lines.append("  \"files\": [" + files.map(string).joined(separator: ", ") + "]")
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}

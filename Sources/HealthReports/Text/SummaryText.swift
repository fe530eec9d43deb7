import HealthAnalysis
import HealthExport
import HealthTables

// `report --summary`: the plain-text digest a cron job mails (docs/trends.md §4).

extension ReportWriter {
    /// The widest line of `summaryText`, and its most lines.
    public static let summaryColumns = 72
    public static let summaryMaxLines = 30

    /// A plain-text digest of `result` for standard output: the period (days in it and days with
    /// data), the period's per-day means against the 90-day means of the trends, the rings, sleep,
    /// the trends that changed direction since the previous week's end and those up or down now
    /// (docs/trends.md §4). At most `summaryMaxLines` lines of at
    /// most `summaryColumns` characters; ASCII apart from names in the export.
    public func summaryText(_ result: AnalysisResult, context: ReportContext) -> String {
        var lines: [String] = []
        if let first = result.firstDay, let last = result.lastDay {
            lines.append("Activity \(first) to \(last)")
            lines.append(PeriodDays(result).text)
        } else {
            lines.append("Activity: no days with data")
        }
        lines += [""] + Self.summaryMeans(result) + [""] + Self.summaryRings(result.days)
        lines += Self.summarySleep(SleepSummary(result.sleep))
        if let trends = result.trends { lines += [""] + Self.summaryTrends(trends) }
        let warnings = result.notes.filter { $0.severity == .warning }.count
        if warnings > 0 { lines.append("\(counted(warnings, "warning")): see report.md's Notes") }
        return lines.prefix(Self.summaryMaxLines).map { untrimmed in
            var line = untrimmed
            while line.last == " " { line.removeLast() }
            return line.count <= Self.summaryColumns ? line : String(line.prefix(Self.summaryColumns - 1)) + "…"
        }.joined(separator: "\n") + "\n"
    }

    /// A value with `decimals` decimals and grouped thousands, or `-` when there is none.
    private static func summaryCell(_ v: Double?, _ decimals: Int) -> String {
        v.map { groupedDecimal($0, decimals: decimals) } ?? "-"
    }

    /// The per-day means of the period against the trends' 90-day means, one row a measure
    /// with data in either (a 30-column name, then 12 and 16 columns right-aligned).
    private static func summaryMeans(_ result: AnalysisResult) -> [String] {
        func mean(_ value: (DailyMetrics) -> Double?) -> Double? {
            let v = result.days.compactMap(value).filter(\.isFinite)
            return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
        }
        func recent(_ metric: TrendMetric) -> Double? {
            result.trends?.trends.first { $0.metric == metric }?.recentMean
        }
        func row(_ a: String, _ b: String, _ c: String) -> String {
            a.padding(toLength: 30, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(0, 12 - b.count))
                + b + String(repeating: " ", count: max(0, 16 - c.count)) + c
        }
        let moveTime = result.trends?.trends.first { $0.metric == .move }?.unit == "min/day"
        let measures: [(String, (DailyMetrics) -> Double?, TrendMetric?, Int)] = [
            ("Steps", { $0.steps }, nil, 0),
            moveTime ? ("Move (min)", { $0.moveMinutes }, .move, 0) : ("Move (kcal)", { $0.moveKcal }, .move, 0),
            ("Exercise (min)", { $0.exerciseMinutes }, .exercise, 0),
            ("Stand hours", { $0.standHours.map(Double.init) }, .standHours, 1),
            ("Distance (km)", { $0.distanceKm }, .distance, 2),
            ("Resting heart rate (bpm)", { $0.restingHeartRateBpm }, .restingHeartRate, 1),
            ("HRV (ms)", { $0.hrvSdnnMs }, .hrv, 1),
            ("Sleep (min a night)", { $0.sleepMinutes }, .sleep, 0),
        ]
        var lines = [row("Per day", "this period", "last 90 days")]
        for (name, value, metric, d) in measures {
            let now = mean(value)
            let before = metric.flatMap(recent)
            if now == nil && before == nil { continue }
            lines.append(row(name, summaryCell(now, d), metric == nil ? "" : summaryCell(before, d)))
        }
        return lines
    }

    /// The rings closed over the days with ring goals (docs/rings.md).
    private static func summaryRings(_ days: [DailyMetrics]) -> [String] {
        let rings = days.map(RingsClosed.init).filter(\.hasGoals)
        if rings.isEmpty { return ["Rings: no day with ring goals (no ActivitySummary)"] }
        let n = rings.count
        return [
            "Rings closed: Move \(rings.filter(\.move).count)/\(n), Exercise \(rings.filter(\.exercise).count)/\(n), "
                + "Stand \(rings.filter(\.stand).count)/\(n), all \(rings.filter(\.all).count)/\(n)"
        ]
    }

    /// Two kinds of night, each averaged over its own nights (`SleepSummary`, docs/weeks.md).
    private static func summarySleep(_ sleep: SleepSummary) -> [String] {
        func hours(_ minutes: Double?) -> String {
            let m = Int((minutes ?? 0).rounded())
            return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min"
        }
        if sleep.isEmpty { return ["Sleep: no night with asleep or in-bed records"] }
        var lines = [
            sleep.asleepNights > 0
                ? "Sleep: asleep \(hours(sleep.asleepMeanMinutes)) a night over " + counted(sleep.asleepNights, "night")
                : "Sleep: no night with asleep records"
        ]
        if sleep.inBedNights > 0 {
            lines.append(
                "  in bed \(hours(sleep.inBedMeanMinutes)) a night over \(counted(sleep.inBedNights, "night"))"
                    + (sleep.inBedOnlyNights > 0 ? " (\(grouped(sleep.inBedOnlyNights)) in bed only)" : ""))
        }
        return lines
    }

    /// The trends that changed direction since the previous week's end, then the ones that are
    /// up or down now (docs/trends.md §4).
    private static func summaryTrends(_ t: Trends) -> [String] {
        if t.historyDays < Trends.minimumHistoryDays {
            return ["Trends: \(counted(t.historyDays, "day")) of history; they need \(Trends.minimumHistoryDays)"]
        }
        var lines: [String] = []
        let changed = t.trends.filter(\.changedDirection)
        if changed.isEmpty {
            lines.append("Trends: no change of direction since \(t.previousEnd)")
        } else {
            lines.append("Trends that changed direction since \(t.previousEnd):")
            for trend in changed.prefix(6) {
                let d = ReportSections.trendDecimals(trend.metric)
                lines.append(
                    "  \(trend.metric.title) \(trend.previousDirection!.rawValue) -> "
                        + "\(trend.direction!.rawValue): \(summaryCell(trend.recentMean, d)) against "
                        + "\(summaryCell(trend.yearMean, d)) \(trend.unit)")
            }
        }
        let up = t.trends.filter { $0.direction == .up }.map(\.metric.title)
        let down = t.trends.filter { $0.direction == .down }.map(\.metric.title)
        if up.isEmpty && down.isEmpty { return lines + ["Now all steady"] }
        if !up.isEmpty { lines.append("Now up: " + up.joined(separator: ", ")) }
        if !down.isEmpty { lines.append("Now down: " + down.joined(separator: ", ")) }
        return lines
    }
}

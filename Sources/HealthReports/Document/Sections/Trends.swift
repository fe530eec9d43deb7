import HealthAnalysis
import HealthExport
import HealthTables

// The report (report.md and report.html): Activity Trends (docs/trends.md): each measure's mean over the last 90 days against
// its mean over the last 365, at the period's last day.

extension ReportSections {
    /// The arrow of a direction; "—" without a trend.
    static func arrow(_ direction: TrendDirection?) -> String {
        switch direction {
        case .up: return "↑"
        case .down: return "↓"
        case .steady: return "→"
        case nil: return "—"
        }
    }

    /// Decimals of a measure's means in report.md.
    static func trendDecimals(_ metric: TrendMetric) -> Int {
        switch metric {
        case .distance: return 2
        case .standHours, .vo2Max, .walkingSpeed, .runningSpeed, .restingHeartRate, .hrv: return 1
        case .move, .exercise, .standMinutes, .flightsClimbed, .sleep: return 0
        }
    }

    /// The unit as a sentence says it ("min a day").
    static func trendUnitPhrase(_ unit: String) -> String {
        if unit.hasSuffix("/day") { return String(unit.dropLast(4)) + " a day" }
        if unit.hasSuffix("/night") { return String(unit.dropLast(6)) + " a night" }
        return unit
    }

    /// The sentences for the largest changes (at most two, up or down, by relative change):
    /// "Exercise is up: 46 min a day over the last 90 days, 38 over the year."
    static func largestTrendChanges(_ trends: [Trend], limit: Int = 2) -> [String] {
        let moved = trends.filter { $0.direction == .up || $0.direction == .down }
            .sorted { abs($0.change ?? 0) > abs($1.change ?? 0) }
        return moved.prefix(limit).map { t in
            let d = trendDecimals(t.metric)
            return "\(t.metric.title) is \(t.direction!.rawValue): \(groupedDecimal(t.recentMean!, decimals: d)) "
                + "\(trendUnitPhrase(t.unit)) over the last 90 days, \(groupedDecimal(t.yearMean!, decimals: d)) over the year."
        }
    }

    mutating func activityTrends() {
        guard let t = result.trends else { return }
        heading("Trends")
        paragraph(
            "At \(t.end), as Activity Trends: each measure's mean over its days with data in the last 90 days, "
                + "against the last 365 days (docs/trends.md).")
        if t.historyDays < Trends.minimumHistoryDays {
            paragraph(
                "No trends yet: the input has \(counted(t.historyDays, "day")) of history up to \(t.end); "
                    + "trends need \(Trends.minimumHistoryDays).")
            return
        }
        var rows: [[String]] = []
        var why: [String] = []
        for trend in t.trends {
            let d = Self.trendDecimals(trend.metric)
            func mean(_ v: Double?) -> String { v.map { number($0, d) + " " + trend.unit } ?? none }
            rows.append([
                trend.metric.title, Self.arrow(trend.direction), mean(trend.recentMean), grouped(trend.recentDays),
                mean(trend.yearMean), grouped(trend.yearDays),
            ])
            if let w = trend.whyNone { why.append("\(trend.metric.title): \(w).") }
        }
        add(
            .table(
                DocumentTable(
                    ["Measure", "Trend", "Last 90 days", "Days", "Last 365 days", "Days"],
                    [.left, .left, .right, .right, .right, .right], text: rows)))
        paragraph("↑ up, ↓ down, → steady (within 3 % of the 365-day mean), — no trend.")
        let changes = Self.largestTrendChanges(t.trends)
        if !changes.isEmpty { add(.paragraph([.text(changes.joined(separator: " "))])) }
        if !why.isEmpty {
            paragraph("No trend for:")
            add(bullets(why))
        }
    }
}

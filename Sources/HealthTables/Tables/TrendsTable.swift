import HealthAnalysis
import HealthExport

// `trends.csv`: one row per measure of the report's trends (docs/trends.md), at the report
// period's last day.

extension ReportTables {
    /// The table `trends.csv`, in `TrendMetric` order. `recent_*` are the 90 days up to `end`,
    /// `year_*` the 365 days up to `end`; means in `unit`, over the days with data; `direction`
    /// is up, down or steady (docs/trends.md §2), empty with `why_none` when there is no trend.
    public static let trends = ReportTable<TrendRow>(
        "trends", fileName: "trends.csv",
        columns: [
            .text("metric", \.metric),
            .text("unit", \.unit),
            .date("end", \.end),
            .integer("recent_days", \.recentDays),
            .number("recent_mean", decimals: 2, \.recentMean),
            .integer("year_days", \.yearDays),
            .number("year_mean", decimals: 2, \.yearMean),
            .text("direction", \.direction),
            .text("why_none", \.whyNone),
        ])

    /// The rows of `trends.csv` for `result` (none when nothing is reported).
    public static func trendRows(_ result: AnalysisResult) -> [TrendRow] {
        guard let t = result.trends else { return [] }
        return t.trends.map { TrendRow($0, end: t.end) }
    }
}

/// One row of `trends.csv`: a `Trend` with its end day, as plain values.
public struct TrendRow: Hashable, Sendable {
    public var metric: String?
    public var unit: String?
    public var end: CivilDate?
    public var recentDays: Int
    public var recentMean: Double?
    public var yearDays: Int
    public var yearMean: Double?
    public var direction: String?
    public var whyNone: String?

    public init() {
        recentDays = 0
        yearDays = 0
    }

    public init(_ trend: Trend, end: CivilDate) {
        metric = trend.metric.rawValue
        unit = trend.unit
        self.end = end
        recentDays = trend.recentDays
        recentMean = trend.recentMean
        yearDays = trend.yearDays
        yearMean = trend.yearMean
        direction = trend.direction?.rawValue
        whyNone = trend.whyNone
    }
}

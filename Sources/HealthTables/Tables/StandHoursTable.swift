import HealthAnalysis
import HealthExport

// `stand_hours.csv`.
// Each file's header and rows come from one column list, so a header can never drift from its
// values. Decimals per column are the `decimals:` arguments (trailing zeros trimmed): counts 0,
// km 3, kcal 1, minutes 1, bpm 1, percent 1, hours 1.

extension ReportTables {
    /// The table `stand_hours.csv`, in order.
    public static let standHours = ReportTable<StandHour>(
        "stand_hours", fileName: "stand_hours.csv",
        columns: [
            .date("date", \.date),
            .integer("hour", \.hour),
            .boolean("stood", \.stood),
            // `+01:00`: the two hours of a fall-back day's repeated hour differ here.
            .text("utc_offset") { Self.offsetText($0.utcOffsetSeconds) },
        ])

    /// `+01:00`, `-04:30`, `+05:45` (ISO 8601 offset).
    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        let h = a / 3600
        let m = a / 60 % 60
        return "\(seconds < 0 ? "-" : "+")\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}

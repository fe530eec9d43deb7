import HealthAnalysis
import HealthExport

// The report: the stand-hour profile: per local hour, the share of days stood.

extension ReportSections {
    mutating func standHourProfile() {
        heading("Stand hours by hour of day")
        let profile = result.standHourProfile.sorted { $0.hour < $1.hour }
        // From the first to the last hour with a record: the hours the watch is never worn
        // (usually the night) are left out, gaps in between stay visible.
        guard let first = profile.firstIndex(where: { $0.daysWithRecord > 0 }),
            let last = profile.lastIndex(where: { $0.daysWithRecord > 0 })
        else {
            paragraph("No stand-hour records.")
            return
        }
        let barWidth = 20
        var rows: [[String]] = []
        for entry in profile[first...last] {
            let hour = entry.hour < 10 ? "0\(entry.hour):00" : "\(entry.hour):00"
            guard entry.daysWithRecord > 0 else {
                rows.append([hour, "0", "0", none, ""])
                continue
            }
            // The share in bar cells, rounded half up in integers (no libm, no binary rounding).
            let stood = min(max(entry.stoodDays, 0), entry.daysWithRecord)
            let filled = (2 * stood * barWidth + entry.daysWithRecord) / (2 * entry.daysWithRecord)
            rows.append([
                hour, grouped(entry.stoodDays), grouped(entry.daysWithRecord),
                percent(Double(entry.stoodDays), of: Double(entry.daysWithRecord)),
                String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled),
            ])
        }
        paragraph(
            "On how many days each local hour was a stand hour, out of the days with a stand-hour "
                + "record for that hour (hours without any record before the first and after the last such "
                + "hour are left out).")
        add(
            .table(
                DocumentTable(
                    ["Hour", "Stood", "Days with record", "Share", "Profile"], [.left, .right, .right, .right, .left],
                    text: rows)))
        addChart("chart_stand_hours.svg")
    }
}

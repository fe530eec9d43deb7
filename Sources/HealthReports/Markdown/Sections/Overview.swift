import HealthAnalysis
import HealthExport

// report.md: The zone and why, weeks, de-duplication and the source priority used.

extension MarkdownReport {
    mutating func overview() {
        text += "## Overview\n\n"
        if let first = firstDay, let last = lastDay {
            let days = last.daysSince1970 - first.daysSince1970 + 1
            text += "- **Period:** \(first) to \(last) (\(grouped(days)) \(days == 1 ? "day" : "days"))\n"
        } else {
            text += "- **Period:** no days with data\n"
        }
        let zone = result.timeZone
        text += timeZoneLines()
        switch result.weekStart {
        case .iso8601:
            text +=
                "- **Weeks:** ISO 8601, Monday to Sunday, labelled by week-year and week number (`YYYY-Www`"
                + (result.weeks.first.map { ", e.g. `\($0.week)`" } ?? "") + ")\n"
        case .sunday: text += "- **Weeks:** Sunday to Saturday, named by their first day\n"
        }
        if result.deduplicated {
            text +=
                "- **De-duplication:** on. Where sources overlap in time, only the highest-priority "
                + "source counts there (priority coverage with time proration).\n"
        } else {
            text +=
                "- **De-duplication:** off. Every sample counts (plain sums), so overlapping sources "
                + "are counted twice.\n"
        }
        let workouts = result.days.reduce(0) { $0 + $1.workouts }
        let workoutMinutes = result.days.reduce(0.0) { $0 + $1.workoutMinutes }
        text += "- **Workouts:** \(grouped(workouts)) (\(number(workoutMinutes, 0)) min)\n"
        text += "\n"

        if case .exportOffset = zone.reason {
            text += "> [!WARNING]\n"
            text +=
                "> No IANA time zone was found, so days and hours use the fixed UTC offset the export "
                + "was made with, and daylight-saving time is ignored: for part of the year every hour, "
                + "and so every day boundary, is shifted by the DST difference. Run again with "
                + "`--tz <zone>` (for example `--tz Europe/Berlin`) for exact days.\n\n"
        }

        let order = result.sourceOrder.enumerated().sorted {
            ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
        }
        if order.isEmpty {
            text += "No sources.\n\n"
        } else {
            text +=
                result.deduplicated
                ? "Source priority used, highest first:\n\n"
                : "Source priority (not used, because de-duplication is off), highest first:\n\n"
            for (index, ranked) in order.enumerated() {
                text +=
                    "\(index + 1). \(Markdown.escape(ranked.element.name)) (\(Self.describe(ranked.element.sourceClass)))\n"
            }
            text += "\n"
        }
    }
}

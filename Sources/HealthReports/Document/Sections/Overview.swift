import HealthAnalysis
import HealthExport
import HealthTables

// The report: the zone and why, weeks, de-duplication and the source priority used.

extension ReportSections {
    mutating func overview() {
        heading("Overview")
        /// A list item: a label in bold, then `runs`.
        func labelled(_ label: String, _ runs: [Inline]) -> ListItem {
            ListItem(content: [.strong([.text(label + ":")]), .text(" ")] + runs)
        }
        var items: [ListItem] = []
        if let first = firstDay, let last = lastDay {
            // The period's days as the terminal line and --summary count them (docs/weeks.md §8).
            var days = PeriodDays(result)
            days.inPeriod = last.daysSince1970 - first.daysSince1970 + 1
            items.append(labelled("Period", [.text("\(first) to \(last) (\(days.text))")]))
        } else {
            items.append(labelled("Period", [.text("no days with data")]))
        }
        let zone = result.timeZone
        items.append(timeZoneItem())
        switch result.weekStart {
        case .iso8601:
            items.append(
                labelled(
                    "Weeks",
                    Inline.words("ISO 8601, Monday to Sunday, labelled by week-year and week number (`YYYY-Www`")
                        + (result.weeks.first.map { [.text(", e.g. "), .code($0.week)] } ?? []) + [.text(")")]))
        case .sunday: items.append(labelled("Weeks", [.text("Sunday to Saturday, named by their first day")]))
        }
        if result.deduplicated {
            items.append(
                labelled(
                    "De-duplication",
                    [
                        .text(
                            "on. Where sources overlap in time, only the highest-priority "
                                + "source counts there (priority coverage with time proration).")
                    ]))
        } else {
            items.append(
                labelled(
                    "De-duplication",
                    [.text("off. Every sample counts (plain sums), so overlapping sources are counted twice.")]))
        }
        let workouts = result.days.reduce(0) { $0 + $1.workouts }
        let workoutMinutes = result.days.reduce(0.0) { $0 + $1.workoutMinutes }
        items.append(labelled("Workouts", [.text("\(grouped(workouts)) (\(number(workoutMinutes, 0)) min)")]))
        add(.bullets(items))

        if case .exportOffset = zone.reason {
            add(
                .warning(
                    Inline.words(
                        "No IANA time zone was found, so days and hours use the fixed UTC offset the export "
                            + "was made with, and daylight-saving time is ignored: for part of the year every hour, "
                            + "and so every day boundary, is shifted by the DST difference. Run again with "
                            + "`--tz <zone>` (for example `--tz Europe/Berlin`) for exact days.")))
        }

        let order = result.sourceOrder.enumerated().sorted {
            ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
        }
        if order.isEmpty {
            paragraph("No sources.")
        } else {
            paragraph(
                result.deduplicated
                    ? "Source priority used, highest first:"
                    : "Source priority (not used, because de-duplication is off), highest first:")
            add(
                .numbered(
                    order.map { ranked in
                        [.input(ranked.element.name), .text(" (\(Self.describe(ranked.element.sourceClass)))")]
                    }))
        }
    }
}

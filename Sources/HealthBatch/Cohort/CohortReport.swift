import HealthTables

/// `report.md` of the cohort and its chart: how many people, done and failed, the days
/// covered, and the spread across people of steps per day, ring-closure rates, sleep per night
/// and resting heart rate. A pure function of the person folders and status records: the same
/// folders give the same bytes.
enum CohortReport {
    /// A measure compared across people.
    struct Measure: Sendable {
        var title: String
        var unit: String
        var decimals: Int
        /// Percent: the values (0 to 1) are shown × 100.
        var percent: Bool
        var value: @Sendable (PersonMeasures) -> Double?
    }

    static let measures: [Measure] = [
        Measure(title: "Steps per day", unit: "steps", decimals: 0, percent: false) { $0.stepsPerDay },
        Measure(title: "All rings closed", unit: "% of days", decimals: 1, percent: true) { $0.allRingsClosed },
        Measure(title: "Move ring closed", unit: "% of days", decimals: 1, percent: true) { $0.moveClosed },
        Measure(title: "Exercise ring closed", unit: "% of days", decimals: 1, percent: true) { $0.exerciseClosed },
        Measure(title: "Stand ring closed", unit: "% of days", decimals: 1, percent: true) { $0.standClosed },
        Measure(title: "Sleep per night", unit: "hours", decimals: 2, percent: false) { $0.sleepHoursPerNight },
        Measure(title: "Resting heart rate", unit: "bpm", decimals: 1, percent: false) { $0.restingHeartRateBpm },
    ]

    /// The chart's file name.
    static let chartFile = "chart_spread.svg"

    struct Person {
        var id: String
        var status: PersonStatus?
        /// Why the person's files do not read back as their tables (they are then failed).
        var unreadable: String?
        /// Nil for a person without a report folder, or whose files do not read back.
        var measures: PersonMeasures?
        /// Listed, but without folder or status record (not run yet, or killed before).
        var missing = false

        /// The last run failed, or its files do not read back as their tables.
        var failed: Bool { unreadable != nil || status?.outcome == .failed }
    }

    static func markdown(_ people: [Person], excluded: [String] = []) -> String {
        let done = people.filter { $0.unreadable == nil && $0.status?.outcome == .done }.count
        let failed = people.filter(\.failed).count
        let withReport = people.filter { $0.measures != nil }.count
        let reports = people.compactMap { $0.status?.report }
        let days = reports.reduce(0) { $0 + $1.daysWithData }
        let first = reports.compactMap(\.firstDay).min()
        let last = reports.compactMap(\.lastDay).max()
        var text = "# Cohort\n\n"
        text += "| | value |\n|---|---:|\n"
        text += "| People | \(people.count) |\n"
        text += "| Last run done | \(done) |\n"
        text += "| Last run failed | \(failed) |\n"
        let missing = people.filter(\.missing)
        if !missing.isEmpty { text += "| Missing (listed, no result) | \(missing.count) |\n" }
        text += "| With a report | \(withReport) |\n"
        text += "| Days with data (all people) | \(days) |\n"
        text += "| Days covered | \(first.map { "\($0) to \(last ?? $0)" } ?? "none") |\n\n"
        text += "## Spread across people\n\n"
        text += "Each person's mean over their days (nights for sleep) with a value; then, across people, the\n"
        text += "median and quartiles (linear interpolation between the closest ranks). A person without any value\n"
        text += "of a measure is left out of its row.\n\n"
        text +=
            "![Spread across people: box from the lower to the upper quartile, line at the median, whiskers to the extremes](\(chartFile))\n\n"
        text += "| measure | unit | people | minimum | lower quartile | median | upper quartile | maximum |\n"
        text += "|---|---|---:|---:|---:|---:|---:|---:|\n"
        for measure in measures {
            let values = people.compactMap { $0.measures.flatMap(measure.value) }
            guard let s = Spread(values) else {
                text += "| \(measure.title) | \(measure.unit) | 0 | | | | | |\n"
                continue
            }
            let cells = [s.minimum, s.lowerQuartile, s.median, s.upperQuartile, s.maximum].map {
                format($0, measure)
            }
            text += "| \(measure.title) | \(measure.unit) | \(s.count) | " + cells.joined(separator: " | ") + " |\n"
        }
        let failures = people.filter(\.failed)
        if !failures.isEmpty {
            text += "\n## Failed\n\n"
            text += "The reasons are in `people.csv`; an earlier report of the person, if any, is kept.\n\n"
            text += failures.map { "- \($0.id)" }.joined(separator: "\n") + "\n"
        }
        if !missing.isEmpty {
            text += "\n## Missing\n\n"
            text +=
                "Listed by a batch, without a result yet (not run, or stopped before): the cohort is incomplete.\n\n"
            text += missing.map { "- \($0.id)" }.joined(separator: "\n") + "\n"
        }
        if !excluded.isEmpty {
            text += "\n## Excluded\n\n"
            text +=
                "Results of people no listing names any more, left out of every table "
                + "(`health-analyzer batch --prune` removes them).\n\n"
            text += excluded.map { "- \($0)" }.joined(separator: "\n") + "\n"
        }
        return text
    }

    /// A measure's value as report.md writes numbers (`12,277`; percentages as `71.4`).
    static func format(_ value: Double, _ measure: Measure) -> String {
        groupedDecimal(measure.percent ? value * 100 : value, decimals: measure.decimals)
    }

    /// The chart: one row per measure with people's values, a box from the lower to the upper
    /// quartile, the median, whiskers to the extremes, each row on its own axis.
    static func chart(_ people: [Person]) -> String {
        let width = 880
        let rowHeight = 64
        let left = 200
        let right = 40
        let top = 40
        let plot = Double(width - left - right)
        let height = top + rowHeight * measures.count + 20
        func n(_ v: Double) -> String { TableCell.number(v).csvText(.number(decimals: 1)) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="title desc" font-family="sans-serif" font-size="12">
            <title id="title">Spread across people</title>
            <desc id="desc">For each measure, each person's mean as a dot; the box runs from the lower to the upper quartile across people, the line inside is the median, the whiskers reach the smallest and largest person.</desc>
            <rect width="\(width)" height="\(height)" fill="#ffffff"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">Spread across people (\(people.filter { $0.measures != nil }.count) with a report)</text>

            """
        for (row, measure) in measures.enumerated() {
            let y = Double(top + row * rowHeight)
            let mid = y + 26
            svg += "<text x=\"10\" y=\"\(n(mid + 4))\">\(measure.title) (\(measure.unit))</text>\n"
            let values = people.compactMap { $0.measures.flatMap(measure.value) }.map {
                measure.percent ? $0 * 100 : $0
            }
            guard let s = Spread(values) else {
                svg += "<text x=\"\(left)\" y=\"\(n(mid + 4))\" fill=\"#666666\">no data</text>\n"
                continue
            }
            var low = measure.percent ? 0 : s.minimum
            var high = measure.percent ? 100 : s.maximum
            if high - low < 1e-9 {
                low -= 1
                high += 1
            }
            func x(_ v: Double) -> Double { Double(left) + (v - low) / (high - low) * plot }
            svg +=
                "<line x1=\"\(left)\" y1=\"\(n(mid + 18))\" x2=\"\(width - right)\" y2=\"\(n(mid + 18))\" stroke=\"#999999\"/>\n"
            for v in [low, high] {
                svg +=
                    "<text x=\"\(n(x(v)))\" y=\"\(n(mid + 32))\" text-anchor=\"middle\" fill=\"#444444\">\(format(measure.percent ? v / 100 : v, measure))</text>\n"
            }
            svg +=
                "<line x1=\"\(n(x(s.minimum)))\" y1=\"\(n(mid))\" x2=\"\(n(x(s.maximum)))\" y2=\"\(n(mid))\" stroke=\"#333333\"/>\n"
            svg +=
                "<rect x=\"\(n(x(s.lowerQuartile)))\" y=\"\(n(mid - 10))\" width=\"\(n(max(1, x(s.upperQuartile) - x(s.lowerQuartile))))\" height=\"20\" fill=\"#9ecae1\" stroke=\"#3182bd\"/>\n"
            svg +=
                "<line x1=\"\(n(x(s.median)))\" y1=\"\(n(mid - 12))\" x2=\"\(n(x(s.median)))\" y2=\"\(n(mid + 12))\" stroke=\"#08519c\" stroke-width=\"3\"/>\n"
            for v in values.sorted() {
                svg += "<circle cx=\"\(n(x(v)))\" cy=\"\(n(mid))\" r=\"2.5\" fill=\"#e6550d\" fill-opacity=\"0.7\"/>\n"
            }
        }
        svg += "</svg>\n"
        return svg
    }
}

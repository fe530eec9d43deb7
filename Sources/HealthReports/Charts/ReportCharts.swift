// The six charts of `report.md`, each an SVG file beside it. Their inputs are plain values
// (dates, numbers), filled from the analysis result by the report writer; a chart with no data
// is not written (and not linked). Past the span a chart can show per day (or per week) it shows
// weekly, then monthly means or sums, and says so in its title and alt text, so that every chart
// stays under about 800 marks; the x axis is a calendar (`TimeAxis`).

import HealthAnalysis
import HealthExport
import HealthTables

/// What the charts show, one value per local day, week or hour.
struct ChartInputs {
    struct Day {
        /// Local date `YYYY-MM-DD`.
        var date: String
        var steps: Double?
        var restingHeartRateBpm: Double?
        var hrvMs: Double?
        /// True when the days just before this one were left out of the rows (a run of more than
        /// 31 days without data): lines and averages do not reach across.
        var gapBefore = false
    }

    /// One calendar month of the report window.
    struct Month {
        /// `2025-10`.
        var month: String
        /// The first and last local day of the month inside the report window, `YYYY-MM-DD`.
        var first: String
        var last: String
        var moveClosedDays: Int
        var exerciseClosedDays: Int
        var standClosedDays: Int
        var workoutsByActivity: [String: Int]
    }

    struct Week {
        /// `2025-W40` or `week of 2025-10-05`.
        var label: String
        /// The week's first local day `YYYY-MM-DD` (empty: no calendar axis).
        var start: String = ""
        var days: Int
        var moveClosedDays: Int
        var exerciseClosedDays: Int
        var standClosedDays: Int
        /// Workouts counted once (duplicates left out), per readable activity name.
        var workoutsByActivity: [String: Int]
    }

    struct Night {
        /// The wake-up date `YYYY-MM-DD` (docs/sleep-and-workouts.md §2).
        var night: String
        /// Minutes per stage; `unspecified` for sources without stages (legacy `Asleep`).
        var coreMinutes: Double?
        var deepMinutes: Double?
        var remMinutes: Double?
        var unspecifiedMinutes: Double?
    }

    var days: [Day] = []
    var weeks: [Week] = []
    var months: [Month] = []
    /// Weeks start on Sunday (`--week-start sunday`) rather than Monday, for weekly bins of days.
    var weekStartsOnSunday = false
    var nights: [Night] = []
    /// Per local hour 0–23: the share of days with data on which that hour was stood, in percent.
    var standHourPercent: [Double?] = []
}

/// One chart file: its name beside `report.md`, its title and alt text, and the SVG text.
struct ChartFile: Equatable {
    var fileName: String
    var title: String
    var altText: String
    var svg: String
    var markCount: Int
}

enum ReportCharts {
    /// Days (or nights) a chart shows one per category; past that, weekly means up to
    /// `weeklyLimit` weeks, then monthly means (steps, sleep, heart: at most 4 marks a category).
    static let dailyLimit = 190
    static let weeklyLimit = 160
    /// Weeks the ring and workout charts show one per category (3 and up to 7 marks each), then months.
    static let ringWeeksLimit = 30
    static let workoutWeeksLimit = 105
    /// Up to this many categories, each bar carries its value as a label.
    static let labelledBarsLimit = 14

    /// Day-valued series binned: per category its span of days, a tooltip label and the means
    /// of the values of the days (or nights) it holds.
    struct Binned {
        var bin: TimeBin
        var spans: [ClosedRange<Int>]
        var labels: [String]
        /// `series[k][i]`: the mean of series k over category i's days.
        var series: [[Double?]]

        /// ` (weekly means)` for a title, or nothing per day.
        var titleSuffix: String { bin == .day ? "" : ", \(bin.adjective) means" }
    }

    /// Bins `series` (one value per entry of `dates`, `YYYY-MM-DD`) per day, week or month by
    /// the number of dates; nil when a date does not parse.
    static func binned(
        dates: [String], series: [[Double?]], weekStartsOnSunday: Bool, dailyLimit: Int = dailyLimit,
        weeklyLimit: Int = weeklyLimit
    ) -> Binned? {
        let days = dates.compactMap { CivilDate($0)?.daysSince1970 }
        guard days.count == dates.count, !days.isEmpty else { return nil }
        let bin = TimeBin.choose(days: days.count, dailyLimit: dailyLimit, weeklyLimit: weeklyLimit)
        let groups = binIndices(days, by: bin, weekStartsOnSunday: weekStartsOnSunday)
        return Binned(
            bin: bin, spans: groups.map { days[$0.first!]...days[$0.last!] },
            labels: groups.map { g in
                switch bin {
                case .day: return dates[g[0]]
                case .week: return "week of \(dates[g[0]])"
                case .month: return String(dates[g[0]].prefix(7))
                }
            },
            series: series.map { values in groups.map { g in meanOfPresent(g.map { values[$0] }) } })
    }

    /// A calendar axis over `spans` when every date parses.
    static func weekAxis(_ starts: [String], lengths: [Int]) -> TimeAxis? {
        let days = starts.compactMap { CivilDate($0)?.daysSince1970 }
        guard days.count == starts.count, !days.isEmpty else { return nil }
        return TimeAxis(spans: zip(days, lengths).map { $0...($0 + max(1, $1) - 1) })
    }

    /// Every chart that has data, in the order `report.md` shows them.
    static func all(_ input: ChartInputs) -> [ChartFile] {
        [
            dailySteps(input), ringClosures(input), standHourProfile(input), sleepStages(input),
            heartTrends(input), workoutsPerWeek(input),
        ].compactMap { $0 }
    }

    /// Label every k-th category so that labels of `width` characters do not collide on 800 px.
    static func labelEvery(_ count: Int, charWidth: Int) -> Int {
        let fits = max(1, 790 / max(1, charWidth * 7 + 10))
        return max(1, (count + fits - 1) / fits)
    }

    /// `2025-10-05` → `Oct 5`; with `year`, `Oct 5 2025`.
    static func shortDate(_ date: String, year: Bool = false) -> String {
        let parts = date.split(separator: "-")
        guard parts.count == 3, let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m) else { return date }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(months[m - 1]) \(d)" + (year ? " \(parts[0])" : "")
    }

    /// The axis labels of consecutive `YYYY-MM-DD` dates and their width in characters: `Oct 5`
    /// (6) when all lie in one year, else `Oct 5 2025` (11), so that the days on both sides of
    /// a left-out run, or of a new year, cannot be mistaken for each other.
    static func dayLabels(_ dates: [String]) -> (labels: [String], charWidth: Int) {
        let years = Set(dates.map { $0.prefix(4) })
        let withYear = years.count > 1
        return (dates.map { shortDate($0, year: withYear) }, withYear ? 11 : 6)
    }

    /// Trailing mean over the last 7 days that have data (needs at least 4 of them). `values` are
    /// consecutive days, except before the indices in `gapsBefore` (left-out runs): the window
    /// does not reach across them.
    static func sevenDayAverage(_ values: [Double?], gapsBefore: Set<Int> = []) -> [Double?] {
        var runStart = 0
        return values.indices.map { i in
            if gapsBefore.contains(i) { runStart = i }
            let window = values[max(runStart, i - 6)...i].compactMap { $0 }
            return window.count >= 4 ? window.reduce(0, +) / Double(window.count) : nil
        }
    }

    /// The indices of the days that follow a left-out run.
    static func gapsBefore(_ days: [ChartInputs.Day]) -> Set<Int> {
        Set(days.indices.filter { days[$0].gapBefore })
    }

    /// ", leaving out N run(s) without data" for the charts' descriptions, or nothing.
    static func gapsText(_ days: [ChartInputs.Day]) -> String {
        let n = days.filter(\.gapBefore).count
        return n == 0 ? "" : ", leaving out \(n) run\(n == 1 ? "" : "s") of more than 31 days without data"
    }

    static func dailySteps(_ input: ChartInputs) -> ChartFile? {
        let steps = input.days.map(\.steps)
        guard steps.contains(where: { $0 != nil }) else { return nil }
        let (labels, width) = dayLabels(input.days.map(\.date))
        let mean = steps.compactMap { $0 }.reduce(0, +) / Double(steps.compactMap { $0 }.count)
        let first = input.days.first!.date
        let last = input.days.last!.date
        if let b = binned(
            dates: input.days.map(\.date), series: [steps], weekStartsOnSunday: input.weekStartsOnSunday),
            b.bin != .day
        {
            var c = BarChart(
                title: "Steps per day" + b.titleSuffix, description: "", categories: b.labels,
                yAxisTitle: "steps per day",
                series: [ChartSeries(name: "steps", color: ChartColor.sky, values: b.series[0], unit: "steps a day")],
                timeAxis: TimeAxis(spans: b.spans))
            c.description =
                "Bar chart of the \(b.bin.adjective) means of de-duplicated steps per local day from \(first) to "
                + "\(last)\(gapsText(input.days)), \(counted(c.markCount, b.bin == .week ? "week" : "month")) with data, "
                + "mean \(BarChart.format(mean)) steps a day."
            return ChartFile(
                fileName: "chart_steps.svg", title: c.title, altText: c.description, svg: c.svg(),
                markCount: c.markCount)
        }
        let chart = BarChart(
            title: "Steps per day", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: width), yAxisTitle: "steps per day",
            series: [ChartSeries(name: "steps", color: ChartColor.sky, values: steps, unit: "steps")],
            line: ChartSeries(
                name: "7-day average", color: ChartColor.blue,
                values: sevenDayAverage(steps, gapsBefore: gapsBefore(input.days)), unit: "steps"),
            breaksBefore: gapsBefore(input.days),
            timeAxis: dayAxis(input.days.map(\.date)))
        var c = chart
        c.description =
            "Bar chart of de-duplicated steps per local day from \(first) to "
            + "\(last)\(gapsText(input.days)), \(chart.markCount) days with data, mean \(BarChart.format(mean)) steps a day, "
            + "with a line for the trailing 7-day average."
        return ChartFile(
            fileName: "chart_steps.svg", title: c.title, altText: c.description, svg: c.svg(), markCount: c.markCount)
    }

    /// A calendar axis with one category per date, or nil when a date does not parse.
    static func dayAxis(_ dates: [String]) -> TimeAxis? {
        let days = dates.compactMap { CivilDate($0)?.daysSince1970 }
        guard days.count == dates.count, !days.isEmpty else { return nil }
        return TimeAxis(spans: days.map { $0...$0 })
    }

    static func ringClosures(_ input: ChartInputs) -> ChartFile? {
        guard !input.weeks.isEmpty, input.weeks.contains(where: { $0.days > 0 }) else { return nil }
        let all = input.weeks.map { [$0.moveClosedDays, $0.exerciseClosedDays, $0.standClosedDays] }
        guard all.joined().contains(where: { $0 > 0 }) else { return nil }
        let monthly = input.weeks.count > ringWeeksLimit && !input.months.isEmpty
        let labels = monthly ? input.months.map(\.month) : input.weeks.map(\.label)
        func series(
            _ name: String, _ color: String, _ week: KeyPath<ChartInputs.Week, Int>,
            _ month: KeyPath<ChartInputs.Month, Int>
        ) -> ChartSeries {
            ChartSeries(
                name: name, color: color,
                values: monthly
                    ? input.months.map { Double($0[keyPath: month]) } : input.weeks.map { Double($0[keyPath: week]) },
                unit: "days")
        }
        var chart = BarChart(
            title: monthly ? "Ring closures per month" : "Ring closures per week", description: "",
            categories: labels, labelEvery: labelEvery(labels.count, charWidth: 8),
            yAxisTitle: monthly ? "days closed" : "days closed (of 7)",
            series: [
                series("Move", ChartColor.move, \.moveClosedDays, \.moveClosedDays),
                series("Exercise", ChartColor.exercise, \.exerciseClosedDays, \.exerciseClosedDays),
                series("Stand", ChartColor.stand, \.standClosedDays, \.standClosedDays),
            ], grouped: true,
            timeAxis: monthly
                ? monthAxis(input.months) : weekAxis(input.weeks.map(\.start), lengths: input.weeks.map { _ in 7 }),
            integerAxis: true)
        if !monthly { chart.reference = (7, "7 days") }
        let move = input.weeks.reduce(0) { $0 + $1.moveClosedDays }
        let exercise = input.weeks.reduce(0) { $0 + $1.exerciseClosedDays }
        let stand = input.weeks.reduce(0) { $0 + $1.standClosedDays }
        let days = input.weeks.reduce(0) { $0 + $1.days }
        chart.description =
            "Grouped bar chart of the days each \(monthly ? "month" : "week") on which the Move, Exercise and Stand "
            + "rings were closed\(monthly ? " (monthly sums)" : ""), "
            + "\(labels.first!) to \(labels.last!): Move \(move), Exercise \(exercise), Stand \(stand) of \(days) days."
        return ChartFile(
            fileName: "chart_rings.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    /// A calendar axis over months (their days inside the report window).
    static func monthAxis(_ months: [ChartInputs.Month]) -> TimeAxis? {
        let spans = months.compactMap { m -> ClosedRange<Int>? in
            guard let a = CivilDate(m.first)?.daysSince1970, let b = CivilDate(m.last)?.daysSince1970, a <= b else {
                return nil
            }
            return a...b
        }
        return spans.count == months.count && !spans.isEmpty ? TimeAxis(spans: spans) : nil
    }

    static func standHourProfile(_ input: ChartInputs) -> ChartFile? {
        guard input.standHourPercent.count == 24, input.standHourPercent.contains(where: { ($0 ?? 0) > 0 }) else {
            return nil
        }
        let labels = (0..<24).map { $0 < 10 ? "0\($0)" : "\($0)" }
        var chart = BarChart(
            title: "Stand hours by hour of the day", description: "", categories: labels, labelEvery: 1,
            yAxisTitle: "days stood (%)",
            series: [ChartSeries(name: "stood", color: ChartColor.stand, values: input.standHourPercent, unit: "%")])
        chart.reference = (100, "every day")
        let best = input.standHourPercent.enumerated().max { ($0.element ?? 0) < ($1.element ?? 0) }!
        chart.description =
            "Bar chart of the share of days on which each local hour (00 to 23) was a stand hour; "
            + "highest at \(labels[best.offset]):00 with \(BarChart.format(best.element ?? 0)) %."
        return ChartFile(
            fileName: "chart_stand_hours.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    static func sleepStages(_ input: ChartInputs) -> ChartFile? {
        guard !input.nights.isEmpty else { return nil }
        let (labels, width) = dayLabels(input.nights.map(\.night))
        // A night's stages without a value count as 0 in a bin's mean, so that the stacked
        // means add up to the mean night.
        func minutes(_ key: KeyPath<ChartInputs.Night, Double?>) -> [Double?] {
            input.nights.map { $0[keyPath: key] ?? 0 }
        }
        let keys: [KeyPath<ChartInputs.Night, Double?>] = [
            \.deepMinutes, \.coreMinutes, \.remMinutes, \.unspecifiedMinutes,
        ]
        let b = binned(
            dates: input.nights.map(\.night), series: keys.map(minutes), weekStartsOnSunday: input.weekStartsOnSunday)
        let aggregated = b.map { $0.bin != .day } ?? false
        func hours(_ k: Int) -> [Double?] {
            if aggregated, let b { return b.series[k].map { $0.flatMap { $0 > 0 ? $0 / 60 : nil } } }
            return input.nights.map { $0[keyPath: keys[k]].map { $0 / 60 } }
        }
        let names = ["Deep", "Core", "REM", "Asleep (no stages)"]
        let colors = [ChartColor.blue, ChartColor.sky, ChartColor.purple, ChartColor.grey]
        var chart = BarChart(
            title: "Sleep per night by stage" + (aggregated ? b!.titleSuffix : ""), description: "",
            categories: aggregated ? b!.labels : labels,
            labelEvery: labelEvery(labels.count, charWidth: width), yAxisTitle: "hours asleep",
            series: (0..<4).map { ChartSeries(name: names[$0], color: colors[$0], values: hours($0), unit: "h") },
            timeAxis: aggregated ? TimeAxis(spans: b!.spans) : dayAxis(input.nights.map(\.night)))
        chart.reference = (8, "8 h")
        if chart.categories.count <= labelledBarsLimit {
            chart.valueLabel = { h in
                let m = Int((h * 60).rounded())
                return "\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60) h"
            }
        }
        let totals = input.nights.map {
            ($0.coreMinutes ?? 0) + ($0.deepMinutes ?? 0) + ($0.remMinutes ?? 0) + ($0.unspecifiedMinutes ?? 0)
        }
        let mean = totals.reduce(0, +) / Double(totals.count) / 60
        let what = aggregated ? "the \(b!.bin.adjective) mean hours asleep per night" : "the hours asleep per night"
        chart.description =
            "Stacked bar chart of \(what) (filed under the wake-up date) by stage, Deep, Core, REM "
            + "and asleep without stages, \(input.nights.count) \(input.nights.count == 1 ? "night" : "nights") from "
            + "\(input.nights.first!.night) to \(input.nights.last!.night), mean \(DecimalFormat(decimals: 1).string(mean)!) hours."
        return ChartFile(
            fileName: "chart_sleep.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    static func heartTrends(_ input: ChartInputs) -> ChartFile? {
        var resting = input.days.map(\.restingHeartRateBpm)
        var hrv = input.days.map(\.hrvMs)
        guard resting.contains(where: { $0 != nil }) || hrv.contains(where: { $0 != nil }) else { return nil }
        let (labels, width) = dayLabels(input.days.map(\.date))
        var chart = PointChart(
            title: "Resting heart rate and heart-rate variability", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: width), panels: [], breaksBefore: gapsBefore(input.days),
            timeAxis: dayAxis(input.days.map(\.date)))
        var what = "local days"
        if let b = binned(
            dates: input.days.map(\.date), series: [resting, hrv], weekStartsOnSunday: input.weekStartsOnSunday),
            b.bin != .day
        {
            resting = b.series[0]
            hrv = b.series[1]
            chart.title += b.titleSuffix
            chart.categories = b.labels
            chart.timeAxis = TimeAxis(spans: b.spans)
            what = "\(b.bin == .week ? "weeks" : "months") (\(b.bin.adjective) means)"
        }
        if resting.contains(where: { $0 != nil }) {
            chart.panels.append(
                .init(
                    yAxisTitle: "resting HR (bpm)",
                    series: [
                        ChartSeries(name: "resting heart rate", color: ChartColor.red, values: resting, unit: "bpm")
                    ]))
        }
        if hrv.contains(where: { $0 != nil }) {
            chart.panels.append(
                .init(
                    yAxisTitle: "HRV SDNN (ms)",
                    series: [ChartSeries(name: "HRV (SDNN)", color: ChartColor.green, values: hrv, unit: "ms")]))
        }
        func range(_ v: [Double?], _ unit: String) -> String {
            let x = v.compactMap { $0 }
            guard let lo = x.min(), let hi = x.max() else { return "no data" }
            return "\(BarChart.format(lo)) to \(BarChart.format(hi)) \(unit)"
        }
        chart.description =
            "Two line charts over \(what) from \(input.days.first!.date) to \(input.days.last!.date)"
            + "\(gapsText(input.days)): resting heart "
            + "rate (\(range(resting, "bpm"))) above the day's mean HRV SDNN (\(range(hrv, "ms")))."
        return ChartFile(
            fileName: "chart_heart.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    static func workoutsPerWeek(_ input: ChartInputs) -> ChartFile? {
        let monthly = input.weeks.count > workoutWeeksLimit && !input.months.isEmpty
        let periods = monthly ? input.months.map(\.workoutsByActivity) : input.weeks.map(\.workoutsByActivity)
        var totals: [String: Int] = [:]
        for p in periods { totals.merge(p, uniquingKeysWith: +) }
        guard !totals.isEmpty else { return nil }
        let activities = totals.keys.sorted { (totals[$0]!, $1) > (totals[$1]!, $0) }
        let palette = [
            ChartColor.orange, ChartColor.blue, ChartColor.green, ChartColor.purple, ChartColor.red, ChartColor.sky,
            ChartColor.yellow,
        ]
        let shown = Array(activities.prefix(palette.count - 1))
        var series = shown.enumerated().map { k, name in
            ChartSeries(
                name: name, color: palette[k],
                values: periods.map { w in w[name].map(Double.init) }, unit: "workouts")
        }
        if activities.count > shown.count {
            let rest = Set(activities.dropFirst(shown.count))
            series.append(
                ChartSeries(
                    name: "other", color: ChartColor.grey,
                    values: periods.map { w in
                        Double(w.filter { rest.contains($0.key) }.values.reduce(0, +))
                    }, unit: "workouts"))
        }
        let labels = monthly ? input.months.map(\.month) : input.weeks.map(\.label)
        var chart = BarChart(
            title: monthly ? "Workouts per month" : "Workouts per week", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: 8), yAxisTitle: "workouts", series: series,
            timeAxis: monthly
                ? monthAxis(input.months) : weekAxis(input.weeks.map(\.start), lengths: input.weeks.map { _ in 7 }),
            integerAxis: true)
        if labels.count <= labelledBarsLimit { chart.valueLabel = { BarChart.format($0) } }
        let total = totals.values.reduce(0, +)
        chart.description =
            "Stacked bar chart of workouts per \(monthly ? "month" : "week") by activity, \(labels.first!) to \(labels.last!): \(total) workouts ("
            + activities.map { "\($0) \(totals[$0]!)" }.joined(separator: ", ") + "), duplicates counted once."
        return ChartFile(
            fileName: "chart_workouts.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }
}

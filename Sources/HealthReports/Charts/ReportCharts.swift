// The six charts of `report.md`, each an SVG file beside it. Their inputs are plain values
// (dates, numbers), filled from the analysis result by the report writer; a chart with no data
// is not written (and not linked).

/// What the charts show, one value per local day, week or hour.
struct ChartInputs {
    struct Day {
        /// Local date `YYYY-MM-DD`.
        var date: String
        var steps: Double?
        var restingHeartRateBpm: Double?
        var hrvMs: Double?
        /// True when the days just before this one were left out of the rows (a run of more than
        /// 31 days without data, issue 10): lines and averages do not reach across.
        var gapBefore = false
    }

    struct Week {
        /// `2025-W40` or `week of 2025-10-05`.
        var label: String
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
        let chart = BarChart(
            title: "Steps per day", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: width), yAxisTitle: "steps per day",
            series: [ChartSeries(name: "steps", color: ChartColor.sky, values: steps, unit: "steps")],
            line: ChartSeries(
                name: "7-day average", color: ChartColor.blue,
                values: sevenDayAverage(steps, gapsBefore: gapsBefore(input.days)), unit: "steps"),
            breaksBefore: gapsBefore(input.days))
        var c = chart
        c.description =
            "Bar chart of de-duplicated steps per local day from \(input.days.first!.date) to "
            + "\(input.days.last!.date)\(gapsText(input.days)), \(chart.markCount) days with data, mean \(BarChart.format(mean)) steps a day, "
            + "with a line for the trailing 7-day average."
        return ChartFile(
            fileName: "chart_steps.svg", title: c.title, altText: c.description, svg: c.svg(), markCount: c.markCount)
    }

    static func ringClosures(_ input: ChartInputs) -> ChartFile? {
        guard !input.weeks.isEmpty, input.weeks.contains(where: { $0.days > 0 }) else { return nil }
        let labels = input.weeks.map(\.label)
        func series(_ name: String, _ color: String, _ key: KeyPath<ChartInputs.Week, Int>) -> ChartSeries {
            ChartSeries(name: name, color: color, values: input.weeks.map { Double($0[keyPath: key]) }, unit: "days")
        }
        let all = input.weeks.map { [$0.moveClosedDays, $0.exerciseClosedDays, $0.standClosedDays] }
        guard all.joined().contains(where: { $0 > 0 }) else { return nil }
        var chart = BarChart(
            title: "Ring closures per week", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: 8), yAxisTitle: "days closed (of 7)",
            series: [
                series("Move", ChartColor.move, \.moveClosedDays),
                series("Exercise", ChartColor.exercise, \.exerciseClosedDays),
                series("Stand", ChartColor.stand, \.standClosedDays),
            ], grouped: true)
        chart.reference = (7, "7 days")
        let move = input.weeks.reduce(0) { $0 + $1.moveClosedDays }
        let exercise = input.weeks.reduce(0) { $0 + $1.exerciseClosedDays }
        let stand = input.weeks.reduce(0) { $0 + $1.standClosedDays }
        let days = input.weeks.reduce(0) { $0 + $1.days }
        chart.description =
            "Grouped bar chart of the days each week on which the Move, Exercise and Stand rings were closed, "
            + "\(labels.first!) to \(labels.last!): Move \(move), Exercise \(exercise), Stand \(stand) of \(days) days."
        return ChartFile(
            fileName: "chart_rings.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
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
        func hours(_ key: KeyPath<ChartInputs.Night, Double?>) -> [Double?] {
            input.nights.map { $0[keyPath: key].map { $0 / 60 } }
        }
        var chart = BarChart(
            title: "Sleep per night by stage", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: width), yAxisTitle: "hours asleep",
            series: [
                ChartSeries(name: "Deep", color: ChartColor.blue, values: hours(\.deepMinutes), unit: "h"),
                ChartSeries(name: "Core", color: ChartColor.sky, values: hours(\.coreMinutes), unit: "h"),
                ChartSeries(name: "REM", color: ChartColor.purple, values: hours(\.remMinutes), unit: "h"),
                ChartSeries(
                    name: "Asleep (no stages)", color: ChartColor.grey, values: hours(\.unspecifiedMinutes), unit: "h"),
            ])
        chart.reference = (8, "8 h")
        let totals = input.nights.map {
            ($0.coreMinutes ?? 0) + ($0.deepMinutes ?? 0) + ($0.remMinutes ?? 0) + ($0.unspecifiedMinutes ?? 0)
        }
        let mean = totals.reduce(0, +) / Double(totals.count) / 60
        chart.description =
            "Stacked bar chart of the hours asleep per night (filed under the wake-up date) by stage, Deep, Core, REM "
            + "and asleep without stages, \(input.nights.count) nights from \(input.nights.first!.night) to "
            + "\(input.nights.last!.night), mean \(DecimalFormat(decimals: 1).string(mean)!) hours."
        return ChartFile(
            fileName: "chart_sleep.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    static func heartTrends(_ input: ChartInputs) -> ChartFile? {
        let resting = input.days.map(\.restingHeartRateBpm)
        let hrv = input.days.map(\.hrvMs)
        var panels: [PointChart.Panel] = []
        if resting.contains(where: { $0 != nil }) {
            panels.append(
                .init(
                    yAxisTitle: "resting HR (bpm)",
                    series: [
                        ChartSeries(name: "resting heart rate", color: ChartColor.red, values: resting, unit: "bpm")
                    ]))
        }
        if hrv.contains(where: { $0 != nil }) {
            panels.append(
                .init(
                    yAxisTitle: "HRV SDNN (ms)",
                    series: [ChartSeries(name: "HRV (SDNN)", color: ChartColor.green, values: hrv, unit: "ms")]))
        }
        guard !panels.isEmpty else { return nil }
        let (labels, width) = dayLabels(input.days.map(\.date))
        var chart = PointChart(
            title: "Resting heart rate and heart-rate variability", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: width), panels: panels, breaksBefore: gapsBefore(input.days)
        )
        func range(_ v: [Double?]) -> String {
            let x = v.compactMap { $0 }
            guard let lo = x.min(), let hi = x.max() else { return "no data" }
            return "\(BarChart.format(lo)) to \(BarChart.format(hi))"
        }
        chart.description =
            "Two line charts over local days from \(input.days.first!.date) to \(input.days.last!.date)"
            + "\(gapsText(input.days)): resting heart "
            + "rate (\(range(resting)) bpm) above the day's mean HRV SDNN (\(range(hrv)) ms)."
        return ChartFile(
            fileName: "chart_heart.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }

    static func workoutsPerWeek(_ input: ChartInputs) -> ChartFile? {
        var totals: [String: Int] = [:]
        for w in input.weeks { totals.merge(w.workoutsByActivity, uniquingKeysWith: +) }
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
                values: input.weeks.map { w in w.workoutsByActivity[name].map(Double.init) }, unit: "workouts")
        }
        if activities.count > shown.count {
            let rest = Set(activities.dropFirst(shown.count))
            series.append(
                ChartSeries(
                    name: "other", color: ChartColor.grey,
                    values: input.weeks.map { w in
                        Double(w.workoutsByActivity.filter { rest.contains($0.key) }.values.reduce(0, +))
                    }, unit: "workouts"))
        }
        let labels = input.weeks.map(\.label)
        var chart = BarChart(
            title: "Workouts per week", description: "", categories: labels,
            labelEvery: labelEvery(labels.count, charWidth: 8), yAxisTitle: "workouts", series: series)
        let total = totals.values.reduce(0, +)
        chart.description =
            "Stacked bar chart of workouts per week by activity, \(labels.first!) to \(labels.last!): \(total) workouts ("
            + activities.map { "\($0) \(totals[$0]!)" }.joined(separator: ", ") + "), duplicates counted once."
        return ChartFile(
            fileName: "chart_workouts.svg", title: chart.title, altText: chart.description, svg: chart.svg(),
            markCount: chart.markCount)
    }
}

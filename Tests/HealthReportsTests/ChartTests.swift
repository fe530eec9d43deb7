import Foundation
import HealthExport
import Testing

@testable import HealthReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What an SVG file holds, read back with FoundationXML's `XMLParser` (fine for small files).
final class SVGInspection: NSObject, XMLParserDelegate {
    var rootName: String?
    var rootAttributes: [String: String] = [:]
    var marks = 0
    var marksByElement: [String: Int] = [:]
    var texts: [String] = []
    var title = ""
    var desc = ""
    private var current = ""
    private var stack: [String] = []
    private(set) var wellFormed = false
    private(set) var error: String?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        wellFormed = parser.parse()
        if !wellFormed { error = parser.parserError.map { "\($0)" } ?? "unknown" }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if rootName == nil {
            rootName = name
            rootAttributes = attributes
        }
        if attributes["class"] == "mark" {
            marks += 1
            marksByElement[name, default: 0] += 1
        }
        stack.append(name)
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        if name == "text" { texts.append(current) }
        if name == "title" && stack == ["svg"] { title = current }
        if name == "desc" && stack == ["svg"] { desc = current }
        current = ""
    }
}

@Suite("Charts")
struct ChartTests {
    /// 14 days: steps on all but day 3; resting heart rate on 12 days, HRV on 10.
    static func makeInputs() -> ChartInputs {
        var input = ChartInputs()
        for d in 1...14 {
            let date = d < 10 ? "2025-10-0\(d)" : "2025-10-\(d)"
            let steps: Double? = d == 3 ? nil : Double(6000 + 250 * d)
            let resting: Double? = d <= 12 ? Double(55 + d % 4) : nil
            let hrv: Double? = d > 4 ? Double(40 + d) : nil
            input.days.append(.init(date: date, steps: steps, restingHeartRateBpm: resting, hrvMs: hrv))
        }
        input.weeks = [
            .init(
                label: "2025-W41", days: 7, moveClosedDays: 5, exerciseClosedDays: 0, standClosedDays: 7,
                workoutsByActivity: ["Running": 2, "Walking": 1]),
            .init(
                label: "2025-W42", days: 7, moveClosedDays: 3, exerciseClosedDays: 2, standClosedDays: 6,
                workoutsByActivity: ["Running": 1, "Swim Bike Run": 1]),
        ]
        input.nights = [
            .init(night: "2025-10-02", coreMinutes: 240, deepMinutes: 60, remMinutes: 90, unspecifiedMinutes: nil),
            .init(night: "2025-10-03", coreMinutes: nil, deepMinutes: nil, remMinutes: nil, unspecifiedMinutes: 420),
            .init(night: "2025-10-04", coreMinutes: 200, deepMinutes: 0, remMinutes: 80, unspecifiedMinutes: nil),
        ]
        input.standHourPercent = (0..<24).map { (h: Int) -> Double? in
            if h < 7 { return nil }
            return h == 23 ? 0 : Double(50 + h)
        }
        return input
    }

    func check(_ file: ChartFile, marks: Int, unit: String) {
        let svg = SVGInspection(file.svg)
        #expect(svg.wellFormed, "\(file.fileName): \(svg.error ?? "")")
        #expect(svg.rootName == "svg")
        #expect(svg.rootAttributes["width"] == "880")
        #expect(svg.rootAttributes["role"] == "img")
        #expect(svg.rootAttributes["aria-label"] == file.altText)
        #expect(svg.title == file.title)
        #expect(svg.desc == file.altText)
        #expect(svg.marks == marks, "\(file.fileName)")
        #expect(file.markCount == marks)
        #expect(svg.texts.contains { $0.contains(unit) }, "\(file.fileName) has no axis title with \(unit)")
    }

    @Test func dailyStepsHasOneBarPerDayWithDataAndAnAverageLine() throws {
        let file = try #require(ReportCharts.dailySteps(Self.makeInputs()))
        // 14 days, day 3 without steps: 13 bars.
        check(file, marks: 13, unit: "steps")
        #expect(file.svg.contains("<polyline class=\"line\""))
        #expect(file.altText.contains("13 days with data"))
    }

    @Test func sevenDayAverageNeedsFourDaysAndSkipsMissingOnes() {
        // Day 1-3: fewer than 4 values → nil. Day 4 (values 10, 20, nil, 40 → only 3) → nil.
        // Day 5: 10, 20, 40, 50 → 30. Day 8: window days 2-8 = 20, 40, 50, 60, 70, 80 (day 3 nil) → 320 / 6.
        let v: [Double?] = [10, 20, nil, 40, 50, 60, 70, 80]
        let avg = ReportCharts.sevenDayAverage(v)
        #expect(avg[0] == nil && avg[1] == nil && avg[2] == nil && avg[3] == nil)
        #expect(avg[4] == 30)
        #expect(avg[7] == 320.0 / 6)
    }

    /// Rows leave out runs of more than 31 days without data; the 7-day average and the
    /// lines do not reach across one. Days 0–3 and, after a left-out run, days 4–7:
    /// avg[3] = (10 + 20 + 30 + 40) / 4 = 25; avg[4 … 6] have fewer than 4 days since the run:
    /// nil (30, 35 and 40 if the run were ignored); avg[7] = (50 + 60 + 70 + 80) / 4 = 65.
    @Test func averagesAndLinesDoNotReachAcrossALeftOutRun() throws {
        let v: [Double?] = [10, 20, 30, 40, 50, 60, 70, 80]
        let avg = ReportCharts.sevenDayAverage(v, gapsBefore: [4])
        #expect(avg == [nil, nil, nil, 25, nil, nil, nil, 65])
        #expect(ReportCharts.sevenDayAverage(v)[4] == 30)
        // 8 days in October, then 8 in December: two pieces of the average line, and both
        // charts say a run was left out.
        var input = ChartInputs()
        for (k, date) in ((1...8).map { "2025-10-0\($0)" } + (1...8).map { "2025-12-0\($0)" }).enumerated() {
            input.days.append(
                .init(date: date, steps: 1000, restingHeartRateBpm: 60, hrvMs: 40, gapBefore: k == 8))
        }
        let steps = try #require(ReportCharts.dailySteps(input))
        #expect(steps.svg.components(separatedBy: "<polyline class=\"line\"").count - 1 == 2)
        #expect(steps.altText.contains("2025-10-01 to 2025-12-08, leaving out 1 run of more than 31 days without data"))
        let heart = try #require(ReportCharts.heartTrends(input))
        // One line per series and piece: 2 series × 2 pieces.
        #expect(heart.svg.components(separatedBy: "<polyline class=\"line\"").count - 1 == 4)
        #expect(heart.altText.contains("leaving out 1 run of more than 31 days without data"))
    }

    /// Within one year the labels are "Nov 16"; across years (a left-out run from 2016 to 2018,
    /// or New Year) every label carries its year, and labels are spaced for 11 characters.
    @Test func dayLabelsCarryTheYearOnlyWhenTheDaysSpanSeveral() {
        let one = ReportCharts.dayLabels(["2025-11-16", "2025-12-31"])
        #expect(one.labels == ["Nov 16", "Dec 31"] && one.charWidth == 6)
        let two = ReportCharts.dayLabels(["2016-11-16", "2018-09-10"])
        #expect(two.labels == ["Nov 16 2016", "Sep 10 2018"] && two.charWidth == 11)
        let newYear = ReportCharts.dayLabels(["2025-12-31", "2026-01-01"])
        #expect(newYear.labels == ["Dec 31 2025", "Jan 1 2026"])
    }

    @Test func ringClosuresHasThreeBarsPerWeekWithClosures() throws {
        let file = try #require(ReportCharts.ringClosures(Self.makeInputs()))
        // W41: Move 5, Exercise 0 (no bar), Stand 7; W42: 3, 2, 6 → 5 bars.
        check(file, marks: 5, unit: "days")
        #expect(file.altText.contains("Move 8, Exercise 2, Stand 13 of 14 days"))
    }

    @Test func standHourProfileHasABarPerHourStood() throws {
        let file = try #require(ReportCharts.standHourProfile(Self.makeInputs()))
        // Hours 07-22 have a share above 0 (16 bars); 00-06 have none and 23 has 0 %.
        check(file, marks: 16, unit: "%")
        #expect(file.altText.contains("highest at 22:00 with 72 %"))
    }

    @Test func sleepStagesStacksEachNonZeroStage() throws {
        let file = try #require(ReportCharts.sleepStages(Self.makeInputs()))
        // Night 1: core, deep, REM (3); night 2: unspecified only (1); night 3: core and REM, deep 0 (2) → 6.
        check(file, marks: 6, unit: "hours")
        // Mean asleep: (390 + 420 + 280) / 3 = 363.3 min = 6.06 h → "6.1 hours".
        #expect(file.altText.contains("mean 6.1 hours"))
    }

    @Test func heartTrendsHasAPanelPerMeasureAndAPointPerValue() throws {
        let file = try #require(ReportCharts.heartTrends(Self.makeInputs()))
        // 12 resting heart-rate points + 10 HRV points.
        check(file, marks: 22, unit: "bpm")
        #expect(SVGInspection(file.svg).texts.contains("HRV SDNN (ms)"))
        #expect(file.altText.contains("55 to 58 bpm"))
    }

    @Test func workoutsPerWeekStacksActivities() throws {
        let file = try #require(ReportCharts.workoutsPerWeek(Self.makeInputs()))
        // W41: Running, Walking; W42: Running, Swim Bike Run → 4 segments.
        check(file, marks: 4, unit: "workouts")
        #expect(file.altText.contains("5 workouts (Running 3, Swim Bike Run 1, Walking 1)"))
    }

    @Test func chartsWithoutDataAreNotDrawn() {
        #expect(ReportCharts.all(ChartInputs()).isEmpty)
        #expect(ReportCharts.all(Self.makeInputs()).count == 6)
    }

    @Test func textIsEscaped() throws {
        var input = Self.makeInputs()
        input.weeks[0].workoutsByActivity = ["Rock & <Roll>": 1]
        let file = try #require(ReportCharts.workoutsPerWeek(input))
        #expect(SVGInspection(file.svg).wellFormed)
        #expect(file.svg.contains("Rock &amp; &lt;Roll&gt;"))
    }

    @Test func scaleTicksAreNice() {
        let s = LinearScale(minimum: 0, maximum: 11_873, includeZero: true, pixelLow: 200, pixelHigh: 0)
        // Raw step 11873 / 5 = 2374.6 → 2500; ticks 0 … 12500.
        #expect(s.ticks == [0, 2500, 5000, 7500, 10_000, 12_500])
        #expect(s.pixel(0) == 200 && s.pixel(12_500) == 0)
        #expect(s.label(10_000) == "10,000")
    }

    /// Equal values at or past 2^53 (where `v - 1 == v`) and spans past the largest double:
    /// before, the tick loop never advanced at 10^16 (report grew to 2.1 GB in 4.5 s) and the
    /// span of ±10^308 was infinite. Every scale now ends with at most 4 × 5 + 4 + 1 = 25 finite
    /// ticks. At 10^16 the pad is 10^16 × 10^-9 = 10^7 each side: 9,999,999,990,000,000 …
    /// 10,000,000,010,000,000, raw step 2 × 10^7 / 5 = 4 × 10^6 → 5 × 10^6, five ticks.
    @Test func everyScaleEndsOnExtremeValues() {
        let cases: [(Double, Double, Bool)] = [
            (1e16, 1e16, false), (1e16, 1e16, true), (9_007_199_254_740_993, 9_007_199_254_740_993, false),
            (-1e308, 1e308, false), (1e308, 1e308, true), (-.greatestFiniteMagnitude, .greatestFiniteMagnitude, true),
            (5e-324, 5e-324, false), (-1e300, -1e300, true), (.nan, 3, false), (-.infinity, .infinity, true),
        ]
        for (lo, hi, zero) in cases {
            for integer in [false, true] {
                let s = LinearScale(
                    minimum: lo, maximum: hi, includeZero: zero, pixelLow: 200, pixelHigh: 0, integer: integer)
                #expect(s.ticks.count >= 2 && s.ticks.count <= 25, "\(lo) \(hi)")
                #expect(s.ticks.allSatisfy(\.isFinite) && s.lower < s.upper, "\(lo) \(hi)")
                #expect(s.pixel(lo.isFinite ? min(max(lo, -1e300), 1e300) : 0).isFinite, "\(lo) \(hi)")
            }
        }
        let s = LinearScale(minimum: 1e16, maximum: 1e16, includeZero: false, pixelLow: 200, pixelHigh: 0)
        #expect(
            s.ticks == [
                9_999_999_990_000_000, 9_999_999_995_000_000, 1e16, 10_000_000_005_000_000, 10_000_000_010_000_000,
            ])
    }

    /// 1,800 days from Monday 2021-01-04 (to 2025-12-08): every day 10,000 steps except 20,000
    /// on the days of January 2021; 258 weeks and 60 months with closures and workouts; a night
    /// of 6 h core each day.
    static func longInputs() -> ChartInputs {
        var input = ChartInputs()
        let first = 18_631  // 2021-01-04, days since 1970 (2021-01-01 is 18,628)
        for d in 0..<1800 {
            let date = CivilDate(daysSince1970: first + d)
            input.days.append(
                .init(
                    date: date.description, steps: date.year == 2021 && date.month == 1 ? 20_000 : 10_000,
                    restingHeartRateBpm: 55, hrvMs: 50))
            input.nights.append(
                .init(
                    night: date.description, coreMinutes: 360, deepMinutes: 60, remMinutes: 90, unspecifiedMinutes: nil)
            )
        }
        for w in 0..<258 {
            input.weeks.append(
                .init(
                    label: "w\(w)", start: CivilDate(daysSince1970: first + 7 * w).description, days: 7,
                    moveClosedDays: 5, exerciseClosedDays: 4, standClosedDays: 7,
                    workoutsByActivity: ["Running": 2, "Walking": 1]))
        }
        var month = CivilDate(year: 2021, month: 1, day: 1)
        while month.daysSince1970 <= first + 1799 {
            let next = CivilDate(
                year: month.month == 12 ? month.year + 1 : month.year, month: month.month % 12 + 1, day: 1)
            input.months.append(
                .init(
                    month: String(month.description.prefix(7)),
                    first: CivilDate(daysSince1970: max(first, month.daysSince1970)).description,
                    last: CivilDate(daysSince1970: min(first + 1799, next.daysSince1970 - 1)).description,
                    moveClosedDays: 20, exerciseClosedDays: 15, standClosedDays: 28,
                    workoutsByActivity: ["Running": 8, "Walking": 4]))
            month = next
        }
        return input
    }

    /// Past 190 days and 160 weeks the day charts show monthly means (60 months: 2021-01 …
    /// 2025-12), the ring and workout charts monthly sums; each says so in its title and alt
    /// text, stays under 800 marks, and its axis is labelled with the years.
    @Test func longSpansAreAggregatedAndStayUnder800Marks() throws {
        let input = Self.longInputs()
        #expect(input.months.count == 60)
        let charts = ReportCharts.all(input)
        #expect(charts.count == 5)  // no stand-hour profile in these inputs
        for chart in charts {
            #expect(chart.markCount < 800, "\(chart.fileName): \(chart.markCount)")
            let svg = SVGInspection(chart.svg)
            #expect(svg.wellFormed)
            for year in 2021...2025 { #expect(svg.texts.contains("\(year)"), "\(chart.fileName) \(year)") }
            #expect(chart.title.hasSuffix("monthly means") || chart.title.hasSuffix("per month"), "\(chart.title)")
            #expect(chart.altText.contains("monthly") || chart.altText.contains("per month"), "\(chart.fileName)")
        }
        let steps = try #require(charts.first { $0.fileName == "chart_steps.svg" })
        #expect(steps.title == "Steps per day, monthly means")
        // One bar per month; January 2021 holds 2021-01-04 … 31, all 20,000: its mean is 20,000,
        // every other month's 10,000.
        check(steps, marks: 60, unit: "steps")
        #expect(steps.svg.contains("<title>2021-01: steps 20,000 steps a day</title>"))
        #expect(steps.svg.contains("<title>2025-12: steps 10,000 steps a day</title>"))
        let heart = try #require(charts.first { $0.fileName == "chart_heart.svg" })
        #expect(heart.markCount == 120)  // 60 months × 2 panels
        let sleep = try #require(charts.first { $0.fileName == "chart_sleep.svg" })
        // Deep 60 + core 360 + REM 90 min = 8.5 h a night in every month: 3 marks × 60.
        #expect(sleep.markCount == 180)
        #expect(sleep.altText.contains("the monthly mean hours asleep per night"))
        let rings = try #require(charts.first { $0.fileName == "chart_rings.svg" })
        #expect(rings.markCount == 180)
        #expect(rings.svg.contains("<title>2021-01: Move 20 days</title>"))
        let workouts = try #require(charts.first { $0.fileName == "chart_workouts.svg" })
        #expect(workouts.markCount == 120)
        #expect(workouts.title == "Workouts per month")
        // The months' workouts, not the weeks': 60 × (8 + 4) = 720.
        #expect(workouts.altText.contains("720 workouts (Running 480, Walking 240)"))
    }

    /// 300 days (43 weeks): weekly means, one bar per week; the first week (Monday 2025-01-06 …)
    /// is whole, so each bar's mean is the week's steps (1,000 × the week's index + 1).
    @Test func aMiddleSpanShowsWeeklyMeans() throws {
        var input = ChartInputs()
        for d in 0..<300 {
            let date = CivilDate(daysSince1970: CivilDate(year: 2025, month: 1, day: 6).daysSince1970 + d)
            input.days.append(.init(date: date.description, steps: Double(1000 * (d / 7 + 1))))
        }
        let steps = try #require(ReportCharts.dailySteps(input))
        #expect(steps.title == "Steps per day, weekly means")
        // 300 days = 42 whole weeks and 6 days: 43 bars.
        check(steps, marks: 43, unit: "steps")
        #expect(steps.svg.contains("<title>week of 2025-01-13: steps 2,000 steps a day</title>"))
        // Under two years the months are labelled (Jan … Oct) and the year below.
        let texts = SVGInspection(steps.svg).texts
        #expect(texts.contains("Feb") && texts.contains("2025"))
    }

    /// 300 days of which only the first week (2025-01-06 to 01-12) has steps: one weekly bar, and
    /// the alt text counts it as "1 week with data" (it said "1 weeks").
    @Test func oneWeekWithDataIsCountedInTheSingular() throws {
        var input = ChartInputs()
        for d in 0..<300 {
            let date = CivilDate(daysSince1970: CivilDate(year: 2025, month: 1, day: 6).daysSince1970 + d)
            input.days.append(.init(date: date.description, steps: d < 7 ? 5000 : nil))
        }
        let steps = try #require(ReportCharts.dailySteps(input))
        #expect(steps.altText.contains(", 1 week with data, "), "\(steps.altText)")
    }

    /// One workout in one week: the y axis counts 0 and 1 (no 0.2 steps), the bar is at most
    /// 36 px wide (not half the chart), and its count is printed above it.
    @Test func aSingleWorkoutHasAnIntegerAxisAndANarrowBar() throws {
        var input = ChartInputs()
        input.weeks = [
            .init(
                label: "2025-W41", start: "2025-10-06", days: 7, moveClosedDays: 0, exerciseClosedDays: 0,
                standClosedDays: 0, workoutsByActivity: ["Running": 1])
        ]
        let file = try #require(ReportCharts.workoutsPerWeek(input))
        let texts = SVGInspection(file.svg).texts
        #expect(texts.contains("0") && texts.contains("1") && !texts.contains("0.5") && !texts.contains("0.2"))
        let width = try #require(file.svg.firstMatch(of: #/class="mark" x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)"/#))
        #expect(Double(width.1)! <= 36)
        #expect(
            LinearScale(minimum: 0, maximum: 3, includeZero: true, pixelLow: 100, pixelHigh: 0, integer: true).ticks
                == [0, 1, 2, 3])
    }

    /// A left-out run between two days is drawn: a dashed break line (saying how many days) and
    /// the // mark on the axis; 2025-10-08 to 2025-12-01 leaves out 53 days.
    @Test func aLeftOutRunIsMarked() throws {
        var input = ChartInputs()
        for (k, date) in ((1...8).map { "2025-10-0\($0)" } + (1...8).map { "2025-12-0\($0)" }).enumerated() {
            input.days.append(.init(date: date, steps: 1000, gapBefore: k == 8))
        }
        let steps = try #require(ReportCharts.dailySteps(input))
        #expect(steps.svg.components(separatedBy: "class=\"break\"").count - 1 == 1)
        #expect(steps.svg.contains("<title>53 days left out (no data)</title>"))
    }

    /// One 13-minute night: the bar carries its length, "0:13 h", so that it reads on an axis
    /// that goes to the 8 h line.
    @Test func aSingleShortNightIsLabelled() throws {
        var input = ChartInputs()
        input.nights = [
            .init(night: "2024-01-01", coreMinutes: 12.5, deepMinutes: 0, remMinutes: 0, unspecifiedMinutes: nil)
        ]
        let file = try #require(ReportCharts.sleepStages(input))
        #expect(SVGInspection(file.svg).texts.contains("0:13 h"))  // 12.5 min rounds to 13
        #expect(file.markCount == 1)
    }
}

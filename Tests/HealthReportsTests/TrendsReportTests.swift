import HealthExport
import HealthTables
import Testing

@testable import HealthAnalysis
@testable import HealthReports

/// The trends in report.md, report.json and trends.csv (docs/trends.md).
@Suite("Trends report")
struct TrendsReportTests {
    /// Exercise 46 min a day over 90 days against 38 over 365 (46 > 38 × 1.03 = 39.14: up);
    /// resting heart rate 55.0 against 58.0 (55 < 58 × 0.97 = 56.26: down, a change of
    /// −3/58 = −5.2 %, smaller than exercise's +8/38 = +21 %); stand minutes without data. A week
    /// before (2025-01-06), exercise was steady (so it changed direction) and resting heart rate
    /// down already (so it did not).
    static func result() -> AnalysisResult {
        var r = makeSampleResult()
        r.trends = Trends(
            end: CivilDate("2025-01-13")!, historyDays: 400,
            trends: [
                {
                    var t = Trend(
                        metric: .exercise, unit: "min/day", recentDays: 90, recentMean: 46, yearDays: 360,
                        yearMean: 38, direction: .up)
                    t.previousDirection = .steady
                    return t
                }(),
                {
                    var t = Trend(
                        metric: .restingHeartRate, unit: "bpm", recentDays: 80, recentMean: 55, yearDays: 300,
                        yearMean: 58, direction: .down)
                    t.previousDirection = .down
                    return t
                }(),
                Trend(metric: .standMinutes, unit: "min/day", whyNone: "no data in the 365 days up to 2025-01-13"),
            ])
        return r
    }

    @Test func reportMarkdownHasATrendsSectionAfterAtAGlance() throws {
        let text = ReportWriter().markdownReport(Self.result(), context: makeSampleContext())
        let glance = try #require(text.range(of: "## At a glance\n"))
        let trends = try #require(text.range(of: "## Trends\n"))
        #expect(glance.upperBound < trends.lowerBound)
        #expect(text.contains("| Exercise | ↑ | 46 min/day | 90 | 38 min/day | 360 |"))
        #expect(text.contains("| Resting heart rate | ↓ | 55.0 bpm | 80 | 58.0 bpm | 300 |"))
        #expect(
            text.contains(
                "Exercise is up: 46 min a day over the last 90 days, 38 over the year. "
                    + "Resting heart rate is down: 55.0 bpm over the last 90 days, 58.0 over the year."))
        #expect(text.contains("- Stand minutes: no data in the 365 days up to 2025-01-13."))
    }

    @Test func trendsCSVAndJSONCarryTheFigures() {
        let r = Self.result()
        let csv = ReportWriter().text(of: .trends, for: r, context: makeSampleContext())
        #expect(
            csv == """
                metric,unit,end,recent_days,recent_mean,year_days,year_mean,direction,why_none
                exercise,min/day,2025-01-13,90,46,360,38,up,
                resting_heart_rate,bpm,2025-01-13,80,55,300,58,down,
                stand_minutes,min/day,2025-01-13,0,,0,,,no data in the 365 days up to 2025-01-13

                """)
        let json = ReportWriter().reportJSON(r, context: makeSampleContext())
        #expect(json.contains("  \"trends_end\": \"2025-01-13\",\n"))
        #expect(
            json.contains(
                "{\"metric\": \"exercise\", \"unit\": \"min/day\", \"recent_days\": 90, \"recent_mean\": 46.000, "
                    + "\"year_days\": 360, \"year_mean\": 38.000, \"direction\": \"up\", \"why_none\": null}"))
    }

    @Test func underTheMinimumTheSectionSaysWhy() {
        var r = Self.result()
        r.trends?.historyDays = 120
        let text = ReportWriter().markdownReport(r, context: makeSampleContext())
        #expect(
            text.contains(
                "No trends yet: the input has 120 days of history up to 2025-01-13; trends need 180."))
    }

    /// The digest of `--summary`: the sample result's 15 days (2024-12-30 to 2025-01-13) with
    /// the exercise and resting-heart-rate trends above; at most 30 lines of 72 columns.
    @Test func summaryTextFitsSeventyTwoColumnsAndNamesTheTrendsThatChangedDirection() {
        let text = ReportWriter().summaryText(Self.result(), context: makeSampleContext())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 30)
        #expect(lines.allSatisfy { $0.count <= 72 && $0.last != " " })
        #expect(lines.first == "Activity 2024-12-30 to 2025-01-13")
        #expect(text.contains("\n15 days in the period, "))
        #expect(text.contains("\nTrends that changed direction since 2025-01-06:\n"))
        #expect(text.contains("\n  Exercise steady -> up: 46 against 38 min/day\nNow up: Exercise\n"))
        #expect(text.contains("\nNow down: Resting heart rate\n"))
        #expect(!text.contains("Resting heart rate down ->"))
    }
}

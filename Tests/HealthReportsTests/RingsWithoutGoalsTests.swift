import HealthExport
import Testing

@testable import HealthAnalysis
@testable import HealthReports

/// Rings without goals (docs/rings.md): "—" in the weekly and monthly tables, said once why.
@Suite("Rings without goals")
struct RingsWithoutGoalsTests {
    /// The sample result with every ring goal removed: no day has goals, so every week's and
    /// month's ring cell is "—" (it was "0 / 0 / 0 / 0" and "0/0/0"), and the reason is given.
    @Test func weeksAndMonthsWithoutGoalsShowADash() {
        var r = makeSampleResult()
        for i in r.days.indices {
            r.days[i].moveGoalKcal = nil
            r.days[i].moveGoalMinutes = nil
            r.days[i].exerciseGoalMinutes = nil
            r.days[i].standGoalHours = nil
        }
        let text = ReportWriter().markdownReport(r, context: makeSampleContext())
        #expect(!text.contains("0 / 0 / 0 / 0"))
        #expect(!text.contains("| 0/0/0 |"))
        #expect(text.contains("Rings —: no day of that week or month has ring goals (no ActivitySummary)"))
    }
}

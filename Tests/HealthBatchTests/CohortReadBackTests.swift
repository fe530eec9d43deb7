import Foundation
import HealthAnalysis
import HealthTables
import TestSupport
import Testing

@testable import HealthBatch

@Suite("Cohort reads person folders typed")
struct CohortReadBackTests {
    /// Two summary-only days (no ring records, the summary's own values against the goals, as
    /// `rings_closed` counts them, docs/rings.md §3):
    /// - 2025-01-01: Move 620 ≥ 500, Exercise 45 ≥ 30, Stand 13 ≥ 12: 3 rings;
    /// - 2025-01-02: Move 300 < 500, Exercise 31 ≥ 30, Stand 2 < 12: 1 ring.
    /// So Move closed on 1 of 2 days (0.5), Exercise 2 of 2 (1), Stand 1 of 2 (0.5): on each day
    /// the rings counted add up to `rings_closed`. (A rule of its own that looked at `move_kcal`
    /// only found no Move value on either day and left the three rates empty.)
    @Test func ringRatesFollowTheRuleOfRingsClosed() throws {
        let days = try ReportTables.daily.values(
            fromCSV: """
                date,move_kcal,move_goal_kcal,exercise_min,exercise_goal_min,stand_hours,stand_goal_hours,rings_closed,summary_move_kcal,summary_exercise_min,summary_stand_hours
                2025-01-01,,500,,30,,12,3,620,45,13
                2025-01-02,,500,,30,,12,1,300,31,2
                """ + "\n")
        let m = PersonMeasures(days: days, nights: [])
        #expect(m.allRingsClosed == 0.5)
        #expect(m.moveClosed == 0.5)
        #expect(m.exerciseClosed == 1)
        #expect(m.standClosed == 0.5)
        for day in days { #expect(RingsClosed(day).countedRings == day.ringsClosed) }
    }

    /// A person whose daily.csv holds `NaN` is failed in people.csv with the file, line and
    /// column, and none of their rows reaches any cohort table; the other person's rows do.
    @Test func aPersonWhoseFileDoesNotReadBackFails() throws {
        let out = try TestScratch.folder("cohort-read")
        defer { try? FileManager.default.removeItem(at: out) }
        func write(_ person: String, _ name: String, _ text: String) throws {
            let folder = out.appendingPathComponent("person=\(person)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("a", "daily.csv", "date,steps\n2025-01-01,1200\n")
        try write("b", "daily.csv", "date,steps\n2025-01-01,NaN\n")
        try write("b", "sleep.csv", "night,kind,asleep_min\n2025-01-01,night,420\n")
        let files = Dictionary(uniqueKeysWithValues: try Cohort.texts(out.path).map { ($0.name, $0.text) })
        let daily = try #require(files["daily.csv"])
        #expect(daily.hasSuffix("\na,2025-01-01,1200" + String(repeating: ",", count: 34) + "\n"))
        #expect(!daily.contains("\nb,"))
        #expect(try #require(files["sleep.csv"]).split(separator: "\n").count == 1)
        let people = try #require(files["people.csv"]).split(separator: "\n").map(String.init)
        // 10 columns (no `seconds`: docs/batch.md §4), so 8 commas after the outcome.
        #expect(people[1] == "a,unknown" + String(repeating: ",", count: 8))
        #expect(
            people[2] == "b,failed,person=b/daily.csv line 2 (column steps): 'NaN' is not a number"
                + String(repeating: ",", count: 7))
        #expect(try #require(files["report.md"]).contains("| Last run failed | 1 |"))
    }
}

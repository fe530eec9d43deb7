import Foundation
import Testing

/// Inputs that the whole-CLI fuzzer (Fuzz/cli_fuzz.swift) found defects with.
@Suite("CLI fuzz findings")
struct FuzzCLIFindingsTests {
    /// cli_fuzz case 2561 (finding F3 of the issue-10 fuzzing note): a Workout
    /// whose `duration` attribute is negative (`-5` min; its start and end are 30 min apart) is
    /// was written as `duration_min` -5 in workouts.csv. No total may be negative; such a duration is
    /// bad input (a diagnostic, and the workout's duration unknown or taken from its dates).
    @Test func aNegativeWorkoutDurationIsNotANegativeTotal() throws {
        let xml =
            xmlHead + "<ExportDate value=\"2025-06-10 12:00:00 +0000\"/>\n"
            + "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"-5\" durationUnit=\"min\""
            + " sourceName=\"W\" startDate=\"2025-06-01 11:00:00 +0000\" endDate=\"2025-06-01 11:30:00 +0000\"/>\n"
            + "</HealthData>\n"
        let input = try hostileFile("negative-duration.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try String(contentsOf: out.appendingPathComponent("workouts.csv"), encoding: .utf8)
        let header = csv.split(whereSeparator: \.isNewline).first.map { $0.split(separator: ",").map(String.init) }
        let column = try #require(header?.firstIndex(of: "duration_min"))
        let rows = try csvRows(out.appendingPathComponent("workouts.csv"))
        #expect(rows.count == 1)
        #expect(rows.allSatisfy { !$0[column].hasPrefix("-") }, "\(rows)")
    }
}

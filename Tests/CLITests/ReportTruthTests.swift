import Foundation
import SyntheticExport
import Testing

/// Reads a CSV without quoted fields (daily.csv: dates and numbers) into rows keyed by column.
func readPlainCSV(_ url: URL) throws -> [[String: String]] {
    let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n").filter { !$0.isEmpty }
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return lines.dropFirst().map { line in
        let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return Dictionary(uniqueKeysWithValues: zip(header, cells))
    }
}

/// The record types behind daily.csv's columns, for `SyntheticDayTruth.hasRecords`.
let distanceType = "HKQuantityTypeIdentifierDistanceWalkingRunning"
let energyType = "HKQuantityTypeIdentifierActiveEnergyBurned"
let basalType = "HKQuantityTypeIdentifierBasalEnergyBurned"
let exerciseType = "HKQuantityTypeIdentifierAppleExerciseTime"
let standHourType = "HKCategoryTypeIdentifierAppleStandHour"

@Suite("daily.csv against the generator's truth")
struct DailyCSVTruthTests {
    /// Exports that span a DST change; the generator knows the true per-day values (docs/deduplication.md §4 merge
    /// over its own local days). Tolerances are those the issue sets: steps exact, distance
    /// within 0.1 %, energy within 0.5 %, exercise minutes and stand hours exact.
    @Test(arguments: [
        // Berlin springs forward on 2026-03-29 (a 23-hour day).
        SyntheticExportConfiguration(firstDay: "2026-03-24", days: 10, timeZoneIdentifier: "Europe/Berlin", seed: 11),
        // New York falls back on 2025-11-02 (a 25-hour day).
        SyntheticExportConfiguration(firstDay: "2025-10-28", days: 10, timeZoneIdentifier: "America/New_York", seed: 5),
    ])
    func dailyCSVReproducesTheTruth(configuration: SyntheticExportConfiguration) throws {
        let dir = try temporaryFolder()
        let (bytes, truth) = SyntheticExport.makeExport(configuration)
        let xml = dir.appendingPathComponent("export.xml")
        try Data(bytes).write(to: xml)
        let r = try run(
            ["report", xml.path, "--out", dir.appendingPathComponent("out").path], environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(dir.appendingPathComponent("out/daily.csv"))
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        #expect(truth.days.contains { $0.hours != 24 }, "the range must include a DST change")

        func number(_ row: [String: String], _ column: String) -> Double? { row[column].flatMap(Double.init) }
        // An empty cell is right only on a day without records of the column's type (the
        // truth's 0 then means no data); a day with records and a true 0 must read 0.
        func within(_ value: Double?, _ expected: Double, relative: Double, _ day: SyntheticDayTruth, _ type: String)
            -> Bool
        {
            guard let value else { return expected == 0 && !day.hasRecords(type) }
            return abs(value - expected) <= max(relative * abs(expected), 0.051)  // CSV keeps 1 decimal for kcal
        }
        for (row, t) in zip(rows, truth.days) {
            let at = "\(configuration.timeZoneIdentifier) \(t.date)"
            #expect(number(row, "steps") == t.steps, "\(at) steps")
            #expect(
                within(number(row, "distance_km"), t.distanceKm, relative: 0.001, t, distanceType), "\(at) distance")
            #expect(
                within(number(row, "active_energy_kcal"), t.activeEnergyKcal, relative: 0.005, t, energyType),
                "\(at) active energy")
            #expect(within(number(row, "move_kcal"), t.moveKcal, relative: 0.005, t, energyType), "\(at) move")
            #expect(
                within(number(row, "basal_energy_kcal"), t.basalEnergyKcal, relative: 0.005, t, basalType),
                "\(at) basal")
            #expect(number(row, "exercise_min") == t.exerciseMinutes, "\(at) exercise")
            #expect(number(row, "stand_hours") == Double(t.standHours), "\(at) stand hours")
            #expect(number(row, "workouts") == Double(t.workouts), "\(at) workouts")
            // The Watch's own ActivitySummary agrees with the record-derived rings every day.
            #expect(number(row, "summary_exercise_min") == number(row, "exercise_min"), "\(at) summary exercise")
            #expect(number(row, "summary_stand_hours") == number(row, "stand_hours"), "\(at) summary stand")
            #expect(
                within(number(row, "summary_move_kcal"), number(row, "move_kcal") ?? -1, relative: 0.01, t, energyType),
                "\(at) summary move")
        }
        let report = try String(contentsOf: dir.appendingPathComponent("out/report.md"), encoding: .utf8)
        #expect(report.contains("on \(truth.days.count) days: \(truth.days.count) agree (100%)"))
        #expect(report.contains("`\(configuration.timeZoneIdentifier)`, the most frequent `HKTimeZone`"))
    }
}

@Suite(
    "Reports on the public sample exports",
    .enabled(
        if: FileManager.default.fileExists(
            atPath: packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path),
        "../shared/corpus is not beside this clone; corpus report tests skipped"))
struct CorpusReportTests {
    let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    @Test func modernExcerptBucketsByTheHKTimeZoneNotThePrintedOffset() throws {
        let out = try temporaryFolder()
        let r = try run([
            "report", corpus.appendingPathComponent("apple-health-parser/tests/data/export.zip").path, "--out",
            out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        // All timestamps are printed at +0200 (export-time offset, June) but HKTimeZone is
        // Europe/Amsterdam, +0100 in January:
        //  - active energy 0.12 at "2024-01-01 01:02:27 +0200" = 2023-12-31 23:02:27 UTC = 00:02:27 local → 2024-01-01;
        //  - active energy 0.08 at "2024-01-02 01:52:27 +0200" = 2024-01-01 23:52:27 UTC = 00:52:27 local → 2024-01-02;
        //  - exercise 1 min at "2024-01-01 15:16:00 +0200" → 14:16 local → 2024-01-01;
        //  - heart rate 74 and 75 at "2024-01-01 01:01:36/37 +0200" → 00:01 local → 2024-01-01; the
        //    time-weighted mean (docs/deduplication.md §9): 74 weighs the 1 s to the next sample, 75 (the last)
        //    the 600 s cap → (74 + 600 × 75) / 601 = 74.998 → 75.0;
        //  - an InBed sleep record that ends on 2023-12-31 local: a night of that day (sleep.csv), so
        //    the day is a day with data, empty in daily.csv.
        // The exercise 0 on 01-02: the Watch wrote Move energy that day but no exercise minute.
        #expect(rows.map { $0["date"]! } == ["2023-12-31", "2024-01-01", "2024-01-02"])
        #expect(rows[0]["steps"] == "" && rows[0]["active_energy_kcal"] == "")
        #expect(rows[1]["active_energy_kcal"] == "0.1" && rows[1]["move_kcal"] == "0.1")
        #expect(rows[1]["exercise_min"] == "1")
        #expect(rows[1]["heart_rate_avg_bpm"] == "75")
        #expect(rows[1]["heart_rate_min_bpm"] == "74" && rows[1]["heart_rate_max_bpm"] == "75")
        #expect(rows[2]["active_energy_kcal"] == "0.1")  // 0.08 with one decimal
        #expect(rows[2]["exercise_min"] == "0")
        #expect(rows[2]["heart_rate_avg_bpm"] == "")
        let sleep = try readPlainCSV(out.appendingPathComponent("sleep.csv"))
        #expect(sleep.map { $0["night"]! } == ["2023-12-31", "2024-01-01"])
        #expect(sleep[0]["source"] == "" && sleep[0]["asleep_min"] == "" && sleep[0]["in_bed_min"] != "")
        let sources = try String(contentsOf: out.appendingPathComponent("sources.csv"), encoding: .utf8)
        #expect(
            sources.contains(
                "HKQuantityTypeIdentifierActiveEnergyBurned,Alexandre's Apple Watch,watch,2,0.2,0.2,kcal\n"))
    }

    @Test func handMadeExportKeepsItsActivitySummariesAndWorkout() throws {
        let out = try temporaryFolder()
        let r = try run([
            "report", corpus.appendingPathComponent("healthkit-to-sqlite/tests/export.xml").path, "--out", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        // Zone America/Los_Angeles (the workout's HKTimeZone). The period runs from the workout
        // (2016-11-14 07:25:41 -0700 = 06:25:41 PST) to the heart-rate sample
        // (2018-09-10 02:28:55 -0700 = 02:28:55 PDT): 2016-11-14 … 2018-09-10 is 666 days. Data
        // lies on 2016-11-14 (the workout), 11-15 and 11-16 (the summaries) and 2018-09-10; the
        // 666 − 4 = 662 days between 2016-11-17 and 2018-09-09 are a run of more than 31 days
        // without data, left out: 4 rows.
        #expect(rows.map { $0["date"]! } == ["2016-11-14", "2016-11-15", "2016-11-16", "2018-09-10"])
        #expect(rows[0]["workouts"] == "1" && rows[0]["workout_min"] == "5.2")  // 5.194 min
        #expect(rows[1]["summary_move_kcal"] == "590.3" && rows[1]["summary_exercise_min"] == "68")
        #expect(rows[1]["move_goal_kcal"] == "630" && rows[1]["stand_goal_hours"] == "12")
        // No ring records that day: the rings are the summary's own values (docs: rings):
        // exercise 68 ≥ 30 and stand 13 ≥ 12 closed, move 590.252 < 630 open → 2.
        #expect(rows[1]["rings_closed"] == "2")
        #expect(rows.last?["heart_rate_avg_bpm"] == "72")
        // 2016-W46 (Mon 11-14 … Sun 11-20) and 2018-W37 (Mon 09-10 …) keep their rows; the 94
        // weeks and the 21 months (2016-12 … 2018-08) wholly inside the run are left out.
        let weeks = try readPlainCSV(out.appendingPathComponent("weekly.csv"))
        #expect(weeks.map { $0["week"]! } == ["2016-W46", "2018-W37"])
        let months = try readPlainCSV(out.appendingPathComponent("monthly.csv"))
        #expect(months.map { $0["month"]! } == ["2016-11", "2018-09"])
        // The source is written "Apple\u{00A0}Watch" (a no-break space), and only its heart-rate
        // record carries a device string (model:Watch): it is still an Apple Watch.
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("1. Apple\u{00A0}Watch (Apple Watch)\n"))
        #expect(report.contains("No data from 2016-11-17 to 2018-09-09 (662 days): runs of more than 31 days"))
        // Two ActivitySummary days with goals and no ring records: counted from the summaries
        // (11-16: exercise 39 ≥ 30 closed, stand 9 < 12 and move 323.5 < 630 open): move 0,
        // exercise 2, stand 1 of 2 days. Activity rings says so (docs/rings.md §3), and At a glance
        // lists the summaries' own values instead of saying no day has Exercise data.
        #expect(
            report.contains(
                "Of 2 days with ring goals (no ring records on any of them: the rings are the ActivitySummary's own "
                    + "values against its goals):\n"))
        #expect(report.contains("| Exercise, ActivitySummary (min) | 2 |"))
        let weekRow = try #require(weeks.first)
        #expect(
            [
                weekRow["move_ring_closed_days"], weekRow["exercise_ring_closed_days"],
                weekRow["stand_ring_closed_days"],
                weekRow["all_rings_closed_days"],
            ] == ["0", "2", "1", "0"])
    }

    @Test func anExportWithoutZoneFallsBackToTZ() throws {
        let out = try temporaryFolder()
        let r = try run(
            [
                "report", corpus.appendingPathComponent("aleksi-applehealth/testdata/testdata.xml").path, "--out",
                out.path,
            ],
            environment: ["TZ": "Europe/Moscow"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("`Europe/Moscow`"))
        // Height feeds no daily column; the manual body mass of "2017-07-25 08:18:00 +0300"
        // (08:18 in Moscow, +0300 then too) is the one day row.
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        #expect(rows.map { $0["date"]! } == ["2017-07-25"])
        #expect(rows.first?["body_mass_kg"] == "65")
    }
}

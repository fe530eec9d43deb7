import Foundation
import SyntheticExport
import Testing

/// Exports whose person moves, travels, or whose export names no zone: the days of `daily.csv`
/// must be the generator's true local days (its own calendar code, `ZoneSchedule`), value by
/// value, with the zone of each day, and the Watch's ActivitySummary must agree on every day.
@Suite("Time zones per period against the generator's truth")
struct TimeZoneScenarioTests {
    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var configuration: SyntheticExportConfiguration
        var environmentTZ: String = "UTC"
        /// iPhone-only: no Watch, so exercise and stand have no data (empty cells) where the
        /// truth counts 0.
        var noWatch = false
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        // Los Angeles (PST, then PDT from 2024-03-10) to Berlin: first Berlin day 2024-03-21.
        Scenario(
            name: "relocation Los Angeles to Berlin",
            configuration: SyntheticExportConfiguration(
                firstDay: "2024-03-01", days: 39, timeZoneIdentifier: "America/Los_Angeles", seed: 3,
                zoneChanges: [SyntheticZoneChange(firstDay: "2024-03-21", timeZoneIdentifier: "Europe/Berlin")])),
        // A week in Tokyo and back; Berlin falls back on 2025-10-26, while the person is away.
        Scenario(
            name: "one-week trip Berlin to Tokyo and back",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-10-13", days: 28, timeZoneIdentifier: "Europe/Berlin", seed: 4,
                zoneChanges: [
                    SyntheticZoneChange(firstDay: "2025-10-20", timeZoneIdentifier: "Asia/Tokyo"),
                    SyntheticZoneChange(firstDay: "2025-10-27", timeZoneIdentifier: "Europe/Berlin"),
                ])),
        // The first days after a move without HKTimeZone: no sample names Tokyo on
        // 2023-04-10 … 04-12, so the first Tokyo day can be any of 04-10 … 04-13 and the
        // ActivitySummary decides.
        Scenario(
            name: "Berlin to Tokyo, HKTimeZone only from the fourth day",
            configuration: SyntheticExportConfiguration(
                firstDay: "2023-03-27", days: 30, timeZoneIdentifier: "Europe/Berlin", seed: 13,
                zoneChanges: [
                    SyntheticZoneChange(
                        firstDay: "2023-04-10", timeZoneIdentifier: "Asia/Tokyo", daysWithoutTimeZoneMetadata: 3)
                ])),
        Scenario(
            name: "Los Angeles to Berlin, HKTimeZone only from the fourth day",
            configuration: SyntheticExportConfiguration(
                firstDay: "2024-03-01", days: 39, timeZoneIdentifier: "America/Los_Angeles", seed: 14,
                zoneChanges: [
                    SyntheticZoneChange(
                        firstDay: "2024-03-21", timeZoneIdentifier: "Europe/Berlin", daysWithoutTimeZoneMetadata: 3)
                ])),
        Scenario(
            name: "Berlin to New York, HKTimeZone only from the fourth day",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-05-05", days: 30, timeZoneIdentifier: "Europe/Berlin", seed: 15,
                zoneChanges: [
                    SyntheticZoneChange(
                        firstDay: "2025-05-19", timeZoneIdentifier: "America/New_York", daysWithoutTimeZoneMetadata: 3)
                ])),
        // Los Angeles (PST) to Bangkok (+07:00) from 2025-11-14: the travel day 2025-11-13 lasts
        // 9 hours (Los Angeles midnight to Bangkok midnight), the shortest the generator plans.
        Scenario(
            name: "Los Angeles to Bangkok, a 9-hour travel day",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-11-10", days: 10, timeZoneIdentifier: "America/Los_Angeles", seed: 11,
                zoneChanges: [SyntheticZoneChange(firstDay: "2025-11-14", timeZoneIdentifier: "Asia/Bangkok")])),
        // Southern hemisphere: Sydney leaves DST on 2025-04-06 (a 25-hour day).
        Scenario(
            name: "Australia/Sydney across the April change",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-03-30", days: 14, timeZoneIdentifier: "Australia/Sydney", seed: 6)),
        // +05:45, never a whole hour.
        Scenario(
            name: "Asia/Kathmandu",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-06-02", days: 10, timeZoneIdentifier: "Asia/Kathmandu", seed: 7)),
        // No HKTimeZone anywhere, across Berlin's 2025-10-26 change; run under two machine zones.
        Scenario(
            name: "no HKTimeZone, Berlin DST change, TZ=UTC",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-10-20", days: 14, timeZoneIdentifier: "Europe/Berlin", seed: 8,
                writesTimeZoneMetadata: false), environmentTZ: "UTC"),
        Scenario(
            name: "no HKTimeZone, Berlin DST change, TZ=Asia/Tokyo",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-10-20", days: 14, timeZoneIdentifier: "Europe/Berlin", seed: 8,
                writesTimeZoneMetadata: false), environmentTZ: "Asia/Tokyo"),
        // Moves and trips without HKTimeZone: found from where the ActivitySummary
        // agreement and the HRV beat times change zone.
        Scenario(
            name: "no HKTimeZone, relocation Los Angeles to Berlin",
            configuration: SyntheticExportConfiguration(
                firstDay: "2024-03-01", days: 39, timeZoneIdentifier: "America/Los_Angeles", seed: 3,
                zoneChanges: [SyntheticZoneChange(firstDay: "2024-03-21", timeZoneIdentifier: "Europe/Berlin")],
                writesTimeZoneMetadata: false)),
        Scenario(
            name: "no HKTimeZone, one-week trip Berlin to Tokyo and back, TZ=America/New_York",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-10-13", days: 28, timeZoneIdentifier: "Europe/Berlin", seed: 4,
                zoneChanges: [
                    SyntheticZoneChange(firstDay: "2025-10-20", timeZoneIdentifier: "Asia/Tokyo"),
                    SyntheticZoneChange(firstDay: "2025-10-27", timeZoneIdentifier: "Europe/Berlin"),
                ], writesTimeZoneMetadata: false), environmentTZ: "America/New_York"),
        Scenario(
            name: "no HKTimeZone, Berlin to New York, a 3-day trip",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-05-05", days: 20, timeZoneIdentifier: "Europe/Berlin", seed: 12,
                zoneChanges: [
                    SyntheticZoneChange(firstDay: "2025-05-12", timeZoneIdentifier: "America/New_York"),
                    SyntheticZoneChange(firstDay: "2025-05-15", timeZoneIdentifier: "Europe/Berlin"),
                ], writesTimeZoneMetadata: false)),
        // No HKTimeZone in the southern hemisphere: Santiago leaves DST on 2025-04-06.
        Scenario(
            name: "no HKTimeZone, America/Santiago",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-03-30", days: 14, timeZoneIdentifier: "America/Santiago", seed: 9,
                writesTimeZoneMetadata: false)),
        // iPhone only: the Move ring is the phone's estimate from its active energy.
        Scenario(
            name: "iPhone only, phone-estimated Move ring",
            configuration: SyntheticExportConfiguration(
                firstDay: "2025-05-05", days: 10, timeZoneIdentifier: "America/Chicago", seed: 10,
                hasAppleWatch: false), noWatch: true),
    ]

    @Test(arguments: scenarios)
    func dailyCSVHasTheTrueDaysInTheTrueZones(scenario: Scenario) throws {
        let dir = try temporaryFolder()
        let (bytes, truth) = SyntheticExport.makeExport(scenario.configuration)
        let xml = dir.appendingPathComponent("export.xml")
        try Data(bytes).write(to: xml)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": scenario.environmentTZ])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        #expect(rows.map { $0["time_zone"]! } == truth.dayTimeZoneIdentifiers)

        expectTrueDays(rows, truth, name: scenario.name, noWatch: scenario.noWatch)
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("on \(truth.days.count) days: \(truth.days.count) agree (100%)"), "\(report)")
        let model = scenario.noWatch ? "- Move: iPhone active energy" : "- Move: Apple Watch records"
        #expect(
            report.contains(
                "\(model)\(scenario.noWatch ? " (the phone-estimated Move ring, on days without Apple Watch energy)" : "") on \(truth.days.count) days; agrees with the ActivitySummary on \(truth.days.count) of \(truth.days.count) (100%)"
            ), "\(report)")
    }

    @Test func reportListsThePeriodsFoundWithoutHKTimeZoneWithTheirOwnEvidence() throws {
        // The no-HKTimeZone move of the scenarios: 20 Los Angeles days (03-01 … 03-20) and 19
        // Berlin days, each period's days counted as the report cuts them (the travel day 03-20
        // ends at Berlin's midnight), every one agreeing with its ActivitySummary.
        let configuration = try #require(
            Self.scenarios.first { $0.name == "no HKTimeZone, relocation Los Angeles to Berlin" }
        )
        .configuration
        let dir = try temporaryFolder()
        let xml = dir.appendingPathComponent("export.xml")
        let (bytes, truth) = SyntheticExport.makeExport(configuration)
        try Data(bytes).write(to: xml)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.hasPrefix(
                "Read \(xml.path): 2024-03-01 to 2024-04-08, 39 days in the period, 39 with data, zones America/Los_Angeles → Europe/Berlin\n"
            ))
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        let hrv = truth.days.map { $0.hrvRecords }
        #expect(
            report.contains(
                "  - `America/Los_Angeles` 2024-03-01 to 2024-03-20, without `HKTimeZone`: its days fit this zone best (ActivitySummary: 20 of 20 days agree; HRV beat times: \(hrv.prefix(20).reduce(0, +)) of \(hrv.prefix(20).reduce(0, +)) match)\n"
            ), "\(report)")
        #expect(
            report.contains(
                "  - `Europe/Berlin` 2024-03-21 to 2024-04-08, without `HKTimeZone`: its days fit this zone best (ActivitySummary: 19 of 19 days agree; HRV beat times: \(hrv.dropFirst(20).reduce(0, +)) of \(hrv.dropFirst(20).reduce(0, +)) match); no sample names a zone: the days' evidence (ActivitySummary, HRV beat times) fits America/Los\\_Angeles until 2024-03-20 and Europe/Berlin from 2024-03-21\n"
            ), "\(report)")
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(json.contains("\"reason\": \"change points of ActivitySummary agreement and HRV beat offsets\""))
    }

    @Test func anArchiveOfExportsMadeInThreeZonesTakesEachExportsOffsetForItsDays() throws {
        // One iPhone-only person (no Watch: no ring inputs, no HRV beats), no HKTimeZone: in
        // Berlin from 2024-01-08, in Bogota from 2024-06-17. Three exports, each made at noon of
        // the day after its last day: 2024-02-17 (+0100, Berlin winter), 2024-06-16 (+0200,
        // Berlin summer) and 2024-07-26 (-0500, Bogota). Only Berlin's group of zones has +0100
        // and +0200 then, and no zone has all three offsets, so the archive holds two periods:
        // Berlin up to the day of the second export, Bogota from the day after it (06-17, the
        // truth). Imported in any order. Before this rule, the latest export's offset decided
        // alone: Bogota for every day, 161 of 200 days in the wrong zone.
        let dir = try temporaryFolder()
        func export(days: Int, moves: Bool) -> SyntheticExportConfiguration {
            SyntheticExportConfiguration(
                firstDay: "2024-01-08", days: days, timeZoneIdentifier: "Europe/Berlin", seed: 5, locale: "es_CO",
                zoneChanges: moves
                    ? [SyntheticZoneChange(firstDay: "2024-06-17", timeZoneIdentifier: "America/Bogota")] : [],
                writesTimeZoneMetadata: false, hasAppleWatch: false)
        }
        let configurations = [
            export(days: 40, moves: false), export(days: 160, moves: false), export(days: 200, moves: true),
        ]
        var paths: [String] = []
        var truth: SyntheticTruth?
        for (k, c) in configurations.enumerated() {
            let made = SyntheticExport.makeExport(c)
            let xml = dir.appendingPathComponent("export\(k + 1).xml")
            try Data(made.bytes).write(to: xml)
            paths.append(xml.path)
            truth = made.truth
        }
        let days = try #require(truth).days.map(\.date)
        let zones = try #require(truth).dayTimeZoneIdentifiers
        #expect(zones.filter { $0 == "Europe/Berlin" }.count == 161)
        for order in [[2, 0, 1], [0, 1, 2], [1, 2, 0]] {
            let db = dir.appendingPathComponent("order\(order.map(String.init).joined()).sqlite")
            for k in order {
                let r = try run(["import", paths[k], "--db", db.path, "--quiet"], environment: ["TZ": "UTC"])
                #expect(r.status == 0, "\(r.stderr)")
            }
            let out = dir.appendingPathComponent("out\(order.map(String.init).joined())")
            let r = try run(["report", "--db", db.path, "--out", out.path], environment: ["TZ": "UTC"])
            #expect(r.status == 0, "\(r.stderr)")
            let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
            #expect(rows.map { $0["date"]! } == days, "\(order)")
            #expect(rows.map { $0["time_zone"]! } == zones, "\(order)")
            let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(
                report.contains(
                    "  - `Europe/Berlin` 2024-01-08 to 2024-06-16, without `HKTimeZone`: a zone with the offset printed on the export made then\n"
                ), "\(report)")
            #expect(report.contains("  - `America/Bogota` 2024-06-17 to 2024-07-25, without `HKTimeZone`"), "\(report)")
        }
    }

    @Test func theSameExportGivesTheSameDaysOnEveryMachine() throws {
        // No HKTimeZone: only the export decides, never the machine's TZ.
        let configuration = SyntheticExportConfiguration(
            firstDay: "2025-10-20", days: 14, timeZoneIdentifier: "Europe/Berlin", seed: 8,
            writesTimeZoneMetadata: false)
        let dir = try temporaryFolder()
        let xml = dir.appendingPathComponent("export.xml")
        try Data(SyntheticExport.makeExport(configuration).bytes).write(to: xml)
        var outputs: [Data] = []
        // Europe/Paris gives Berlin's days: it named them (time_zone "Europe/Paris") until ties
        // were broken by the export's evidence instead of TZ.
        for tz in ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Europe/Paris"] {
            let out = dir.appendingPathComponent(tz.replacingOccurrences(of: "/", with: "-"))
            let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": tz])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(try Data(contentsOf: out.appendingPathComponent("daily.csv")))
            outputs.append(try Data(contentsOf: out.appendingPathComponent("report.md")))
            let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
            #expect(json.contains("\"identifier\": \"Europe/Berlin\""), "\(tz)")
        }
        // daily.csv and report.md (even index: daily.csv) are the same under every TZ.
        for k in 2..<outputs.count { #expect(outputs[k] == outputs[k % 2], "output \(k)") }
    }

    @Test func reportListsThePeriodsAndWhy() throws {
        let configuration = Self.scenarios[0].configuration
        let dir = try temporaryFolder()
        let xml = dir.appendingPathComponent("export.xml")
        try Data(SyntheticExport.makeExport(configuration).bytes).write(to: xml)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("- `America/Los_Angeles` 2024-03-01 to 2024-03-20, from "))
        #expect(report.contains("- `Europe/Berlin` 2024-03-21 to 2024-04-08, from "))
        #expect(
            r.stdout.hasPrefix(
                "Read \(xml.path): 2024-03-01 to 2024-04-08, 39 days in the period, 39 with data, zones America/Los_Angeles → Europe/Berlin\n"
            ))
        // --tz still forces one zone for everything.
        let forced = dir.appendingPathComponent("forced")
        let f = try run(["report", xml.path, "--out", forced.path, "--tz", "Europe/Berlin"])
        #expect(f.status == 0, "\(f.stderr)")
        let rows = try readPlainCSV(forced.appendingPathComponent("daily.csv"))
        #expect(Set(rows.map { $0["time_zone"]! }) == ["Europe/Berlin"])
        // Forced into Berlin, the 20 Los Angeles days are cut 8–9 hours off: far more than 5 % of
        // the days disagree with the ActivitySummary; standard error and the Notes say so, with
        // the cause tested (the export's own timeline agrees on every day).
        #expect(f.stderr.contains("warning: the rings computed from the records disagree with the ActivitySummary on "))
        #expect(f.stderr.contains("leaving out --tz (zones per period from the export) agrees on 39 of 39 days"))
        let forcedReport = try String(contentsOf: forced.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(forcedReport.contains("Likely cause: the time zone"))
        // One form for a warning: the Notes bullet is the standard-error line, word
        // for word, `warning: ` included; no `WARNING:` anywhere.
        // (The bullet is Markdown: its backslash escapes and `&amp;` are undone to compare.)
        let stderrLine = try #require(f.stderr.split(separator: "\n").first { $0.hasPrefix("warning: the rings") })
        let bullet = try #require(forcedReport.split(separator: "\n").first { $0.hasPrefix("- warning: the rings") })
        let unescaped = bullet.dropFirst(2).replacing(#/\\(.)/#) { String($0.output.1) }
        #expect(unescaped.replacing("&amp;", with: "&") == stderrLine)
        #expect(!forcedReport.contains("WARNING:"))
        #expect(!r.stderr.contains("warning:"))
    }
}

/// Expects each row of `daily.csv` to hold the truth's values of its day (steps, distance,
/// energy, Move, exercise, stand hours, workouts, heart rate maximum), `name` labelling failures;
/// `noWatch` for an iPhone-only export (the Move ring then comes from the phone).
func expectTrueDays(_ rows: [[String: String]], _ truth: SyntheticTruth, name: String, noWatch: Bool = false) {
    func number(_ row: [String: String], _ column: String) -> Double? { row[column].flatMap(Double.init) }
    // An empty cell is right only on a day without records of the column's type (the
    // truth's 0 then means no data); a day with records and a true 0 must read 0.
    func within(_ value: Double?, _ expected: Double, relative: Double, _ day: SyntheticDayTruth, _ type: String)
        -> Bool
    {
        guard let value else { return expected == 0 && !day.hasRecords(type) }
        return abs(value - expected) <= max(relative * abs(expected), 0.051)  // kcal have 1 decimal
    }
    for (row, t) in zip(rows, truth.days) {
        let at = "\(name) \(t.date)"
        #expect(number(row, "steps") == t.steps, "\(at) steps")
        #expect(
            within(number(row, "distance_km"), t.distanceKm, relative: 0.001, t, distanceType), "\(at) distance")
        #expect(
            within(number(row, "active_energy_kcal"), t.activeEnergyKcal, relative: 0.005, t, energyType),
            "\(at) active energy")
        #expect(within(number(row, "move_kcal"), t.moveKcal, relative: 0.005, t, energyType), "\(at) move")
        // Empty reads as 0 only on a day without records of the type (a phone-only day).
        func orNoData(_ value: Double?, _ type: String) -> Double? { value ?? (t.hasRecords(type) ? nil : 0) }
        #expect(orNoData(number(row, "exercise_min"), exerciseType) == t.exerciseMinutes, "\(at) exercise")
        #expect(orNoData(number(row, "stand_hours"), standHourType) == Double(t.standHours), "\(at) stand hours")
        if noWatch { #expect(t.moveKcal > 0, "\(at): the phone estimated a Move ring") }
        #expect(number(row, "workouts") == Double(t.workouts), "\(at) workouts")
        #expect(number(row, "heart_rate_max_bpm") == t.heartRateMaxBpm, "\(at) heart rate max")
    }
}

@Suite("Messages for a truncated export")
struct TruncatedExportMessageTests {
    /// Cuts a generated export exactly before a record, inside one, and before `</HealthData>`.
    @Test(arguments: ["between", "inside", "end"])
    func aTruncatedExportIsCalledIncompleteOnOneLine(cut: String) throws {
        let dir = try temporaryFolder()
        let bytes = SyntheticExport.makeExport(SyntheticExportConfiguration(days: 2)).bytes
        let data = Data(bytes)
        let record = Data("<Record".utf8)
        let middle = data.range(of: record, in: (data.count / 2)..<data.count)!.lowerBound
        let end = data.range(of: Data("</HealthData>".utf8), options: .backwards)!.lowerBound
        let length = cut == "between" ? middle : cut == "inside" ? middle + 40 : end
        let xml = dir.appendingPathComponent("export.xml")
        try data.prefix(length).write(to: xml)
        let r = try run(["report", xml.path, "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("export.xml: line "))
        #expect(r.stderr.contains("export again from the Health app"))
        // Between records and before the end tag libxml2 says "Extra content at the end of the
        // document"; inside a record (40 bytes into it, in an attribute) it reports its error
        // only at the last feed, standing at the end of the bytes: every cut is called a cut.
        #expect(r.stderr.contains("the export is truncated: it ends before </HealthData>"))
        if cut == "inside" { #expect(r.stderr.contains("(libxml2: AttValue: ' expected")) }
        // Cut between records (or just before the end tag), libxml2's "Extra content at the end
        // of the document" is not what happened, so it is not quoted: the parenthesis holds only
        // the count.
        if cut != "inside" {
            #expect(!r.stderr.contains("Extra content"), "\(r.stderr)")
            #expect(r.stderr.contains("ends before </HealthData> (stopped after "), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/daily.csv").path))
    }
}

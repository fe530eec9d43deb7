import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthReports
@testable import HealthTables

@Suite("Sleep and workout outputs")
struct SleepAndWorkoutsReportTests {
    let writer = ReportWriter()
    let result = makeSleepAndWorkoutResult()
    var context: ReportContext {
        var c = makeSampleContext()
        c.routes = makeSampleRoutes()
        return c
    }

    @Test func sleepCSVMatchesGolden() {
        expectMatchesGolden(writer.sleepCSV(result), named: "sleepCSVMatchesGolden.csv")
    }

    @Test func workoutsCSVMatchesGolden() {
        expectMatchesGolden(writer.workoutsCSV(result, routes: context.routes), named: "workoutsCSVMatchesGolden.csv")
    }

    @Test func markdownReportWithSleepAndWorkoutsMatchesGolden() {
        expectMatchesGolden(
            writer.markdownReport(result, context: context), named: "markdownReportWithSleepAndWorkoutsMatchesGolden.md"
        )
    }

    @Test func monthlyCSVSchemaAndJSONMatchGolden() {
        var r = result
        r.months = [MonthlyMetrics(month: "2025-01")]
        r.months[0].days = 14
        r.months[0].partial = true
        r.months[0].stepsPerDay = 8_123.4
        r.months[0].sleepMinutesPerNight = 431.25
        r.months[0].workoutsByActivity = ["Running": 1, "Walking": 1, "Functional Strength Training": 1]
        expectMatchesGolden(writer.monthlyCSV(r), named: "monthlyCSVMatchesGolden.csv")
        expectMatchesGolden(writer.schemaSQL(), named: "schemaSQLMatchesGolden.sql")
        expectMatchesGolden(writer.reportJSON(r, context: context), named: "reportJSONMatchesGolden.json")
    }

    @Test func sleepChartMatchesGolden() throws {
        let chart = try #require(writer.charts(result).first { $0.fileName == "chart_sleep.svg" })
        expectMatchesGolden(chart.svg, named: "sleepChartMatchesGolden.svg")
        // Two nights (the nap is not a night): Watch core, deep, REM (3 marks), the app's asleep
        // without stages (1).
        #expect(SVGInspection(chart.svg).marks == 4)
    }

    /// Route files not read (`report --db`, routes nil): `route_in_export` is empty, not false,
    /// for the run whose route is in the export and the walk whose route is not (docs/archive.md).
    @Test func routeInExportIsEmptyWhenRouteFilesWereNotRead() throws {
        let rows = try #require(parseCSV(writer.workoutsCSV(result, routes: nil)))
        let header = rows[0]
        func cell(_ row: Int, _ name: String) -> String { rows[row][header.firstIndex(of: name)!] }
        #expect(cell(1, "route") == "route_2025-01-05_6.00pm.gpx" && cell(1, "route_in_export") == "")
        #expect(cell(3, "route") != "" && cell(3, "route_in_export") == "")
    }

    @Test func workoutRowsSayWhatIsMissingAndWhatIsADuplicate() throws {
        let rows = try #require(parseCSV(writer.workoutsCSV(result, routes: context.routes)))
        let header = rows[0]
        func cell(_ row: Int, _ name: String) -> String { rows[row][header.firstIndex(of: name)!] }
        // The run: its route is in the export, 270 points.
        #expect(cell(1, "route") == "route_2025-01-05_6.00pm.gpx" && cell(1, "route_in_export") == "true")
        #expect(cell(1, "route_points") == "270" && cell(1, "route_distance_km") == "7.391")
        // The copy from the app: not counted, names the run it repeats.
        #expect(cell(2, "counted") == "false" && cell(2, "duplicate_of") == "2025-01-05T18:00:00+01:00")
        #expect(cell(2, "heart_rate_avg_bpm") == "" && cell(2, "route") == "")
        // The walk's route file is missing: a warning, not an error.
        #expect(cell(3, "route_in_export") == "false" && cell(3, "route_points") == "")
        // Strength training measured no distance: empty, not 0.
        #expect(cell(4, "distance_km") == "" && cell(4, "active_energy_kcal") == "160")
        let md = writer.markdownReport(result, context: context)
        #expect(md.contains("2 workouts name a route file; 1 of them is in the export (1 missing"))
        #expect(md.contains("1 workout was recorded twice"))
        // Running: 1 counted (the copy is not), 42.25 min → 0.7 h, 7.4 km.
        #expect(md.contains("| Running | 1 | 0.7 | 7.4 | 512 |"))
    }

    /// With one night without stages and one workout naming a route (the run's, which is in the
    /// export), the notes speak of one: "1 of 1 night comes …", "1 workout names …; it is …".
    @Test func notesAboutOneNightOrOneWorkoutAreSingular() {
        var r = result
        r.sleep = r.sleep.filter { $0.isNap || $0.coreMinutes == nil }
        r.workouts = r.workouts.filter { $0.routeFiles.isEmpty || $0.routeFiles[0].hasSuffix("6.00pm.gpx") }
        let md = writer.markdownReport(r, context: context)
        #expect(md.contains("1 of 1 night comes from a source without sleep stages; its stage columns"))
        #expect(md.contains("1 workout names a route file; it is in the export."))
    }

    @Test func sleepSectionAveragesOnlyNightsWithStagesForStages() {
        let md = writer.markdownReport(result, context: context)
        // Asleep over both nights: (418.5 + 444) / 2 = 431.25 → 7 h 11 min; deep only over the
        // staged night: 80.5 → 1 h 21 min (rounded half up); the nap is not a night. In bed over
        // its own one night (the Watch night's 455 min = 7 h 35 min), not over the asleep nights.
        #expect(md.contains("| Asleep | 2 | 7 h 11 min |"))
        #expect(md.contains("| Deep | 1 | 1 h 21 min |"))
        #expect(md.contains("| In bed | 1 | 7 h 35 min |"))
        #expect(md.contains("1 of 2 nights comes from a source without sleep stages"))
        #expect(md.contains("1 day with naps, 0 h 35 min asleep on average"))
        #expect(md.contains("![Stacked bar chart of the hours asleep per night"))
    }
}

@Suite("Files for programs: schema.sql and report.json")
struct MachineReadableFilesTests {
    let writer = ReportWriter()

    /// The `CREATE TABLE` column names of `table` in schema.sql.
    func schemaColumns(_ table: String) -> [String] {
        let sql = writer.schemaSQL()
        guard let start = sql.range(of: "CREATE TABLE \(table) (\n") else { return [] }
        let body = sql[start.upperBound...].prefix { $0 != ")" }
        return body.split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst().first.map(String.init)
        }
    }

    @Test func everyCSVColumnHasATypedColumnInTheSchema() throws {
        let result = makeSleepAndWorkoutResult()
        let files = ReportFile.allCases.filter { $0.fileName.hasSuffix(".csv") }
        #expect(ReportWriter.tableSchemas.map(\.fileName) == files.map(\.fileName))
        for (table, file) in zip(ReportWriter.tableSchemas, files) {
            let header = try #require(parseCSV(writer.text(of: file, for: result, context: makeSampleContext()))?.first)
            #expect(schemaColumns(table.name) == header, "\(table.name)")
            #expect(table.header == header, "\(table.name)")
        }
        // A column that can be empty for a whole export still loads as a number.
        #expect(writer.schemaSQL().contains("\"hrv_sdnn_ms\" DOUBLE"))
        #expect(writer.schemaSQL().contains("\"bedtime\" TIMESTAMP WITH TIME ZONE"))
        #expect(writer.schemaSQL().contains("\"counted\" BOOLEAN"))
    }

    @Test func reportJSONSaysHowTheReportWasMade() throws {
        let json = writer.reportJSON(makeSleepAndWorkoutResult(), context: makeSampleContext())
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["tool"] as? String == "health-analyzer" && object["version"] as? String == "0.1.0")
        #expect(object["input"] as? String == "export.zip")
        let period = try #require(object["period"] as? [String: Any])
        // 2024-12-30 … 2025-01-13: 2 days of December and 13 of January = 15.
        #expect(period["first_day"] as? String == "2024-12-30" && period["days"] as? Int == 15)
        let order = try #require(object["source_order"] as? [[String: Any]])
        #expect(order.first?["rank"] as? Int == 0)
        #expect((object["deduplication"] as? String)?.hasPrefix("priority coverage") == true)
        #expect((object["files"] as? [String])?.contains("chart_sleep.svg") == true)
    }
}

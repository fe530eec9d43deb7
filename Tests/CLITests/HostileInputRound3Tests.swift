import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Regression tests for the third round of hostile inputs: each builds its own input here and runs
// the CLI as a child under a time limit (`run(_:limit:)`), so a hang fails as `timedOut` and a
// crash as `signaled`.

/// One record line of `type` with `value` in `unit` at `start` (UTC, a point in time).
func record(_ type: String, _ unit: String, _ value: String, _ start: String, source: String = "Watch") -> String {
    "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" value=\"\(value)\""
        + " startDate=\"\(start) +0000\" endDate=\"\(start) +0000\"/>\n"
}

@Suite("Hostile inputs, third round")
struct HostileInputRound3Tests {
    /// One HRV and one resting heart rate of 10^16 (equal values past 2^53): before, the heart
    /// chart's tick loop never ended (`lo - 1 == lo`) and `report` grew past 2 GB. Now both are
    /// dropped as implausible with a note naming the range and the line, and the chart draws the
    /// plausible day only: HRV 50 ms and resting 55 bpm on 2025-06-03.
    /// Lines: 1 declaration, 2 <HealthData>, 3 ExportDate, 4-5 steps, 6 HRV, 7 resting, 8-9 the
    /// plausible pair.
    @Test func anImplausibleHeartValueIsDroppedAndTheChartEnds() throws {
        let xml =
            xmlHead + exportDateLine + steps("100", "2025-06-02 10:00:00") + steps("200", "2025-06-03 10:00:00")
            + record("HeartRateVariabilitySDNN", "ms", "1e16", "2025-06-02 11:00:00")
            + record("RestingHeartRate", "count/min", "1e16", "2025-06-02 11:00:00")
            + record("HeartRateVariabilitySDNN", "ms", "50", "2025-06-03 11:00:00")
            + record("RestingHeartRate", "count/min", "55", "2025-06-03 11:00:00") + "</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path], limit: 60)
        #expect(!r.timedOut && !r.signaled && r.status == 0, "\(r.stderr)")
        let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            md.contains("Dropped 1 heart-rate variability sample outside the plausible 1–1,000 ms (first at line 6)."))
        #expect(md.contains("Dropped 1 resting heart-rate sample outside the plausible 20–300 bpm (first at line 7)."))
        let daily = try String(contentsOf: out.appendingPathComponent("daily.csv"), encoding: .utf8)
        #expect(!daily.contains("10000000000000000"))
        let chart = try String(contentsOf: out.appendingPathComponent("chart_heart.svg"), encoding: .utf8)
        #expect(!chart.contains("000,000,000"))

        // The same through the archive: the value is stored as read, and dropped when read back.
        let db = input.deletingLastPathComponent().appendingPathComponent("h.sqlite").path
        let i = try run(["import", input.path, "--db", db, "--quiet"], limit: 60)
        #expect(i.status == 0, "\(i.stderr)")
        let out2 = input.deletingLastPathComponent().appendingPathComponent("out2")
        let d = try run(["report", "--db", db, "--out", out2.path], limit: 60)
        #expect(!d.timedOut && !d.signaled && d.status == 0, "\(d.stderr)")
        let md2 = try String(contentsOf: out2.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md2.contains("Dropped 1 heart-rate variability sample outside the plausible 1–1,000 ms"))
        #expect(try String(contentsOf: out2.appendingPathComponent("daily.csv"), encoding: .utf8) == daily)
    }

    /// Every quantity the analysis reads, at extreme but finite values (±1.797 × 10^308, 10^308,
    /// 10^16, the smallest subnormal), plus a workout and a blood-pressure reading at 10^308:
    /// `report` and `report --db` end with exit 0 and no CSV cell is `inf`, `nan` or a number longer
    /// than 40 characters (every implausible value is dropped; 10^16 steps would print 17 digits
    /// and pass, 10^308 is refused by the reader past ±3.4 × 10^38).
    @Test(arguments: ["1.7976931348623157e308", "-1e308", "1e308", "1e16", "5e-324"])
    func extremeButFiniteValuesInEveryQuantity(value: String) throws {
        let types: [(String, String)] = [
            ("StepCount", "count"), ("DistanceWalkingRunning", "km"), ("ActiveEnergyBurned", "kcal"),
            ("BasalEnergyBurned", "kcal"), ("FlightsClimbed", "count"), ("AppleExerciseTime", "min"),
            ("AppleStandTime", "min"), ("AppleMoveTime", "min"), ("HeartRate", "count/min"),
            ("RestingHeartRate", "count/min"), ("WalkingHeartRateAverage", "count/min"),
            ("HeartRateVariabilitySDNN", "ms"), ("RespiratoryRate", "count/min"), ("OxygenSaturation", "%"),
            ("AppleSleepingWristTemperature", "degC"), ("VO2Max", "mL/min·kg"), ("BodyMass", "kg"),
        ]
        var xml = xmlHead + exportDateLine + steps("100", "2025-06-02 09:00:00")
        for (k, (type, unit)) in types.enumerated() {
            xml += record(type, unit, value, "2025-06-02 1\(k % 10):00:00")
        }
        xml +=
            "<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\""
            + " startDate=\"2025-06-02 08:00:00 +0000\" endDate=\"2025-06-02 08:00:00 +0000\">\n"
            + record("BloodPressureSystolic", "mmHg", value, "2025-06-02 08:00:00", source: "Cuff")
            + record("BloodPressureDiastolic", "mmHg", value, "2025-06-02 08:00:00", source: "Cuff")
            + "</Correlation>\n"
            + "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"\(value)\" durationUnit=\"min\""
            + " totalDistance=\"\(value)\" totalDistanceUnit=\"km\" totalEnergyBurned=\"\(value)\""
            + " totalEnergyBurnedUnit=\"kcal\" sourceName=\"Watch\" startDate=\"2025-06-02 11:00:00 +0000\""
            + " endDate=\"2025-06-02 11:30:00 +0000\"/>\n</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let dir = input.deletingLastPathComponent()
        let db = dir.appendingPathComponent("h.sqlite").path
        let i = try run(["import", input.path, "--db", db, "--quiet"], limit: 60)
        #expect(!i.signaled && i.status == 0, "\(i.stderr)")
        for (name, arguments) in [
            ("out", ["report", input.path, "--tz", "UTC"]), ("out-db", ["report", "--db", db, "--tz", "UTC"]),
        ] {
            let out = dir.appendingPathComponent(name)
            let r = try run(arguments + ["--out", out.path], limit: 60)
            #expect(!r.timedOut && !r.signaled && r.status == 0, "\(name): \(r.stderr)")
            for file in files(in: out) where file.hasSuffix(".csv") {
                let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
                let cells = text.split(whereSeparator: { $0 == "," || $0 == "\n" })
                #expect(
                    !cells.contains {
                        $0 == "inf" || $0 == "-inf" || $0.lowercased() == "nan" || ($0.count > 40 && Double($0) != nil)
                    },
                    "\(name)/\(file) at \(value)")
            }
            // Past ±3.4 × 10^38 the reader refuses the value itself (a reader diagnostic); below, the
            // analysis drops it as implausible (a note).
            let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(md.contains("outside the plausible") || md.contains("value out of range"), "\(name) at \(value)")
        }
    }
}

/// The numeric columns of every table of an archive: (table, column, the SQL that picks one row
/// and names it, the row's key as the error message names it).
func numericColumns(_ db: String) throws -> [(table: String, column: String, row: String)] {
    var out: [(String, String, String)] = []
    let tables = try sqlite3(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .split(separator: "\n").map(String.init)
    for table in tables where !table.hasPrefix("sqlite_") && !table.hasSuffix("_results") {
        // name|type|pk|hidden for every column, generated ones included (hidden 2 or 3).
        let info = try sqlite3(
            db, "SELECT name || '|' || type || '|' || pk || '|' || hidden FROM pragma_table_xinfo('\(table)')"
        )
        .split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        for c in info where (c[1] == "INTEGER" || c[1] == "REAL") && c[3] == "0" {
            out.append((table, c[0], ""))
        }
    }
    return out
}

@Suite("Hostile archives, every numeric column")
struct ArchiveColumnSweepTests {
    static let values = ["1e308", "-1e308", "4611686018427387904", "999999999999999999"]

    /// Runs `inspect --db` and `report --db` on a copy of `db` edited by `sql`; each must end
    /// (no signal, no hang) with exit 0, or exit 1 and the one-line damaged-archive message that
    /// names `table` and `column`, the archive byte-identical.
    static func check(_ db: String, _ sql: String, table: String, column: String, value: String) throws {
        // `inspect --db` reads only these tables' numbers (the others are counted by SQL).
        let inspected = ["exports", "record_blocks"].contains(table)
        let dir = try temporaryFolder()
        let copy = dir.appendingPathComponent("h.sqlite").path
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        _ = try sqlite3(copy, sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        for arguments in [
            ["inspect", "--db", copy], ["report", "--db", copy, "--out", dir.appendingPathComponent("out").path],
        ] where inspected || arguments[0] == "report" {
            let r = try run(arguments, limit: 60)
            let what = "\(arguments[0]) with \(table).\(column) = \(value)"
            #expect(!r.timedOut && !r.signaled && (r.status == 0 || r.status == 1), "\(what): \(r.stderr)")
            if r.status == 1 {
                let lines = r.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(what): \(r.stderr)")
                #expect(r.stderr.hasPrefix("error: \(copy): the archive is damaged ("), "\(what): \(r.stderr)")
                #expect(r.stderr.contains(table) && r.stderr.contains(column), "\(what): \(r.stderr)")
                // (`report --db` that succeeds stores its result tables: only a refusal is checked.)
                #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before, "\(what)")
            }
        }
    }

    /// Every INTEGER or REAL column of every table (ids included; `record_blocks.type_id` is
    /// computed and cannot be set) at 10^308, −10^308, 2^62 and 999,999,999,999,999,999 in one
    /// row (the first by key). Before, 7 code sites crashed (Timestamp, the analyzer's finish,
    /// inspect and read, the zone evidence, the report writer).
    @Test(arguments: values) func everyNumericColumnOfEveryTable(value: String) throws {
        let (_, db) = try folderWithAnArchive(days: 3)
        for (table, column, _) in try numericColumns(db) {
            let pk = try sqlite3(
                db, "SELECT group_concat(name) FROM pragma_table_info('\(table)') WHERE pk > 0 ORDER BY pk")
            let key = pk.isEmpty || !pk.contains(",") ? (pk.isEmpty ? "rowid" : pk) : "(\(pk))"
            let sql =
                "UPDATE \(table) SET \(column) = \(value) WHERE \(key) = (SELECT \(pk.isEmpty ? "rowid" : pk) FROM \(table) ORDER BY \(pk.isEmpty ? "rowid" : pk) LIMIT 1)"
            try Self.check(db, sql, table: table, column: column, value: value)
        }
    }

    /// Every numeric field of the first record of the first block (docs/archive.md §6.1: s, n,
    /// source_id, duration_s, value, unit_id, printed_offset_min, export_id, line,
    /// source_version_id, device_id, creation_delay_s, original_value, value_text_id), at the same
    /// four values; a damaged block is named with its id and the field's name.
    @Test(arguments: values) func everyNumericFieldOfARecordBlock(value: String) throws {
        let (_, db) = try folderWithAnArchive(days: 3)
        let names = [
            "s", "n", "source_id", "duration_s", "value", "unit_id", "printed_offset_min", "export_id", "line",
            "source_version_id", "device_id", "creation_delay_s", "original_value", "value_text_id",
        ]
        for (k, name) in names.enumerated() {
            let sql =
                "UPDATE record_blocks SET records = json_set(records, '$[0][\(k)]', \(value)) WHERE id = (SELECT min(id) FROM record_blocks)"
            try Self.check(db, sql, table: "record_blocks", column: name, value: value)
        }
    }
}

@Suite("Import into a damaged archive")
struct ImportIntegrityTests {
    /// An index whose definition is edited to other columns (`writable_schema`): its entries no
    /// longer match the table, which `PRAGMA integrity_check` reports ("row 1 missing from
    /// index …") and `quick_check` does not (it does not compare indexes with tables). Before,
    /// `import` checked with `quick_check`, exited 0 and wrote into it; now it refuses with
    /// integrity_check's first problem and the file is byte-identical.
    @Test func importRefusesAnArchiveWithAnIndexThatMissesRows() throws {
        let (dir, db) = try folderWithAnArchive(days: 3)
        // An index of a table with rows: swap its two columns.
        let index = try sqlite3(
            db,
            "SELECT m.name FROM sqlite_master m WHERE m.type = 'index' AND m.sql IS NOT NULL"
                + " AND m.name = 'workout_statistics_by_workout' AND (SELECT count(*) FROM workout_statistics) > 1")
        try #require(index == "workout_statistics_by_workout")
        _ = try sqlite3(
            db,
            "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, '(workout_id, position)',"
                + " '(position, workout_id)') WHERE name = '\(index)';")
        #expect(try sqlite3(db, "PRAGMA quick_check") == "ok")
        #expect(try sqlite3(db, "PRAGMA integrity_check") != "ok")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let b = try ArchiveCLITests.export(dir, "b.xml", firstDay: "2025-07-07", days: 2)
        let r = try run(["import", b.path, "--db", db], limit: 120)
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr.hasPrefix("error: \(db): the archive is damaged (PRAGMA integrity_check: "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}

@Suite("FIFOs in folders the tool lists")
struct FIFOFolderTests {
    static let export =
        xmlHead + exportDateLine + steps("100", "2025-06-02 10:00:00") + "</HealthData>\n"

    /// An unzipped export folder whose first `.xml` by name is a FIFO (`a.xml`, before
    /// `export.xml`): the folder is searched by content and each file was opened blocking, so
    /// `report`, `inspect` and `import` waited forever. Now a FIFO is no candidate.
    @Test func aFIFONamedXMLInAnExportFolderIsSkipped() throws {
        let dir = try temporaryFolder()
        let folder = dir.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder.appendingPathComponent("a.xml").path, 0o644) == 0)
        try Data(Self.export.utf8).write(to: folder.appendingPathComponent("export.xml"))
        for arguments in [
            ["report", folder.path, "--out", dir.appendingPathComponent("out").path, "--tz", "UTC"],
            ["inspect", folder.path], ["import", folder.path, "--db", dir.appendingPathComponent("h.sqlite").path],
        ] {
            let r = try run(arguments, limit: 30)
            #expect(!r.timedOut && r.status == 0, "\(arguments[0]): \(r.stderr)")
        }
    }

    /// A batch folder with a good person (`alice.xml`) and one whose unzipped export folder
    /// holds only a FIFO `export.xml` (`carol/`): the whole batch hung. Now carol fails alone
    /// with the folder's reason, alice is done (exit 2: some people failed, docs/batch.md §1). Then a FIFO `daily.csv` in alice's results hung
    /// `cohort`: now it is not read (alice has no daily rows) and cohort ends.
    @Test func aFIFOInABatchOrCohortFolderDoesNotHang() throws {
        let dir = try temporaryFolder()
        let input = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(
            at: input.appendingPathComponent("carol"), withIntermediateDirectories: true)
        try Data(Self.export.utf8).write(to: input.appendingPathComponent("alice.xml"))
        #expect(mkfifo(input.appendingPathComponent("carol/export.xml").path, 0o644) == 0)
        let out = dir.appendingPathComponent("out")
        let r = try run(["batch", input.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(!r.timedOut && r.status == 2, "\(r.stderr)")
        let people = try String(contentsOf: out.appendingPathComponent("cohort/people.csv"), encoding: .utf8)
        #expect(people.contains("alice,done,"))
        #expect(people.contains("carol,failed,\(input.path)/carol: no export .xml file in this folder,"), "\(people)")
        let daily = out.appendingPathComponent("person=alice/daily.csv")
        try FileManager.default.removeItem(at: daily)
        #expect(mkfifo(daily.path, 0o644) == 0)
        let c = try run(["cohort", out.path], limit: 60)
        #expect(!c.timedOut && !c.signaled, "\(c.stderr)")
    }
}

@Suite("Terminal escapes in names")
struct TerminalEscapeTests {
    /// A zip whose only `.xml` entry is named with escape sequences (OSC 0 sets the terminal's
    /// title, `ESC[2J` clears the screen) and holds no export: the error names the entry, and
    /// before it printed the name raw. Now no byte below 0x20 but the final line feed reaches
    /// the terminal: ESC is `\x1B`, BEL `\x07`. A source name with the C1 control CSI (U+009B,
    /// which XML allows where it forbids ESC) is escaped in `inspect`'s table the same way.
    @Test func namesFromTheInputArePrintedWithControlCharactersEscaped() throws {
        let name = "a\u{1B}]0;pwned\u{07}\u{1B}[2J.xml"
        let zip = handMadeZip([(name, Array("<not-an-export/>\n".utf8))], zip64: false).bytes
        let input = try hostileFile("evil.zip", zip)
        let r = try run(
            ["report", input.path, "--out", input.deletingLastPathComponent().appendingPathComponent("o").path],
            limit: 60)
        #expect(r.status != 0)
        #expect(!r.stderr.utf8.dropLast().contains { $0 < 0x20 && $0 != 0x09 }, "\(Array(r.stderr.utf8))")
        #expect(r.stderr.contains("a\\x1B]0;pwned\\x07\\x1B[2J.xml"), "\(r.stderr)")

        let xml =
            xmlHead + exportDateLine + steps("100", "2025-06-02 10:00:00", source: "Ph\u{9B}2Jone") + "</HealthData>\n"
        let export = try hostileFile("export.xml", Array(xml.utf8))
        let i = try run(["inspect", export.path], limit: 60)
        #expect(i.status == 0, "\(i.stderr)")
        #expect(!i.stdout.unicodeScalars.contains("\u{9B}"))
        #expect(i.stdout.contains("Ph\\u{9B}2Jone"), "\(i.stdout)")
    }
}

@Suite("report and report --db agree on the zone evidence")
struct ZoneEvidenceAgreementTests {
    /// The only HKTimeZone (Asia/Kathmandu) sits on a workout whose end date is unreadable (offset
    /// +9999): the reader drops the workout but counted its zone, the archive never stored it, so
    /// `report` chose Asia/Kathmandu and `report --db` America/Los_Angeles (from the export's
    /// -0700) and every day moved. Now the dropped workout's zone does not count: both read the
    /// same evidence and write the same daily.csv.
    @Test func aDroppedWorkoutsZoneCountsInNeither() throws {
        let xml =
            xmlHead + "<ExportDate value=\"2025-06-10 12:00:00 -0700\"/>\n"
            + steps("100", "2025-06-02 10:00:00") + steps("200", "2025-06-03 23:30:00")
            + "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\""
            + " sourceName=\"Watch\" startDate=\"2025-06-02 11:00:00 +0000\" endDate=\"2025-06-02 11:30:00 +9999\">\n"
            + "<MetadataEntry key=\"HKTimeZone\" value=\"Asia/Kathmandu\"/>\n</Workout>\n</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let dir = input.deletingLastPathComponent()
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", input.path, "--db", db, "--quiet"], limit: 60).status == 0)
        let a = try run(["report", input.path, "--out", dir.appendingPathComponent("a").path], limit: 60)
        let b = try run(["report", "--db", db, "--out", dir.appendingPathComponent("b").path], limit: 60)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        let da = try String(contentsOf: dir.appendingPathComponent("a/daily.csv"), encoding: .utf8)
        let dbDaily = try String(contentsOf: dir.appendingPathComponent("b/daily.csv"), encoding: .utf8)
        #expect(da == dbDaily)
        #expect(!da.contains("Asia/Kathmandu"), "\(da)")
    }
}

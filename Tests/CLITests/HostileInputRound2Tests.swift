import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Regression tests for the second round of hostile inputs. Each runs the CLI as a child
// under a time limit (`run(_:limit:)`), so a crash fails the test as `signaled` and a hang as
// `timedOut` instead of taking the suite down.

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of `bytes`, as a zip header holds it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A zip written byte by byte (stored entries, no extra fields), so that a test can damage one
/// known byte of it. With `zip64`, the end of central directory is a zip64 record (56 bytes),
/// its locator (20 bytes) and a classic record whose counts and offsets are all 0xFF…, which
/// tells a reader to take them from the zip64 record. Returns the bytes and the offset of the
/// zip64 record (or of the classic record without `zip64`).
func handMadeZip(_ entries: [(name: String, bytes: [UInt8])], zip64: Bool) -> (bytes: [UInt8], endRecord: Int) {
    var out: [UInt8] = []
    func le16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8(v >> (8 * UInt32(i)) & 0xFF)) } }
    func le64(_ v: Int) { for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
    var central: [(name: [UInt8], crc: UInt32, size: Int, offset: Int)] = []
    for (name, bytes) in entries {
        let n = Array(name.utf8)
        central.append((n, crc32(bytes), bytes.count, out.count))
        le32(0x0403_4B50)
        le16(20)
        le16(0)
        le16(0)  // stored
        le16(0)
        le16(0x21)  // time, date (1980-01-01)
        le32(crc32(bytes))
        le32(UInt32(bytes.count))
        le32(UInt32(bytes.count))
        le16(n.count)
        le16(0)
        out += n + bytes
    }
    let cdStart = out.count
    for c in central {
        le32(0x0201_4B50)
        le16(0x031E)
        le16(20)
        le16(0)
        le16(0)
        le16(0)
        le16(0x21)
        le32(c.crc)
        le32(UInt32(c.size))
        le32(UInt32(c.size))
        le16(c.name.count)
        le16(0)
        le16(0)
        le16(0)
        le16(0)
        le32(c.name.last == UInt8(ascii: "/") ? 0o40755 << 16 : 0o100644 << 16)
        le32(UInt32(c.offset))
        out += c.name
    }
    let cdSize = out.count - cdStart
    let end = out.count
    if zip64 {
        le32(0x0606_4B50)
        le64(44)
        le16(0x031E)
        le16(45)
        le32(0)
        le32(0)
        le64(central.count)
        le64(central.count)
        le64(cdSize)
        le64(cdStart)
        le32(0x0706_4B50)
        le32(0)
        le64(end)
        le32(1)
        le32(0x0605_4B50)
        le16(0)
        le16(0)
        le16(0xFFFF)
        le16(0xFFFF)
        le32(0xFFFF_FFFF)
        le32(0xFFFF_FFFF)
        le16(0)
    } else {
        le32(0x0605_4B50)
        le16(0)
        le16(0)
        le16(central.count)
        le16(central.count)
        le32(UInt32(cdSize))
        le32(UInt32(cdStart))
        le16(0)
    }
    return (out, end)
}

/// A small valid export: one step record.
let tinyExport = xmlHead + exportDateLine + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"

@Suite("Hostile inputs, second round")
struct HostileInputRound2Tests {
    /// `report`, `inspect` and `import` on `zip`: each exits 1 with one `error:` line naming the
    /// file, and none is killed by a signal. `import` leaves no archive behind (and says so in
    /// a second line, a note).
    func expectOneLineArchiveError(_ zip: URL) throws {
        let dir = zip.deletingLastPathComponent()
        let db = dir.appendingPathComponent("h.sqlite")
        for arguments in [
            ["inspect", zip.path], ["report", zip.path, "--out", dir.appendingPathComponent("out").path],
            ["import", zip.path, "--db", db.path],
        ] {
            let r = try run(arguments, limit: 60)
            #expect(!r.timedOut && !r.signaled && r.status == 1, "\(arguments[0]): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(
                lines.count == (arguments[0] == "import" ? 2 : 1) && lines[0].hasPrefix("error: ")
                    && lines[0].contains(zip.path),
                "\(arguments[0]): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db.path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// A zip64 end-of-central-directory record with one byte changed: byte 55 of the record is
    /// the top byte of the central directory's offset (bytes 48-55), so the offset becomes
    /// 0xFF00_0000_0000_00xx, far past the file's end. libarchive then fails without setting a
    /// message, and `String(cString:)` on the NULL message trapped (SIGILL) on main.
    @Test func aZip64EndRecordWithOneByteChangedFailsWithOneLine() throws {
        var (bytes, end) = handMadeZip(
            [("apple_health_export/", []), ("apple_health_export/export.xml", Array(tinyExport.utf8))], zip64: true)
        // Undamaged, it reads: the test's zip64 writer is right.
        let good = try hostileFile("good.zip", bytes)
        let ok = try run(["inspect", good.path], limit: 60)
        #expect(ok.status == 0 && ok.stdout.contains("Records      1 in 1 type from 1 source"), "\(ok.stderr)")
        bytes[end + 55] = 0xFF
        try expectOneLineArchiveError(try hostileFile("export.zip", bytes))
    }

    /// A zip cut short right after its first entry (a folder's 50-byte local header), 2 bytes
    /// into the next header's signature: on main, the same NULL message trapped.
    @Test func aZipCutShortAfterItsFirstEntryFailsWithOneLine() throws {
        let (bytes, _) = handMadeZip(
            [("apple_health_export/", []), ("apple_health_export/export.xml", Array(tinyExport.utf8))], zip64: false)
        // 30 bytes of header + the 20-byte name "apple_health_export/" = 50; then "PK".
        try expectOneLineArchiveError(try hostileFile("export.zip", Array(bytes[0..<52])))
    }

    /// Zips cut short, as an interrupted download or copy leaves them: the bundled sample's zip
    /// (made by the `zip` tool, export.xml deflated) cut to 60 % of its bytes, where zlib runs out
    /// of input inside export.xml ("ZIP decompression failed (-5)"), and the hand-made zip cut 2
    /// bytes into its second local header, where libarchive gives no text at all. Both get the
    /// same advice as a cut-short export.xml, on one line, said once.
    @Test(arguments: ["inside the deflated export", "inside a local header"])
    func aCutShortZipIsToldToExportAgain(cut: String) throws {
        let bytes: [UInt8]
        let libarchiveSays: String
        if cut == "inside the deflated export" {
            let whole = try Array(Data(contentsOf: sample))
            bytes = Array(whole[0..<(whole.count * 6 / 10)])
            libarchiveSays = ": ZIP decompression failed (-5) while reading apple_health_export/export.xml. The zip"
        } else {
            let (whole, _) = handMadeZip(
                [("apple_health_export/", []), ("apple_health_export/export.xml", Array(tinyExport.utf8))],
                zip64: false)
            bytes = Array(whole[0..<52])  // 30 + 20 bytes of the folder's local header, then "PK"
            libarchiveSays = ". The zip"
        }
        let input = try hostileFile("export.zip", bytes)
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path], limit: 120)
        #expect(!r.timedOut && !r.signaled && r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("export.zip: cannot read the zip archive\(libarchiveSays)"), "\(r.stderr)")
        #expect(!r.stderr.contains("damaged or truncated"), "said twice: \(r.stderr)")
        #expect(
            r.stderr.contains(
                "The zip is incomplete or damaged: export again from the Health app (profile picture, Export All"
                    + " Health Data) and copy the whole file"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A ring record and an ActivitySummary value of 1e19 (> 2^63 ≈ 9.2e18, < 3.4e38, so it
    /// passes the reader's bound): the day disagrees with its summary, so the agreement warning
    /// prints both values, and `Int(1e19)` trapped there on main ("Double value cannot be
    /// converted to Int"). Now it prints them in 3 digits, marked implausible. (The record of
    /// 1e19 kcal is dropped as implausible, docs/plausible-ranges.md, so the summary carries the
    /// 1e19 of the Move ring against the 100 kcal record.)
    @Test func aRingValueOfTenToTheNineteenDoesNotCrash() throws {
        let xml =
            xmlHead + exportDateLine
            + "<Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Apple Watch\" unit=\"kcal\""
            + " value=\"1e19\" startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 10:10:00 +0000\"/>\n"
            + "<Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Apple Watch\" unit=\"kcal\""
            + " value=\"100\" startDate=\"2025-06-01 11:00:00 +0000\" endDate=\"2025-06-01 11:10:00 +0000\"/>\n"
            + "<ActivitySummary dateComponents=\"2025-06-01\" activeEnergyBurned=\"1e19\" activeEnergyBurnedGoal=\"500\""
            + " activeEnergyBurnedUnit=\"kcal\" appleExerciseTime=\"10\" appleExerciseTimeGoal=\"30\""
            + " appleStandHours=\"1e19\" appleStandHoursGoal=\"12\"/>\n</HealthData>\n"
        let input = try hostileFile("rings.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 120)
        #expect(!r.timedOut && !r.signaled && r.status == 0, "\(r.stderr)")
        // The warning goes to standard error as it is (report.md escapes its underscores).
        #expect(r.stderr.contains("move_kcal 100 vs 1e+19 (implausible)"), "\(r.stderr)")
        #expect(r.stderr.contains("stand_hours none vs 1e+19 (implausible)"), "\(r.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("100 vs 1e+19 (implausible)"))
        #expect(
            report.contains(
                "Dropped 1 cumulative sample outside the plausible 0–1,000,000,000 in its type's unit (first at line 4)."
            ))
    }

    /// A FIFO named `*.gpx` in `workout-routes/` of an unzipped export: on main `report` opened
    /// it with a blocking `open()` and waited forever for a writer. Now it is refused as not a
    /// regular file, and the report is written.
    @Test func aFIFONamedGPXDoesNotBlockTheReport() throws {
        let dir = try temporaryFolder()
        let export = dir.appendingPathComponent("apple_health_export")
        let routes = export.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        // Route files are read only when a workout names one: this one names the FIFO.
        let xml =
            xmlHead + exportDateLine + steps("5", "2025-06-01 10:00:00")
            + "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\""
            + " sourceName=\"Watch\" startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 10:30:00 +0000\">\n"
            + "<WorkoutRoute sourceName=\"Watch\" startDate=\"2025-06-01 10:00:00 +0000\""
            + " endDate=\"2025-06-01 10:30:00 +0000\"><FileReference path=\"/workout-routes/route_fifo.gpx\"/>"
            + "</WorkoutRoute>\n</Workout>\n</HealthData>\n"
        try Data(xml.utf8).write(to: export.appendingPathComponent("export.xml"))
        let fifo = routes.appendingPathComponent("route_fifo.gpx")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", export.path, "--out", out.path, "--tz", "UTC"], limit: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        let warning = "1 could not be read (first: \(fifo.path): cannot read: not a regular file)"
        #expect(r.stderr.contains(warning), "\(r.stderr)")
        let workouts = try csvRows(out.appendingPathComponent("workouts.csv"))
        #expect(workouts.count == 1)
    }

    /// A symbolic link named like a staging folder beside `--out`, pointing at a folder of
    /// report-named files: on main the clean-up of "killed runs' staging folders" followed it
    /// and deleted daily.csv, report.md and weekly.csv there. Now only real folders of ours
    /// are staging folders; the link and the files it points at stay.
    @Test func aLinkNamedLikeAStagingFolderIsNeverFollowed() throws {
        let dir = try temporaryFolder()
        let victim = dir.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        for name in ["daily.csv", "report.md", "weekly.csv"] {
            try Data("keep \(name)\n".utf8).write(to: victim.appendingPathComponent(name))
        }
        let link = dir.appendingPathComponent(".out.tmp-4242-abc123")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        let input = try hostileFile("export.xml", Array(tinyExport.utf8))
        let r = try run(
            ["report", input.path, "--out", dir.appendingPathComponent("out").path, "--tz", "UTC"], limit: 120)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(files(in: victim) == ["daily.csv", "report.md", "weekly.csv"])
        #expect(
            try String(contentsOf: victim.appendingPathComponent("report.md"), encoding: .utf8) == "keep report.md\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == victim.path)
    }

    /// A link planted at the lock file's name (`.out.lock`) pointing at a file that does not
    /// exist: on main `open(O_CREAT)` followed it and created the target (0 bytes). Now the
    /// lock is opened with `O_NOFOLLOW`: the run fails with one line naming the lock, the target
    /// is not created and `--out` is not written.
    @Test func aLinkAtTheLockFileIsNotFollowed() throws {
        let dir = try temporaryFolder()
        let target = dir.appendingPathComponent("created-through-the-link")
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent(".out.lock"), withDestinationURL: target)
        let input = try hostileFile("export.xml", Array(tinyExport.utf8))
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 120)
        #expect(r.status == 1 && r.stderr.contains(".out.lock"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A second root element after `</HealthData>` (lines 1-2 the head, 3 ExportDate, 4 the
    /// record, 5 `</HealthData>`, 6 the second root): on main "the export is truncated:
    /// it ends before </HealthData>", which it does not. Now the message says what is there.
    /// With one parser thread and with two (the splitter takes such a file to the serial path).
    @Test(arguments: ["1", "2"]) func aSecondRootElementIsNotCalledTruncated(threads: String) throws {
        let xml = tinyExport + "<HealthData locale=\"en_US\">\n</HealthData>\n"
        let input = try hostileFile("two-roots.xml", Array(xml.utf8))
        let r = try run(["inspect", input.path, "--threads", threads], limit: 60)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "error: \(input.path): line 6, column 1: a second root element after </HealthData>, which ends the"
                + " export: '<HealthData locale=\"en_US\">' (libxml2: Extra content at the end of the document). The"
                + " export itself is complete; the file has something appended to it (two files joined?): remove what"
                + " follows </HealthData>\n")
    }

    /// `--out /`: on main "'/': it exists and is not a directory", which it is.
    @Test func outSlashSaysItIsTheRootFolder() throws {
        let input = try hostileFile("export.xml", Array(tinyExport.utf8))
        for out in ["/", "//", "/."] {
            let r = try run(["report", input.path, "--out", out], limit: 60)
            #expect(r.status == 1)
            #expect(
                r.stderr
                    == "error: cannot write the report into '\(out)': it is the root folder '/', which cannot be"
                    + " replaced as a whole the way an output folder is; give a folder inside it, e.g. --out /reports\n"
            )
        }
    }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Inputs that used to get a message naming something other than what was wrong. Each builds its
// input here and checks the message that names the real cause (docs/commands.md, exit codes).

@Suite("Messages that name the real cause")
struct WrongMessageTests {
    /// A comment of 10,000,010 bytes inside the root, the one record and the end tag after it.
    /// libxml2 parses it and reaches </HealthData>, then its size check after the parse step
    /// ("Huge input lookup") fires where it stands: line 7 of 6 lines (after the final newline).
    /// Before: "line 7, column 1: more content after </HealthData> … The export itself is complete".
    /// Lines: 1 declaration, 2 <HealthData>, 3 ExportDate, 4 the comment, 5 steps, 6 </HealthData>.
    @Test func aCommentOverTenMegabytesIsNamedNotContentAfterTheRoot() throws {
        let xml =
            xmlHead + exportDateLine + "<!--" + String(repeating: "c", count: 10_000_010) + "-->\n"
            + steps("5", "2025-06-01 10:00:00") + "</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        for command in ["inspect", "report"] {
            var arguments = [command, input.path]
            if command == "report" { arguments += ["--out", input.deletingLastPathComponent().path + "/out"] }
            let r = try run(arguments, limit: 120)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(
                r.stderr.contains(
                    "export.xml: a comment, CDATA section or text longer than 10,000,000 bytes comes before the end"
                        + " of the file (libxml2's limit"), "\(r.stderr)")
            #expect(!r.stderr.contains("after </HealthData>"), "\(r.stderr)")
            #expect(!r.stderr.contains("line 7"), "\(r.stderr)")
        }
    }

    /// The same with 2,000 records after the long CDATA section (each 120 bytes: 240 KB more),
    /// so the size check fires before the end: the message names the line where the parser
    /// stood, "before line N", never "after </HealthData>".
    @Test func aLongCDATASectionBeforeMoreRecordsNamesTheLineBefore() throws {
        let records = (0..<2_000).map { _ in steps("5", "2025-06-01 10:00:00") }.joined()
        let xml =
            xmlHead + exportDateLine + "<X><![CDATA[" + String(repeating: "c", count: 10_000_010) + "]]></X>\n"
            + records + "</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let r = try run(["inspect", input.path], limit: 120)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("a comment, CDATA section or text longer than 10,000,000 bytes comes before"),
            "\(r.stderr)")
        #expect(!r.stderr.contains("after </HealthData>"), "\(r.stderr)")
    }

    /// A zip whose only entry is the export saved as UTF-16 (with its byte-order mark). Before:
    /// "no XML entry with a <HealthData> root in the archive", where the same bytes as a plain
    /// file got the advice to convert them. A folder holding it said "holds no XML file".
    @Test func aUTF16ExportInAZipOrAFolderGetsTheConversionAdvice() throws {
        let dir = try temporaryFolder()
        let utf16 = try #require(tinyExport.data(using: .utf16))  // with a BOM
        let folder = dir.appendingPathComponent("unzipped/apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try utf16.write(to: folder.appendingPathComponent("export.xml"))
        let zip = dir.appendingPathComponent("export.zip")
        #expect(
            try system(
                "/usr/bin/python3",
                [
                    "-c",
                    "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], 'w');"
                        + " z.write(sys.argv[2], 'apple_health_export/export.xml'); z.close()",
                    zip.path, folder.appendingPathComponent("export.xml").path,
                ]) == 0)
        let r = try run(["inspect", zip.path], limit: 60)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "export.zip: not an Apple Health export: its entry apple_health_export/export.xml is encoded in"
                    + " UTF-16; Apple Health exports are UTF-8"), "\(r.stderr)")
        let f = try run(["inspect", dir.appendingPathComponent("unzipped").path], limit: 60)
        #expect(f.status == 1)
        #expect(
            f.stderr.contains(
                "apple_health_export/export.xml: not an Apple Health export: it is encoded in UTF-16"), "\(f.stderr)")
    }

    /// A manifest saved by Excel as "CSV UTF-8" starts with EF BB BF. Before: "line 1: the header
    /// has no 'person' column"; now the mark is not part of the header and the person is done.
    @Test func aManifestStartingWithAByteOrderMarkIsRead() throws {
        let dir = try temporaryFolder()
        try Data(tinyExport.utf8).write(to: dir.appendingPathComponent("alice.xml"))
        let manifest = dir.appendingPathComponent("people.csv")
        try Data([0xEF, 0xBB, 0xBF] + Array("person,export\nalice,alice.xml\n".utf8)).write(to: manifest)
        let r = try run(["batch", manifest.path, "--out", dir.appendingPathComponent("out").path], limit: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/person=alice/daily.csv").path))
    }

    /// A FIFO, /dev/zero and a link to nothing given as --db. Before: the first two were "an SQLite
    /// database that is not a health-analyzer archive (the file is empty (0 bytes))" and the link
    /// "no such archive; create it with import" (which then failed the same way). Now each says
    /// what the path is, for inspect, report and import, and nothing is created.
    @Test func aFIFOADeviceOrADanglingLinkAsDbIsNamed() throws {
        let dir = try temporaryFolder()
        let export = try hostileFile("export.xml", Array(tinyExport.utf8))
        let fifo = dir.appendingPathComponent("fifo.sqlite").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let link = dir.appendingPathComponent("link.sqlite").path
        #expect(symlink(dir.appendingPathComponent("gone/h.sqlite").path, link) == 0)
        let cases = [
            (fifo, "it is a FIFO (named pipe)"), ("/dev/zero", "it is a character device"),
            (link, "it is a symbolic link to '\(dir.path)/gone/h.sqlite', which does not exist"),
        ]
        for (db, what) in cases {
            for arguments in [
                ["inspect", "--db", db], ["report", "--db", db, "--out", dir.appendingPathComponent("out").path],
                ["import", export.path, "--db", db],
            ] {
                let r = try run(arguments, limit: 30)
                #expect(!r.timedOut && r.status == 1, "\(arguments): \(r.stderr)")
                #expect(r.stderr.contains("\(db): not an archive file: \(what)"), "\(arguments): \(r.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("gone").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// The archive on a 2 MiB tmpfs filled to the last byte (root only; skipped visibly
    /// otherwise): a reader cannot even make its -shm file. Before: "disk I/O error" alone, for
    /// report --db, inspect --db and import; now the full disk is named.
    @Test func aDiskWithNoRoomForTheShmFileIsNamedFull() throws {
        let dir = try temporaryFolder()
        let export = try hostileFile("export.xml", Array(tinyExport.utf8))
        let db = dir.appendingPathComponent("h.sqlite").path
        #expect(try run(["import", export.path, "--db", db, "--quiet"], limit: 60).status == 0)
        guard let disk = try FullDisk(at: dir.appendingPathComponent("small")) else { return }
        defer { disk.unmount() }
        let small = try disk.copy(db, as: "h.sqlite")
        try disk.fill()
        for arguments in [
            ["report", "--db", small, "--out", dir.appendingPathComponent("out").path], ["inspect", "--db", small],
            ["import", export.path, "--db", small],
        ] {
            let r = try run(arguments, limit: 60)
            #expect(r.status == 1, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(small): the disk is full"), "\(arguments): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
}

@Suite("Names of megabytes")
struct LongNameTests {
    /// Three records whose source names are 3,000,000 bytes each ("A…", "B…", "C…" repeated, so
    /// three sources), one more of 3,000,000 "A"s again (the same source as the first), and one
    /// from "Phone". Before, each name was kept whole: report.md, report.html, report.json and
    /// sources.csv listed them, 48 MB of outputs in all. Now each is kept as its first 1,024 bytes and a hash:
    /// the outputs stay small, the four sources stay four (the two "A" records one source), and
    /// the note says 4 records named one, 4 × (3,000,000 − 1,024) = 11,995,904 bytes left out.
    /// Lines: 1 declaration, 2 <HealthData>, 3 ExportDate, 4-7 the long names, 8 Phone.
    @Test func sourceNamesOfMegabytesAreCutAndCounted() throws {
        func long(_ c: Character) -> String { String(repeating: c, count: 3_000_000) }
        let xml =
            xmlHead + exportDateLine + steps("10", "2025-06-01 10:00:00", source: long("A"))
            + steps("20", "2025-06-01 11:00:00", source: long("B"))
            + steps("30", "2025-06-01 12:00:00", source: long("C"))
            + steps("40", "2025-06-02 10:00:00", source: long("A")) + steps("5", "2025-06-02 11:00:00")
            + "</HealthData>\n"
        let input = try hostileFile("export.xml", Array(xml.utf8))
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let r = try run(["report", input.path, "--out", out.path, "--tz", "UTC"], limit: 120)
        #expect(r.status == 0, "\(r.stderr)")
        var total = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            let size = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size]
            total += (size as? Int) ?? 0
        }
        #expect(total < 1_000_000, "outputs hold \(total) bytes")
        let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        let note =
            "4 × name cut: source names longer than 1024 bytes, each kept as its first 1024 bytes and a hash of"
            + " the whole; 11995904 bytes left out over these records, the longest 3000000 bytes (first at line 4)"
        #expect(md.contains(note), "\(md.suffix(3000))")
        let inspect = try run(["inspect", input.path], limit: 120)
        #expect(inspect.status == 0 && inspect.stdout.contains(note), "\(inspect.stdout)")
        #expect(inspect.stdout.utf8.count < 100_000)
        // Steps: 10 + 40 (A) on 06-01/06-02, 20 (B), 30 (C), 5 (Phone): the sums per day are the
        // record sums when no two sources overlap in time (they do not).
        let daily = try csvRows(out.appendingPathComponent("daily.csv"))
        #expect(daily.count == 2)
        #expect(daily.first?[1] == "60", "\(daily)")
        #expect(daily.last?[1] == "45", "\(daily)")
    }
}

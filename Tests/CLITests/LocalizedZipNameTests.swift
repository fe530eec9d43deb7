import Foundation
import SyntheticExport
import Testing

/// Zips as a phone and other writers make them, not as libarchive does: the export's entry has a
/// localized name (`导出.xml`, `exporté.xml`, `Exportação.xml`), flagged UTF-8 by Python's
/// `zipfile` as by the iPhone, or written without the flag in CP437 or Shift-JIS by an old zip
/// tool. Every command finds the export by its content whatever the process's locale
/// (docs/export-format.md §2). Before, under `LANG=C` libarchive could not convert a UTF-8
/// name to the C locale and gave no name, and the entry was skipped unread: "not an Apple
/// Health export … (unnamed entry)", exit 1.
@Suite("Zips with localized export names, under LANG=C and C.UTF-8")
struct LocalizedZipNameTests {
    struct Kind: CustomTestStringConvertible, Sendable {
        var label: String
        /// The entry's name and, for a zip without the UTF-8 flag, the codec of its bytes.
        var name: String
        var codec: String?
        var testDescription: String { label }
    }

    static let kinds: [Kind] = [
        Kind(label: "导出.xml, UTF-8 flag", name: "apple_health_export/导出.xml"),
        Kind(label: "exporté.xml, UTF-8 flag", name: "apple_health_export/exporté.xml"),
        Kind(label: "Exportação.xml, UTF-8 flag", name: "apple_health_export/Exportação.xml"),
        Kind(label: "exporté.xml in CP437, no flag", name: "apple_health_export/exporté.xml", codec: "cp437"),
        Kind(label: "書き出し.xml in Shift-JIS, no flag", name: "apple_health_export/書き出し.xml", codec: "shift_jis"),
    ]

    /// Writes `zip` with Python's `zipfile`: the CDA file first (a `.xml` that is not the
    /// export), then the export under `kind.name`. Without a codec, `zipfile` sets the UTF-8 flag
    /// (bit 11) for the non-ASCII name; with one, the entry is written under an ASCII name of the
    /// same length whose bytes are then replaced by the name's bytes in that codec, in the local
    /// header and the central directory (no flag: the name's bytes are not UTF-8).
    static func writeZip(_ zip: URL, export: URL, kind: Kind) throws {
        let script = """
            import sys, zipfile
            zip_path, export_path, name, codec = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
            data = open(export_path, 'rb').read()
            raw = name.encode(codec) if codec else None
            stored = name if raw is None else 'apple_health_export/' + 'x' * (len(raw) - len('apple_health_export/'))
            with zipfile.ZipFile(zip_path, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('apple_health_export/export_cda.xml', '<?xml version="1.0"?><ClinicalDocument/>')
                z.writestr(stored, data)
            if raw is not None:
                b = open(zip_path, 'rb').read()
                assert b.count(stored.encode()) == 2
                b = b.replace(stored.encode(), raw)
                open(zip_path, 'wb').write(b)
            with zipfile.ZipFile(zip_path) as z:
                flags = [i.flag_bits & 0x800 for i in z.infolist()]
                assert flags[1] == (0 if codec else 0x800), flags
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, zip.path, export.path, kind.name, kind.codec ?? ""]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(String(decoding: e, as: UTF8.self))")
    }

    @Test(arguments: kinds, ["C", "C.UTF-8"])
    func everyCommandReadsTheExport(kind: Kind, lang: String) throws {
        let dir = try temporaryFolder()
        // 3 days, 2025-06-02 … 06-04, in Europe/Berlin with HKTimeZone.
        let config = SyntheticExportConfiguration(
            firstDay: "2025-06-02", days: 3, timeZoneIdentifier: "Europe/Berlin", seed: 41)
        let (bytes, truth) = SyntheticExport.makeExport(config)
        let xml = dir.appendingPathComponent("plain.xml")
        try Data(bytes).write(to: xml)
        let zip = dir.appendingPathComponent("export.zip")
        try Self.writeZip(zip, export: xml, kind: kind)
        let environment = [
            "LANG": lang, "LC_ALL": lang, "TZ": "UTC",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        let days = truth.days.map(\.date)
        #expect(days == ["2025-06-02", "2025-06-03", "2025-06-04"])

        // report: the same daily.csv as from the plain XML.
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", zip.path, "--out", out.path], environment: environment)
        #expect(r.status == 0, "report: \(r.stderr)")
        let plainOut = dir.appendingPathComponent("plain-out")
        let plain = try run(["report", xml.path, "--out", plainOut.path], environment: environment)
        #expect(plain.status == 0, "\(plain.stderr)")
        let daily = try? Data(contentsOf: out.appendingPathComponent("daily.csv"))
        #expect(daily != nil && daily == (try? Data(contentsOf: plainOut.appendingPathComponent("daily.csv"))))
        #expect(try readPlainCSV(out.appendingPathComponent("daily.csv")).map { $0["date"]! } == days)

        // inspect: the entry it read, by name (a name that is not UTF-8 reads with U+FFFD).
        let i = try run(["inspect", zip.path], environment: environment)
        #expect(i.status == 0, "inspect: \(i.stderr)")
        if kind.codec == nil {
            #expect(i.stdout.contains(kind.name), "\(i.stdout)")
        } else {
            #expect(i.stdout.contains("apple_health_export/"), "\(i.stdout)")
        }

        // import, then report --db: the same days.
        let db = dir.appendingPathComponent("archive.sqlite")
        let imp = try run(["import", zip.path, "--db", db.path, "--quiet"], environment: environment)
        #expect(imp.status == 0, "import: \(imp.stderr)")
        let dbOut = dir.appendingPathComponent("db-out")
        let fromDB = try run(["report", "--db", db.path, "--out", dbOut.path], environment: environment)
        #expect(fromDB.status == 0, "report --db: \(fromDB.stderr)")
        #expect((try? readPlainCSV(dbOut.appendingPathComponent("daily.csv")))?.map { $0["date"]! } == days)

        // batch: one person whose export is the zip.
        let manifest = dir.appendingPathComponent("study.csv")
        try "person,export\np-1,\(zip.path)\n".write(to: manifest, atomically: true, encoding: .utf8)
        let batchOut = dir.appendingPathComponent("batch")
        let b = try run(["batch", manifest.path, "--out", batchOut.path, "--jobs", "1"], environment: environment)
        #expect(b.status == 0, "batch: \(b.stdout) \(b.stderr)")
        let personDaily = batchOut.appendingPathComponent("person=p-1/daily.csv")
        #expect((try? readPlainCSV(personDaily))?.map { $0["date"]! } == days, "\(files(in: batchOut))")
    }
}

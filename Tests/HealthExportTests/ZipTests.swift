import CLibArchive
import Foundation
import SyntheticExport
import Testing

@testable import HealthExport

/// Writes a zip with libarchive (entries in the given order; directories end with "/").
func makeZip(_ entries: [(name: String, bytes: [UInt8])], zip64: Bool = false) throws -> String {
    let path = try temporaryFile([UInt8](), name: "export.zip")
    let a = archive_write_new()!
    defer { archive_write_free(a) }
    archive_write_set_format_zip(a)
    if zip64 { archive_write_set_format_option(a, "zip", "zip64", "1") }
    try #require(archive_write_open_filename(a, path) == ARCHIVE_OK)
    for (name, bytes) in entries {
        let e = archive_entry_new()!
        defer { archive_entry_free(e) }
        archive_entry_set_pathname_utf8(e, name)
        if name.hasSuffix("/") {
            archive_entry_set_filetype(e, 0o040000)
            archive_entry_set_perm(e, 0o755)
            archive_write_header(a, e)
        } else {
            archive_entry_set_filetype(e, 0o100000)
            archive_entry_set_perm(e, 0o644)
            archive_entry_set_size(e, la_int64_t(bytes.count))
            try #require(archive_write_header(a, e) == ARCHIVE_OK)
            _ = bytes.withUnsafeBytes { archive_write_data(a, $0.baseAddress, $0.count) }
        }
    }
    archive_write_close(a)
    return path
}

@Suite("Reading export.zip in place")
struct ZipTests {
    let xml: [UInt8]
    let expected: ReadResult

    init() throws {
        xml = Array(try Data(contentsOf: URL(fileURLWithPath: fixture("all-elements.xml"))))
        expected = try readAll(.path(fixture("all-elements.xml")))
    }

    @Test func findsALocalizedExportInAMacRezippedArchive() throws {
        // Re-zipped on a Mac: AppleDouble twins under __MACOSX/ (which also end in .xml),
        // .DS_Store, and the CDA file first; the export itself has a Chinese name.
        let cda = Array(
            "<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><HealthData/></ClinicalDocument>\n"
                .utf8)
        let zip = try makeZip([
            ("apple_health_export/", []),
            ("apple_health_export/.DS_Store", [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]),
            ("__MACOSX/apple_health_export/._导出.xml", Array("\u{0}\u{5}\u{16}\u{7}Mac OS X <HealthData".utf8)),
            ("apple_health_export/导出_cda.xml", cda),
            ("apple_health_export/._导出.xml", Array("<HealthData".utf8)),
            ("apple_health_export/导出.xml", xml),
            ("apple_health_export/workout-routes/route_2025-01-12_8.00am.gpx", Array("<gpx/>".utf8)),
        ])
        let r = try readAll(.path(zip))
        #expect(r.summary.inputName == zip + ":apple_health_export/导出.xml")
        #expect(r.dump == expected.dump)
    }

    @Test(arguments: ["apple_health_export/Exportar.xml", "Export.xml", "apple_health_export/export.xml"])
    func findsTheExportWhateverItsName(name: String) throws {
        let zip = try makeZip([
            ("apple_health_export/Exportar_cda.xml", Array("<ClinicalDocument/>".utf8)), (name, xml),
        ])
        let r = try readAll(.path(zip), chunkSize: 7)
        #expect(r.dump == expected.dump)
    }

    /// A zip with many `.xml` entries was sniffed 1 MiB per entry (a 3.5 MB zip took
    /// 10 s). Now each candidate costs at most 8 KiB: three 300 KiB entries that are not the
    /// export, then the export, are sniffed in at most 4 × 8 KiB, and the export still reads.
    @Test func findingTheExportSniffsAFewKilobytesPerEntry() throws {
        let other = Array(String(repeating: "<other>not an export</other>\n", count: 10_000).utf8)
        let zip = try makeZip([
            ("apple_health_export/a.xml", other), ("apple_health_export/b.xml", other),
            ("apple_health_export/c.xml", other), ("apple_health_export/export.xml", xml),
        ])
        var source = try ZipEntrySource(path: zip)
        defer { source.close() }
        #expect(try source.selectExportEntry() == "apple_health_export/export.xml")
        #expect(source.sniffedBytes <= 4 * 8 * 1024)
        #expect(try readAll(.path(zip)).dump == expected.dump)
    }

    @Test func readsZip64Zips() throws {
        // libarchive writes zip64 extra fields and the zip64 end-of-central-directory record
        // when asked; the reader must take sizes from there.
        let zip = try makeZip([("apple_health_export/export.xml", xml)], zip64: true)
        let r = try readAll(.path(zip))
        #expect(r.dump == expected.dump)
    }

    @Test func aZipWithoutAnExportSaysWhatItHolds() throws {
        let zip = try makeZip([("notes/readme.txt", Array("hi".utf8)), ("data/other.xml", Array("<other/>".utf8))])
        do {
            _ = try readAll(.path(zip))
            Issue.record("must fail")
        } catch let e as ExportReadError {
            #expect(
                e
                    == .notHealthExport(
                        input: zip,
                        reason:
                            "no XML entry with a <HealthData> root in the archive (entries: notes/readme.txt, data/other.xml)"
                    ))
        }
    }

    @Test func aTruncatedZipFailsWithAZipError() throws {
        let zip = try makeZip([("apple_health_export/export.xml", xml)])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: zip)))
        bytes.removeLast(bytes.count / 2)
        let cut = try temporaryFile(bytes, name: "cut.zip")
        do {
            _ = try readAll(.path(cut))
            Issue.record("a truncated zip must not read as complete")
        } catch let e as ExportReadError {
            guard case .zip(let path, let message) = e else {
                Issue.record("expected an archive error, got \(e)")
                return
            }
            #expect(path == cut)
            #expect(
                message.hasSuffix("while reading apple_health_export/export.xml; the archive is damaged or truncated"))
        }
    }

    @Test func readsTheUnzippedFolder() throws {
        let dir = URL(fileURLWithPath: try temporaryFile(xml, name: "placeholder")).deletingLastPathComponent()
        let folder = dir.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(xml).write(to: folder.appendingPathComponent("Exportar.xml"))
        try Data("<ClinicalDocument/>".utf8).write(to: folder.appendingPathComponent("Exportar_cda.xml"))
        let r = try readAll(.path(dir.path))
        #expect(r.dump == expected.dump)
    }
}

/// Opt-in (about a minute and 240 MB of disk): `HEALTH_ANALYZER_LARGE_TESTS=1 swift test --filter LargeZipTests`.
@Suite(
    "Zips over 4 GiB",
    .enabled(
        if: ProcessInfo.processInfo.environment["HEALTH_ANALYZER_LARGE_TESTS"] == "1",
        "set HEALTH_ANALYZER_LARGE_TESTS=1 to run the 4.4 GB zip64 test"))
struct LargeZipTests {
    /// 5 400 generated days are 4.44 GB of XML: the entry's sizes need zip64 fields. The zip is
    /// written streaming (size unknown up front, so a data descriptor follows the data).
    @Test func readsAnEntryLargerThan4GiB() throws {
        let configuration = SyntheticExportConfiguration(firstDay: "2011-01-03", days: 5400)
        let path = try temporaryFile([UInt8](), name: "large.zip")
        defer { unlink(path) }
        let a = archive_write_new()!
        archive_write_set_format_zip(a)
        archive_write_set_format_option(a, "zip", "zip64", "1")
        archive_write_set_format_option(a, "zip", "compression-level", "1")
        try #require(archive_write_open_filename(a, path) == ARCHIVE_OK)
        let e = archive_entry_new()!
        archive_entry_set_pathname_utf8(e, "apple_health_export/export.xml")
        archive_entry_set_filetype(e, 0o100000)
        archive_entry_set_perm(e, 0o644)
        try #require(archive_write_header(a, e) == ARCHIVE_OK)
        let truth = SyntheticExport.write(configuration) { chunk in
            _ = archive_write_data(a, chunk.baseAddress, chunk.count)
        }
        archive_entry_free(e)
        archive_write_close(a)
        archive_write_free(a)
        #expect(truth.byteCount > Int64(4) << 30)

        var records = 0
        let summary = try ExportReader().read(.path(path)) { records += $0.records.count }
        #expect(summary.bytesRead == truth.byteCount)
        #expect(records == truth.totalRecordCount + truth.correlationChildRecordCount)
        #expect(summary.elementCounts["ActivitySummary"] == 5400)
    }
}

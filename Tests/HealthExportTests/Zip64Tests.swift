import CLibArchive
import Foundation
import SyntheticExport
import Testing

@testable import HealthExport

/// zip64 by default, without 4 GiB of disk: a hand-made zip whose first entry,
/// `apple_health_export/export_cda.xml`, is 4 GiB + 4 KiB of zero bytes stored as a hole of a
/// sparse file. Its sizes do not fit the 32-bit fields, so (as zip64 writers do, APPNOTE 4.5.3)
/// the local and central headers say 0xFFFFFFFF and carry the real sizes in a zip64 extra field;
/// the export entry after it starts past 4 GiB, so its central-directory offset is a zip64 field
/// too, and the archive ends with a zip64 end-of-central-directory record and locator. The
/// reader must skip the big entry by its zip64 size (the hole is never read) and read the export.
@Suite("zip64 entries over 4 GiB (sparse file)")
struct Zip64Tests {
    static let bigSize: UInt64 = (1 << 32) + 4096

    @Test func readsTheExportAfterAnEntryOver4GiBDeclaredInZip64Fields() throws {
        let (xml, truth) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(firstDay: "2025-06-02", days: 2, timeZoneIdentifier: "Europe/Berlin"))
        // The CRC of the hole, worked out without reading it, agrees with the bitwise CRC on a short run.
        #expect(crc32OfZeros(1000) == crc32([UInt8](repeating: 0, count: 1000)))
        let path = try temporaryFile([UInt8](), name: "zip64.zip")
        defer { unlink(path) }
        let exportOffset = try writeSparseZip64(path: path, xml: xml)
        #expect(exportOffset > UInt64(UInt32.max), "the export entry starts past 4 GiB")

        var st = stat()
        try #require(stat(path, &st) == 0)
        #expect(UInt64(st.st_size) > Self.bigSize)
        // A file system without holes would have written 4 GiB: this test needs holes.
        #expect(Int64(st.st_blocks) * 512 < 64 << 20, "the zip must be sparse: \(st.st_blocks) blocks allocated")

        // libarchive's seekable zip reader, which starts from the (zip64) central directory,
        // sees both entries with their zip64 sizes: the file is a well-formed zip64 archive.
        let listed = try listWithCentralDirectory(path)
        #expect(listed.map(\.name) == ["apple_health_export/export_cda.xml", "apple_health_export/export.xml"])
        #expect(listed.map(\.size) == [Int64(Self.bigSize), Int64(xml.count)])

        // The reader (streaming, from the local headers) skips the 4 GiB entry and reads the export.
        var records = 0
        let summary = try ExportReader().read(.path(path)) { records += $0.records.count }
        #expect(summary.bytesRead == Int64(xml.count))
        #expect(records == truth.totalRecordCount + truth.correlationChildRecordCount)
        #expect(summary.elementCounts["ActivitySummary"] == 2)
    }
}

/// Writes the zip described above and returns the export entry's local-header offset.
private func writeSparseZip64(path: String, xml: [UInt8]) throws -> UInt64 {
    struct Entry {
        var name: String
        var size: UInt64
        var crc: UInt32
        var offset: UInt64
    }
    var out = [UInt8]()
    func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    func u64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
    func localHeader(_ e: Entry) {
        u32(0x0403_4B50)
        u16(45)  // version needed: 4.5 (zip64)
        u16(0)  // flags
        u16(0)  // stored
        u16(0)  // time 00:00
        u16(0x5AC1)  // date 2025-06-01
        u32(e.crc)
        u32(0xFFFF_FFFF)  // compressed size: in the zip64 extra field
        u32(0xFFFF_FFFF)  // uncompressed size: likewise
        u16(UInt16(e.name.utf8.count))
        u16(20)
        out += Array(e.name.utf8)
        u16(0x0001)  // zip64 extended information
        u16(16)
        u64(e.size)  // uncompressed
        u64(e.size)  // compressed (stored)
    }

    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    func flush() throws {
        let n = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n == out.count else { throw POSIXError(.EIO) }
        out.removeAll()
    }

    var big = Entry(
        name: "apple_health_export/export_cda.xml", size: Zip64Tests.bigSize, crc: crc32OfZeros(Zip64Tests.bigSize),
        offset: 0)
    localHeader(big)
    big.offset = 0
    try flush()
    // The data: a hole of bigSize zero bytes (lseek past the end, nothing written).
    let afterBig = lseek(fd, off_t(Zip64Tests.bigSize), SEEK_CUR)
    guard afterBig > 0 else { throw POSIXError(.EIO) }
    let export = Entry(
        name: "apple_health_export/export.xml", size: UInt64(xml.count), crc: crc32(xml), offset: UInt64(afterBig))
    localHeader(export)
    out += xml
    let centralOffset = export.offset + UInt64(30 + export.name.utf8.count + 20) + UInt64(xml.count)
    for e in [big, export] {
        u32(0x0201_4B50)
        u16(45 | (3 << 8))  // made by: Unix, 4.5
        u16(45)
        u16(0)
        u16(0)
        u16(0)
        u16(0x5AC1)
        u32(e.crc)
        u32(0xFFFF_FFFF)
        u32(0xFFFF_FFFF)
        u16(UInt16(e.name.utf8.count))
        u16(28)
        u16(0)  // comment
        u16(0)  // disk
        u16(0)  // internal attributes
        u32(0o100644 << 16)  // external: a regular file, rw-r--r--
        u32(0xFFFF_FFFF)  // offset: in the zip64 extra field
        out += Array(e.name.utf8)
        u16(0x0001)
        u16(24)
        u64(e.size)
        u64(e.size)
        u64(e.offset)
    }
    let centralSize = UInt64(out.count) - (UInt64(30 + export.name.utf8.count + 20) + UInt64(xml.count))
    let zip64EndOffset = centralOffset + centralSize
    u32(0x0606_4B50)  // zip64 end of central directory record
    u64(44)
    u16(45 | (3 << 8))
    u16(45)
    u32(0)
    u32(0)
    u64(2)
    u64(2)
    u64(centralSize)
    u64(centralOffset)
    u32(0x0706_4B50)  // zip64 end of central directory locator
    u32(0)
    u64(zip64EndOffset)
    u32(1)
    u32(0x0605_4B50)  // end of central directory: every field that overflows says so
    u16(0)
    u16(0)
    u16(2)
    u16(2)
    u32(0xFFFF_FFFF)
    u32(0xFFFF_FFFF)
    u16(0)
    try flush()
    return export.offset
}

/// The name and size of every entry, as libarchive's seekable zip reader (central directory) lists them.
private func listWithCentralDirectory(_ path: String) throws -> [(name: String, size: Int64)] {
    let a = archive_read_new()!
    defer { archive_read_free(a) }
    archive_read_support_format_zip_seekable(a)
    try #require(archive_read_open_filename(a, path, 1 << 16) == ARCHIVE_OK)
    var out: [(String, Int64)] = []
    var entry: OpaquePointer?
    while archive_read_next_header(a, &entry) == ARCHIVE_OK, let entry {
        out.append((String(cString: archive_entry_pathname(entry)), archive_entry_size(entry)))
    }
    return out
}

/// CRC-32 (ISO-HDLC, zip's) of `bytes`, bitwise.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
    }
    return ~c
}

/// CRC-32 of `count` zero bytes without touching them: a zero byte maps the CRC register
/// linearly (over GF(2)), so `count` of them are that 32x32 matrix to the power `count`,
/// computed by squaring (as zlib's crc32_combine does).
private func crc32OfZeros(_ count: UInt64) -> UInt32 {
    func apply(_ m: [UInt32], _ v: UInt32) -> UInt32 {
        var r: UInt32 = 0
        for i in 0..<32 where (v >> UInt32(i)) & 1 != 0 { r ^= m[i] }
        return r
    }
    func zeroByte(_ r: UInt32) -> UInt32 {
        var c = r
        for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }
    var power = (0..<32).map { zeroByte(UInt32(1) << UInt32($0)) }  // one zero byte
    var register: UInt32 = 0xFFFF_FFFF
    var n = count
    while n > 0 {
        if n & 1 != 0 { register = apply(power, register) }
        power = power.map { apply(power, $0) }
        n >>= 1
    }
    return ~register
}

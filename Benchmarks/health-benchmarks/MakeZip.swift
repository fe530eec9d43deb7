// --zip: the input deflated into `<input>.zip` as apple_health_export/export.xml, the shape of
// the Health app's export (zip64 when the entry is 4 GiB or more).

import CLibArchive
import Glibc

/// Deflates `path` into a zip at `zipPath` (written to `zipPath.partial`, renamed when complete).
func makeZip(of path: String, at zipPath: String) throws {
    guard let size = fileSize(path) else { throw PhaseError(description: "\(path): cannot read") }
    let partial = zipPath + ".partial"
    guard let a = archive_write_new() else { throw PhaseError(description: "libarchive: out of memory") }
    defer { archive_write_free(a) }
    archive_write_set_format_zip(a)
    if size >= Int64(1) << 32 { archive_write_set_format_option(a, "zip", "zip64", "1") }
    func fail(_ what: String) -> PhaseError {
        unlink(partial)
        return PhaseError(description: "\(partial): \(what): \(String(cString: archive_error_string(a)))")
    }
    guard archive_write_open_filename(a, partial) == ARCHIVE_OK else { throw fail("cannot create") }
    let entry = archive_entry_new()!
    defer { archive_entry_free(entry) }
    archive_entry_set_pathname_utf8(entry, "apple_health_export/export.xml")
    archive_entry_set_filetype(entry, 0o100000)
    archive_entry_set_perm(entry, 0o644)
    archive_entry_set_size(entry, la_int64_t(size))
    guard archive_write_header(a, entry) == ARCHIVE_OK else { throw fail("cannot write") }
    try forEachChunk(ofFileAt: path) { buffer, n in
        guard archive_write_data(a, buffer, n) == n else { throw fail("cannot write") }
    }
    guard archive_write_close(a) == ARCHIVE_OK else { throw fail("cannot write") }
    guard rename(partial, zipPath) == 0 else {
        throw PhaseError(description: "cannot rename \(partial) to \(zipPath): \(errnoText())")
    }
}

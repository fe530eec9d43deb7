import HealthExport
import SyntheticExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The last local day of every `--generate-days` export. It lies in the past, so no record is
/// "after today" and dropped by the reader (with the generator's default first day,
/// 2025-10-20, 1,800 days would run into 2030 and the report would cover only the days up to
/// today), and it is fixed, so a generated file stays valid for reuse.
let generatedLastDay = CivilDate(year: 2025, month: 12, day: 31)

/// The generator's configuration for `--generate-days N`: the defaults (Europe/Berlin, seed 1)
/// with N days ending on `generatedLastDay` and the well-formed Export Version 14 DOCTYPE. The
/// bare libxml2 pass parses the DOCTYPE that the reader drops, so it must never be
/// `.version12Malformed`.
func syntheticConfiguration(days: Int) -> SyntheticExportConfiguration {
    let first = CivilDate(daysSince1970: generatedLastDay.daysSince1970 - days + 1)
    return SyntheticExportConfiguration(firstDay: first.description, days: days, prolog: .version14)
}

/// Writes the synthetic export of `days` days through `sink`, in chunks.
func writeSyntheticExport(days: Int, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    _ = try SyntheticExport.write(syntheticConfiguration(days: days), to: sink)
}

/// Generates the input file for `--generate-days`: written to `path + ".partial"` and renamed
/// when complete, so an interrupted run never leaves a truncated file behind under `path`.
///
/// - Returns: the file's size in bytes.
func generateExportFile(days: Int, path: String) throws -> Int64 {
    let partial = path + ".partial"
    let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw PhaseError(description: "\(partial): cannot create: \(errnoText())") }
    var written: Int64 = 0
    do {
        try writeSyntheticExport(days: days) { chunk in
            var rest = chunk
            while !rest.isEmpty {
                let n = write(fd, rest.baseAddress, rest.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw PhaseError(description: "\(partial): cannot write: \(errnoText())")
                }
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                written += Int64(n)
            }
        }
    } catch {
        close(fd)
        unlink(partial)
        throw error
    }
    guard close(fd) == 0 else { throw PhaseError(description: "\(partial): cannot write: \(errnoText())") }
    guard rename(partial, path) == 0 else {
        throw PhaseError(description: "cannot rename \(partial) to \(path): \(errnoText())")
    }
    return written
}

/// `bench-data/export-<days>d-to-<generatedLastDay>.xml` in the package root: the nearest folder at or above the
/// current one that holds `Package.swift` (the current folder when there is none).
func defaultGeneratedPath(days: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let cwd = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
    var dir = cwd
    while true {
        if access(dir + "/Package.swift", F_OK) == 0 { break }
        guard let slash = dir.lastIndex(of: "/"), dir != "/" else {
            dir = cwd
            break
        }
        dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
    }
    return (dir == "/" ? "" : dir) + "/bench-data/export-\(days)d-to-\(generatedLastDay).xml"
}

/// Creates the folder that will hold `path`, if missing (one level).
func makeParentDirectory(of path: String) throws {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let dir = String(path[..<slash])
    if mkdir(dir, 0o755) != 0 && errno != EEXIST {
        throw PhaseError(description: "\(dir): cannot create folder: \(errnoText())")
    }
}

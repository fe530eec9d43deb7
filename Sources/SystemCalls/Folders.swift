#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names in the folder at `path` (`opendir`/`readdir`), without `.` and `..`, in the order
/// the system lists them (no order at all: sort them where order matters). Names are decoded
/// as UTF-8, with U+FFFD for bytes that are not.
/// - Throws: `Errno` when the folder cannot be opened (ENOENT, ENOTDIR, EACCES, …).
public func folderEntryNames(_ path: String) throws(Errno) -> [String] {
    guard let folder = opendir(path) else { throw .current }
    defer { closedir(folder) }
    var names: [String] = []
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

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

/// What `readdir` says an entry is (`d_type`), without a `stat`: file systems that do not fill
/// it in (some network and FUSE ones) say `unknown`, and the caller then looks with `fstatat`.
public enum FolderEntryKind: Sendable, Equatable {
    case directory, symbolicLink, other, unknown
}

/// The names in the open folder `folder` (a descriptor; it stays open and its offset is not
/// moved: the folder is opened again as `.` relative to it and that copy is listed), without
/// `.` and `..`, each with its kind as the listing gives it, in the order the system lists them.
/// - Throws: `Errno` when the folder cannot be opened again or listed (EACCES, ENOTDIR, …).
public func folderEntries(in folder: Int32) throws(Errno) -> [(name: String, kind: FolderEntryKind)] {
    let copy = try systemCall { openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard let listing = fdopendir(copy) else {
        let error = Errno.current
        _ = close(copy)
        throw error
    }
    defer { closedir(listing) }
    var entries: [(name: String, kind: FolderEntryKind)] = []
    while let entry = readdir(listing) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard name != "." && name != ".." else { continue }
        let kind: FolderEntryKind
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): kind = .directory
        case Int32(DT_LNK): kind = .symbolicLink
        case Int32(DT_UNKNOWN): kind = .unknown
        default: kind = .other
        }
        entries.append((name, kind))
    }
    return entries
}

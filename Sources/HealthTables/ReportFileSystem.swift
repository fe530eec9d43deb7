import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What exists at a path.
package enum PathStatus: Equatable {
    case missing
    case directory
    case notDirectory
}

/// The file-system calls a `ReportWriter` makes, so tests can make any one of them fail.
/// Every call reports failure as an `errno` code.
///
/// The output folder's path is looked at by path only before the write (`check`, and
/// resolving `--out`); the write itself works relative to descriptors: the parent folder
/// opened once, the output and staging folders opened `O_DIRECTORY | O_NOFOLLOW` relative to
/// it, and every name inside them created, linked, renamed or removed with the `*at` calls, so
/// a symbolic link someone swaps in at one of those names is never followed (docs/batch.md §6).
package protocol ReportFileSystem: Sendable {
    func status(of path: String) throws(ReportError.Errno) -> PathStatus
    func makeDirectory(_ path: String) throws(ReportError.Errno)
    /// Where `path` points when it is a symbolic link, else nil.
    func symbolicLinkDestination(_ path: String) -> String?
    /// The absolute path of an existing `path`, links resolved.
    func realPath(_ path: String) throws(ReportError.Errno) -> String
    /// Throws when this process may not create entries in the existing directory `path`
    /// (`access(2)` with `W_OK | X_OK`: a read-only file system, missing permissions).
    func checkCanCreateEntries(in path: String) throws(ReportError.Errno)

    /// The folder at `path` (links followed: the caller names it), open for the `*at` calls:
    /// `O_RDONLY | O_DIRECTORY`, or `O_PATH` where it may not be read (then it cannot be
    /// listed or flushed, which are best effort).
    func openFolder(_ path: String) throws(ReportError.Errno) -> Int32
    /// The folder `name` in `folder`, `O_RDONLY | O_DIRECTORY | O_NOFOLLOW`: a symbolic link
    /// there fails (ELOOP or ENOTDIR), never followed.
    func openFolder(_ name: String, in folder: Int32) throws(ReportError.Errno) -> Int32
    /// `mkdirat` (0o777 and the umask, as mkdir(1) does).
    func makeFolder(_ name: String, in folder: Int32) throws(ReportError.Errno)
    /// Creates `name` in `folder` (`O_CREAT | O_EXCL | O_NOFOLLOW`: it must not exist, not even
    /// as a link) and writes all of `text` to it, flushed to disk. On failure the caller
    /// removes the file.
    func createFile(_ name: String, in folder: Int32, contents text: String) throws(ReportError.Errno)
    /// `renameat` within `folder` (a link at either name is renamed or replaced, never followed).
    func rename(_ name: String, to newName: String, in folder: Int32) throws(ReportError.Errno)
    /// Swaps two entries of `folder` in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`).
    func exchange(_ first: String, _ second: String, in folder: Int32) throws(ReportError.Errno)
    /// A new hard link `name` in `destination` to `name` in `source` (`linkat` without
    /// `AT_SYMLINK_FOLLOW`: a symbolic link is linked, not followed).
    func link(_ name: String, from source: Int32, to destination: Int32) throws(ReportError.Errno)
    /// Removes the entry `name` of `folder` that is not a folder (`unlinkat`: a link itself,
    /// never its target); best effort.
    func removeFile(_ name: String, in folder: Int32)
    /// Removes the empty folder `name` of `folder` (`unlinkat(AT_REMOVEDIR)`, which refuses a
    /// link); best effort.
    func removeFolder(_ name: String, in folder: Int32)
    /// Flushes a folder's entries (the renames in it) to disk; best effort.
    func syncFolder(_ folder: Int32)
    /// Opens (creating; `O_NOFOLLOW`) `name` in `folder` and takes an exclusive `flock` on it
    /// without waiting; returns the descriptor. `EWOULDBLOCK` when another process holds it.
    func lock(_ name: String, in folder: Int32) throws(ReportError.Errno) -> Int32
    /// Closes a descriptor this protocol returned.
    func close(_ descriptor: Int32)
    /// The entries of `folder`, without `.` and `..`, whose names pass `include` (looked at
    /// only then: a folder such as /tmp may hold thousands of names), sorted by name. With
    /// `owners`, each is looked at (`fstatat`, not followed) for its owner; without, only where
    /// the listing does not tell a folder from a file.
    func entries(of folder: Int32, named include: (String) -> Bool, owners: Bool) throws(ReportError.Errno)
        -> [DirectoryEntry]
    /// What the open `folder` is (`fstat`).
    func identity(of folder: Int32) -> FileIdentity?
    /// What `name` in `folder` is, a link not followed (`fstatat(AT_SYMLINK_NOFOLLOW)`); nil
    /// when nothing is there.
    func identity(of name: String, in folder: Int32) -> FileIdentity?
    /// Gives the open `folder` the permission bits `mode` (`fchmod`); best effort.
    func setMode(_ mode: UInt32, of folder: Int32)
    /// A path that names the open `folder` itself whatever is at its name later
    /// (`/proc/self/fd/<n>` where /proc is mounted), for code that takes a path; nil without.
    func pathOfDescriptor(_ folder: Int32) -> String?
}

/// One entry of a directory.
package struct DirectoryEntry: Hashable, Sendable {
    package var name: String
    /// True for a directory (a symbolic link to one is not a directory here).
    package var isDirectory: Bool
    /// True when this process's effective user owns the entry itself (`lstat`: a link's own
    /// owner, never its target's); only looked up when asked for.
    package var isOwnedByUs: Bool = true
}

/// Which file an entry or descriptor is (device and inode), its type and permission bits.
package struct FileIdentity: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    /// `st_mode`: the type and the permission bits.
    package var mode: UInt32
    package var owner: UInt32

    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    package var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// True when both are the same file (hard links of one inode, or one folder).
    package func isSame(as other: FileIdentity?) -> Bool {
        guard let other else { return false }
        return device == other.device && inode == other.inode
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
        owner = UInt32(info.st_uid)
    }
}

extension FileIdentity? {
    /// True when both are there and are the same file.
    package func isSame(as other: FileIdentity?) -> Bool { self?.isSame(as: other) ?? false }
}

// The real calls, shared by every file system (tests override only what they make fail).
extension ReportFileSystem {
    package func checkCanCreateEntries(in path: String) throws(ReportError.Errno) {
        if access(path, W_OK | X_OK) != 0 { throw .current }
    }

    package func symbolicLinkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package func realPath(_ path: String) throws(ReportError.Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw .current }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package func openFolder(_ path: String) throws(ReportError.Errno) -> Int32 {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd >= 0 { return fd }
        guard errno == EACCES else { throw .current }
        // O_PATH (Linux 2.6.39; 0o10000000 on x86-64 and arm64, not exported by Swift's Glibc
        // module): a folder this process may create entries in but not read.
        return try systemCall { open(path, 0o10_000_000 | O_DIRECTORY | O_CLOEXEC) }
    }

    package func openFolder(_ name: String, in folder: Int32) throws(ReportError.Errno) -> Int32 {
        try systemCall { openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }

    package func makeFolder(_ name: String, in folder: Int32) throws(ReportError.Errno) {
        if mkdirat(folder, name, 0o777) != 0 { throw .current }
    }

    package func exchange(_ first: String, _ second: String, in folder: Int32) throws(ReportError.Errno) {
        if renameExchange(folder, first, second) != 0 { throw .current }
    }

    package func link(_ name: String, from source: Int32, to destination: Int32) throws(ReportError.Errno) {
        if linkat(source, name, destination, name, 0) != 0 { throw .current }
    }

    package func removeFolder(_ name: String, in folder: Int32) {
        _ = unlinkat(folder, name, AT_REMOVEDIR)
    }

    package func lock(_ name: String, in folder: Int32) throws(ReportError.Errno) -> Int32 {
        // O_NOFOLLOW: a link planted at the lock's name is refused (ELOOP), never followed to
        // create its target.
        let fd = try systemCall { openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = ReportError.Errno.current
            _ = closeDescriptor(fd)
            throw error
        }
        return fd
    }

    package func close(_ descriptor: Int32) {
        _ = closeDescriptor(descriptor)
    }

    package func entries(of folder: Int32, named include: (String) -> Bool, owners: Bool) throws(ReportError.Errno)
        -> [DirectoryEntry]
    {
        var result: [DirectoryEntry] = []
        for (name, kind) in try folderEntries(in: folder) where include(name) {
            if !owners && kind != .unknown {
                result.append(DirectoryEntry(name: name, isDirectory: kind == .directory))
                continue
            }
            let info = identity(of: name, in: folder)
            result.append(
                DirectoryEntry(
                    name: name, isDirectory: info?.isDirectory == true, isOwnedByUs: info?.owner == geteuid()))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// Every entry of `folder`, without `.` and `..`, sorted by name (owners not looked up).
    package func entries(of folder: Int32) throws(ReportError.Errno) -> [DirectoryEntry] {
        try entries(of: folder, named: { _ in true }, owners: false)
    }

    package func identity(of folder: Int32) -> FileIdentity? {
        var info = stat()
        return fstat(folder, &info) == 0 ? FileIdentity(info) : nil
    }

    package func identity(of name: String, in folder: Int32) -> FileIdentity? {
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileIdentity(info) : nil
    }

    package func setMode(_ mode: UInt32, of folder: Int32) {
        _ = fchmod(folder, mode_t(mode & 0o7777))
    }

    package func pathOfDescriptor(_ folder: Int32) -> String? {
        let path = "/proc/self/fd/\(folder)"
        var info = stat()
        // Followed: the magic link leads to the open folder itself.
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return path
    }
}

/// `renameat2(folder, first, folder, second, RENAME_EXCHANGE)`. Glibc declares it only for
/// `_GNU_SOURCE`, which Swift's Glibc module does not set, so it is looked up at run time
/// (glibc 2.28 and later); ENOSYS without it.
private func renameExchange(_ folder: Int32, _ first: String, _ second: String) -> Int32 {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    guard let symbol = renameAt2Symbol else {
        errno = ENOSYS
        return -1
    }
    let renameAt2 = unsafeBitCast(symbol, to: RenameAt2.self)
    // 2 is RENAME_EXCHANGE (linux/fs.h).
    return renameAt2(folder, first, folder, second, 2)
}

nonisolated(unsafe) private let renameAt2Symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")

/// The real file system, through POSIX calls.
package struct POSIXFileSystem: ReportFileSystem {
    package init() {}

    package func status(of path: String) throws(ReportError.Errno) -> PathStatus {
        var info = stat()
        if stat(path, &info) != 0 {
            let error = ReportError.Errno.current
            if error.rawValue == ENOENT { return .missing }
            throw error
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .notDirectory
    }

    package func makeDirectory(_ path: String) throws(ReportError.Errno) {
        // 0o777 and the process umask, as mkdir(1) does.
        if mkdir(path, 0o777) != 0 { throw .current }
    }

    package func createFile(_ name: String, in folder: Int32, contents text: String) throws(ReportError.Errno) {
        let fd = try systemCall { openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        var text = text
        let failure: ReportError.Errno? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = retryingOnInterrupt {
                    write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                }
                if written < 0 { return .current }
                offset += written
            }
            if fsync(fd) != 0 { return .current }
            return nil
        }
        // A failed close can report a deferred write error (NFS, quotas): it counts as a failure.
        let closeFailure: ReportError.Errno? = closeDescriptor(fd) == 0 ? nil : .current
        if let error = failure ?? closeFailure { throw error }
    }

    package func rename(_ name: String, to newName: String, in folder: Int32) throws(ReportError.Errno) {
        if renameat(folder, name, folder, newName) != 0 { throw .current }
    }

    package func removeFile(_ name: String, in folder: Int32) {
        _ = unlinkat(folder, name, 0)
    }

    package func syncFolder(_ folder: Int32) {
        _ = fsync(folder)
    }
}

// MARK: the exchange, the process, and the scratch file's calls

extension ReportError.Errno {
    /// The file system does not offer `renameat2(RENAME_EXCHANGE)` (NFS, SMB, CephFS, Lustre
    /// and FUSE clients answer EINVAL, ENOSYS or EOPNOTSUPP).
    var refusesExchange: Bool { rawValue == EINVAL || rawValue == ENOSYS || rawValue == EOPNOTSUPP }
}

/// This process.
enum ReportProcess {
    /// Its id (`getpid`), in the names of its staging folders.
    static var id: Int32 { getpid() }
}

/// The system calls of `TemporaryScratchFile`, each retried on EINTR where a signal can
/// interrupt it.
enum ScratchFileCalls {
    /// `$TMPDIR`, or `/tmp` when that is unset or empty.
    static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A new read-write file in `directory` without a name: `O_TMPFILE` where the file system
    /// has it (Linux 3.11; `__O_TMPFILE | O_DIRECTORY`, the same bits on x86-64 and arm64;
    /// Swift's Glibc module does not export the macro), else `mkstemp` with `namePrefix` and an
    /// `unlink` at once. Returns the descriptor.
    /// - Throws: the `errno` of the call that failed.
    package static func createUnnamed(in directory: String, namePrefix: String) throws(ReportError.Errno) -> Int32 {
        let unnamed = retryingOnInterrupt { open(directory, 0o20_200_000 | O_RDWR | O_EXCL | O_CLOEXEC, 0o600) }
        if unnamed >= 0 { return unnamed }
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template.append(contentsOf: Array((namePrefix + "XXXXXX").utf8CString))
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .current }
        if template.withUnsafeBufferPointer({ unlink($0.baseAddress!) }) != 0 {
            let error = ReportError.Errno.current
            close(fd)
            throw error
        }
        return fd
    }

    /// Removes the regular files in `directory` (never a link: `lstat`) named `namePrefix`
    /// and `nameLength` bytes long in all, owned by this process's user and last changed more
    /// than `olderThan` seconds ago; best effort.
    package static func removeStaleFiles(in directory: String, namePrefix: String, nameLength: Int, olderThan: Int) {
        guard let names = try? folderEntryNames(directory) else { return }
        let now = time(nil)
        for name in names {
            guard name.hasPrefix(namePrefix), name.utf8.count == nameLength else { continue }
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
                now - info.st_mtim.tv_sec > olderThan
            else { continue }
            _ = unlink(path)
        }
    }

    /// Writes all of `bytes` at `offset` (`pwrite`).
    /// - Throws: the `errno` of the write that failed (`ENOSPC` on a full disk).
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ReportError.Errno)
    {
        var done = 0
        while done < bytes.count {
            let n = retryingOnInterrupt {
                pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
            }
            if n < 0 { throw .current }
            done += n
        }
    }

    /// Fills `buffer` from `offset` on (`pread`); false when the file ends first.
    /// - Throws: the `errno` of the read that failed.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(ReportError.Errno) -> Bool
    {
        var done = 0
        while done < buffer.count {
            let n = retryingOnInterrupt {
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + Int64(done)))
            }
            if n < 0 { throw .current }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Closes `fd`.
    package static func close(_ fd: Int32) { _ = closeDescriptor(fd) }
}

/// The C library's `close`, which `ScratchFileCalls.close` hides inside the enum.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

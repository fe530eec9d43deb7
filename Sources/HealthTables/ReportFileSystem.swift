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
package protocol ReportFileSystem: Sendable {
    func status(of path: String) throws(ReportError.Errno) -> PathStatus
    func makeDirectory(_ path: String) throws(ReportError.Errno)
    /// Creates `path`, which must not exist, and writes all of `text` to it, flushed to disk.
    /// On failure the caller removes the file.
    func createFile(_ path: String, contents text: String) throws(ReportError.Errno)
    func rename(_ source: String, to destination: String) throws(ReportError.Errno)
    func removeFile(_ path: String)
    /// Flushes a directory's entries (the renames in it) to disk; best effort.
    func syncDirectory(_ path: String)
    /// Swaps two directories in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`).
    func exchange(_ first: String, _ second: String) throws(ReportError.Errno)
    /// Opens (creating) `path` and takes an exclusive `flock` on it without waiting; returns
    /// the descriptor. `EWOULDBLOCK` when another process holds it.
    func lock(_ path: String) throws(ReportError.Errno) -> Int32
    func unlock(_ descriptor: Int32)
    /// The entries of a directory, without `.` and `..`, whose names pass `include` (looked at,
    /// `lstat`, only then: a folder such as /tmp may hold thousands of names), sorted by name.
    func entries(of directory: String, named include: (String) -> Bool) throws(ReportError.Errno) -> [DirectoryEntry]
    /// Removes an empty directory; best effort.
    func removeDirectory(_ path: String)
    /// Gives `destination` the permission bits of `source`; best effort.
    func copyMode(from source: String, to destination: String)
    /// A new hard link `destination` to `source` (a symbolic link is linked, not followed).
    func link(_ source: String, to destination: String) throws(ReportError.Errno)
    /// Where `path` points when it is a symbolic link, else nil.
    func symbolicLinkDestination(_ path: String) -> String?
    /// The absolute path of an existing `path`, links resolved.
    func realPath(_ path: String) throws(ReportError.Errno) -> String
    /// True when both paths exist and are the same inode (hard links of one file).
    func isSameFile(_ first: String, _ second: String) -> Bool
    /// Throws when this process may not create entries in the existing directory `path`
    /// (`access(2)` with `W_OK | X_OK`: a read-only file system, missing permissions).
    func checkCanCreateEntries(in path: String) throws(ReportError.Errno)
}

/// One entry of a directory.
package struct DirectoryEntry: Hashable, Sendable {
    package var name: String
    /// True for a directory (a symbolic link to one is not a directory here).
    package var isDirectory: Bool
    /// True when this process's effective user owns the entry itself (`lstat`: a link's own
    /// owner, never its target's).
    package var isOwnedByUs: Bool = true
}

// The real calls, shared by every file system (tests override only what they make fail).
extension ReportFileSystem {
    package func checkCanCreateEntries(in path: String) throws(ReportError.Errno) {
        if access(path, W_OK | X_OK) != 0 { throw .current }
    }

    package func exchange(_ first: String, _ second: String) throws(ReportError.Errno) {
        if renameExchange(first, second) != 0 { throw .current }
    }

    package func lock(_ path: String) throws(ReportError.Errno) -> Int32 {
        // O_NOFOLLOW: a link planted at the lock's name is refused (ELOOP), never followed to
        // create its target.
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 { throw .current }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = ReportError.Errno.current
            close(fd)
            throw error
        }
        return fd
    }

    package func unlock(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    package func entries(of directory: String, named include: (String) -> Bool) throws(ReportError.Errno)
        -> [DirectoryEntry]
    {
        var result: [DirectoryEntry] = []
        for name in try folderEntryNames(directory) where include(name) {
            var info = stat()
            let found = lstat(directory + "/" + name, &info) == 0
            let isDirectory = found && (info.st_mode & S_IFMT) == S_IFDIR
            result.append(
                DirectoryEntry(name: name, isDirectory: isDirectory, isOwnedByUs: found && info.st_uid == geteuid()))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// Every entry of a directory, without `.` and `..`, sorted by name.
    package func entries(of directory: String) throws(ReportError.Errno) -> [DirectoryEntry] {
        try entries(of: directory, named: { _ in true })
    }

    package func removeDirectory(_ path: String) {
        _ = rmdir(path)
    }

    package func copyMode(from source: String, to destination: String) {
        var info = stat()
        if stat(source, &info) == 0 { _ = chmod(destination, info.st_mode & 0o7777) }
    }

    package func link(_ source: String, to destination: String) throws(ReportError.Errno) {
        if linkat(AT_FDCWD, source, AT_FDCWD, destination, 0) != 0 { throw .current }
    }

    package func symbolicLinkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        return lstat(first, &a) == 0 && lstat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    package func realPath(_ path: String) throws(ReportError.Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw .current }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// `renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE)`. Glibc declares it only
/// for `_GNU_SOURCE`, which Swift's Glibc module does not set, so it is looked up at run time
/// (glibc 2.28 and later); ENOSYS without it.
private func renameExchange(_ first: String, _ second: String) -> Int32 {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    guard let symbol = renameAt2Symbol else {
        errno = ENOSYS
        return -1
    }
    let renameAt2 = unsafeBitCast(symbol, to: RenameAt2.self)
    // 2 is RENAME_EXCHANGE (linux/fs.h).
    return renameAt2(AT_FDCWD, first, AT_FDCWD, second, 2)
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

    package func createFile(_ path: String, contents text: String) throws(ReportError.Errno) {
        let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if fd < 0 { throw .current }
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
        let closeFailure: ReportError.Errno? = close(fd) == 0 ? nil : .current
        if let error = failure ?? closeFailure { throw error }
    }

    package func rename(_ source: String, to destination: String) throws(ReportError.Errno) {
        if posixRename(source, destination) != 0 { throw .current }
    }

    package func removeFile(_ path: String) {
        _ = unlink(path)
    }

    package func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }
}

/// The C library's `rename`, which the method of the same name hides inside the struct.
private func posixRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
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

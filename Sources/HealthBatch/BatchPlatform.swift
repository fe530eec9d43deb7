import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every system call of HealthBatch, in one place: file status, reading, folder listings,
/// atomic small files, the clock.
enum BatchPlatform {
    /// An OS error: its `errno` and text.
    struct Failure: Error, Equatable {
        var code: Int32
        /// Set for a path that is there but is no regular file (a FIFO, a socket, a device).
        var notRegular = false
        var text: String { notRegular ? "not a regular file" : Errno(rawValue: code).text }
        static var current: Failure { Failure(code: errno) }
    }

    /// `path` opened for reading without blocking (`O_NONBLOCK`: opening a FIFO with no writer
    /// would wait forever) and checked to be a regular file (`fstat`), so that a FIFO named
    /// `daily.csv` or `export.xml` in a listed folder cannot hang a read. With `anyKind`, a
    /// path the user named (a manifest given as `<(…)`) is opened blocking, as it is.
    static func openForReading(_ path: String, anyKind: Bool = false) throws(Failure) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (anyKind ? 0 : O_NONBLOCK))
        guard fd >= 0 else { throw .current }
        if anyKind { return fd }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let failure = Failure.current
            close(fd)
            throw failure
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Failure(code: EINVAL, notRegular: true)
        }
        return fd
    }

    enum Kind: Equatable {
        case missing, file, directory, other
    }

    /// What is at `path`, symbolic links followed (an input may be a link).
    static func kind(of path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Size and modification time of a regular file (links followed).
    static func fileStatus(_ path: String) throws(Failure) -> (size: Int64, modifiedNanoseconds: Int64) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .current }
        guard st.st_mode & S_IFMT == S_IFREG else { throw Failure(code: EISDIR) }
        return (Int64(st.st_size), Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    /// Up to `count` bytes of `path` from `offset`.
    static func readBytes(_ path: String, offset: Int64, count: Int) throws(Failure) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt {
                    pread(fd, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                }
            }
            if n < 0 { throw .current }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[0..<filled])
    }

    /// The whole of a small file as UTF-8 text (a manifest, a status record, a report's CSV): a
    /// regular file, unless `anyKind` (see `openForReading`).
    static func readText(_ path: String, anyKind: Bool = false) throws(Failure) -> String {
        let fd = try openForReading(path, anyKind: anyKind)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { b in retryingOnInterrupt { read(fd, b.baseAddress, b.count) } }
            if n < 0 { throw .current }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct Entry: Hashable {
        var name: String
        /// A folder (a symbolic link to one counts: an input folder may hold links).
        var isDirectory: Bool
    }

    /// The entries of a folder, without `.` and `..`, in no particular order.
    static func entries(of folder: String) throws(Failure) -> [Entry] {
        guard let dir = opendir(folder) else { throw .current }
        defer { closedir(dir) }
        var result: [Entry] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            result.append(Entry(name: name, isDirectory: kind(of: join(folder, name)) == .directory))
        }
        return result
    }

    /// Creates `path` as a folder unless one is there (its parent must exist). A symbolic link
    /// there is refused (`lstat`), so nothing outside the output folder is followed.
    static func makeFolder(_ path: String) throws(Failure) {
        var st = stat()
        if lstat(path, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { return }
            throw Failure(code: ENOTDIR)
        }
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .current }
    }

    /// Writes `text` to `path` atomically: a temporary file beside it (`.<name>.tmp-<pid>-<n>`,
    /// created with `O_EXCL | O_NOFOLLOW`), flushed, renamed over `path`, the folder flushed.
    /// After a kill at any instant `path` holds the earlier text or the new one.
    static func writeAtomically(_ text: String, to path: String) throws(Failure) {
        let folder = parent(of: path)
        let name = String(path.split(separator: "/").last ?? "")
        let temporary = join(folder, ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { b in
                retryingOnInterrupt { write(fd, b.baseAddress! + written, b.count - written) }
            }
            if n < 0 {
                let failure = Failure.current
                close(fd)
                unlink(temporary)
                throw failure
            }
            written += n
        }
        if fsync(fd) != 0 {
            let failure = Failure.current
            close(fd)
            unlink(temporary)
            throw failure
        }
        close(fd)
        bytes = []
        if cRename(temporary, path) != 0 {
            let failure = Failure.current
            unlink(temporary)
            throw failure
        }
        syncFolder(folder)
    }

    /// Removes `path` (a file; a missing one is fine).
    static func removeFile(_ path: String) {
        unlink(path)
    }

    /// Flushes a folder's entries to disk; best effort.
    static func syncFolder(_ path: String) {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Seconds of a monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The absolute path of an existing `path`, or `path` when it cannot be resolved.
    static func absolute(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `folder/name`, without doubling a slash.
    static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part of `path` ("" for a bare name).
    static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

private func cRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// The text of a NUL-terminated buffer.
private func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// The batch lock, the interruption's clean-up and resolved paths (docs/batch.md).
extension BatchPlatform {
    /// This process's id.
    static var processID: Int32 { getpid() }

    /// The machine's host name (`gethostname`), "" when it cannot be read.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return cText(buffer)
    }

    /// Seconds since 1970 (UTC), the wall clock.
    static func wallClock() -> Int64 { Int64(time(nil)) }

    /// Creates `path` with `text` only when nothing is there (`O_CREAT | O_EXCL | O_NOFOLLOW`,
    /// which NFS v3 and later, SMB, CephFS and Lustre honour), flushed.
    /// - Throws: `Failure` with `EEXIST` when something is there.
    static func createExclusively(_ path: String, _ text: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let failure: Failure? = n == bytes.count ? (fsync(fd) == 0 ? nil : .current) : .current
        close(fd)
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Seconds since `path` (not followed) was last modified; nil when it is not there.
    static func secondsSinceModified(_ path: String) -> Int64? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return wallClock() - Int64(st.st_mtim.tv_sec)
    }

    /// Sets the modification time of `path` to now (the lock's heartbeat); best effort.
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
    }

    /// Whether a process `pid` exists on this machine (`kill(pid, 0)`; EPERM counts as alive).
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// `rename(2)`; fails when `from` is gone.
    static func rename(_ from: String, to: String) throws(Failure) {
        guard cRename(from, to) == 0 else { throw .current }
    }

    /// Removes a folder of files made by this process (a staging folder): its entries, then
    /// itself. Only a real folder (`lstat`) owned by this user is touched.
    static func removeFolderOfFiles(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid() else { return }
        if let names = try? entries(of: path) {
            for entry in names { unlink(join(path, entry.name)) }
        }
        rmdir(path)
    }

    /// The names in `folder` without following links, "" entries skipped; [] when unreadable.
    static func names(in folder: String) -> [String] {
        ((try? entries(of: folder)) ?? []).map(\.name)
    }

    /// `path` made absolute and resolved: `realpath` when it exists; otherwise its resolved
    /// folder joined with its name, or the current folder joined with it (a missing export is
    /// still named one way).
    static func resolved(_ path: String) -> String {
        if let r = realpath(path, nil) {
            defer { free(r) }
            return String(cString: r)
        }
        let name = String(path.split(separator: "/").last ?? "")
        let folder = parent(of: path)
        if !folder.isEmpty, let r = realpath(folder, nil) {
            defer { free(r) }
            return join(String(cString: r), name)
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return join(cText(buffer), path)
    }
}

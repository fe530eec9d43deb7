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
        /// Set for a symbolic link at a name the tool owns inside its output folder.
        var link = false
        var text: String {
            if link {
                return "a symbolic link; batch and cohort never follow links at their own names in --out (remove it)"
            }
            return notRegular ? "not a regular file" : Errno(rawValue: code).text
        }
        static var current: Failure { Failure(code: errno) }
        /// `ENOENT`: nothing at the path.
        static let missingCode = ENOENT
        /// A symbolic link at a name the tool owns (docs/batch.md §6).
        static var symbolicLink: Failure { Failure(code: ELOOP, link: true) }
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
        return try readAll(fd)
    }

    /// The rest of `fd` as UTF-8 text.
    private static func readAll(_ fd: Int32) throws(Failure) -> String {
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
        let names: [String]
        do { names = try folderEntryNames(folder) } catch { throw Failure(code: error.rawValue) }
        return names.map { Entry(name: $0, isDirectory: kind(of: join(folder, $0)) == .directory) }
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

// Names the tool owns inside its output folder (docs/batch.md §6): person folders, `cohort/`,
// `.status/`, `.listings/`, lock and staging names. Each is looked at with
// `fstatat(AT_SYMLINK_NOFOLLOW)` and opened with `O_NOFOLLOW`, relative to the descriptor of
// the folder that holds it, so a symbolic link planted at such a name is refused, never
// followed. The output folder itself is opened as given: the user named it, and it may be a link.
extension BatchPlatform {
    /// What an owned name is, a link not followed.
    enum OwnedKind: Equatable {
        case missing, file, directory, link, other
    }

    /// True for the names the tool makes directly inside an output folder.
    static func isOwnedName(_ name: String) -> Bool {
        name.hasPrefix("person=") || name.hasPrefix(".person=") || name == ".status" || name == ".listings"
            || name == "cohort" || name.hasPrefix(".cohort.") || name.hasPrefix(".batch")
    }

    /// The first name the tool owns in `output` that is a symbolic link, as a path; nil when
    /// there is none (or `output` cannot be listed: the caller's own checks say why).
    static func ownedLink(in output: String) -> String? {
        guard let fd = try? openOwnedFolder([], in: output) else { return nil }
        defer { close(fd) }
        return (try? entryNames(fd)).flatMap { names in
            names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).first {
                isOwnedName($0) && kind(at: fd, $0) == .link
            }
        }.map { join(output, $0) }
    }

    /// What `components` (names, the last one looked at without following it) is under `output`.
    static func ownedKind(_ components: [String], in output: String) -> OwnedKind {
        guard let name = components.last else { return .directory }
        guard let fd = try? openOwnedFolder(components.dropLast(), in: output) else { return .missing }
        defer { close(fd) }
        return kind(at: fd, name)
    }

    private static func kind(at folder: Int32, _ name: String) -> OwnedKind {
        var st = stat()
        guard fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT ? .missing : .other }
        switch st.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The descriptor of the folder `components` under `output`: `output` opened as given, then
    /// each component `O_DIRECTORY | O_NOFOLLOW` relative to the one before.
    /// - Throws: `Failure`, with `link` set when a component is a symbolic link.
    static func openOwnedFolder<C: Collection<String>>(_ components: C, in output: String) throws(Failure) -> Int32 {
        var fd = open(output.isEmpty ? "." : output, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        for name in components {
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            var failure = Failure.current
            if next < 0, kind(at: fd, name) == .link { failure.link = true }
            close(fd)
            guard next >= 0 else { throw failure }
            fd = next
        }
        return fd
    }

    /// Creates the folder `name` in `output` unless a real one is there (`mkdirat`, then
    /// checked without following).
    /// - Throws: `Failure` (`link` set for a symbolic link there; `ENOTDIR` for a file).
    static func makeOwnedFolder(_ name: String, in output: String) throws(Failure) {
        let fd = try openOwnedFolder([], in: output)
        defer { close(fd) }
        if mkdirat(fd, name, 0o755) != 0 && errno != EEXIST { throw .current }
        switch kind(at: fd, name) {
        case .directory: return
        case .link: throw Failure(code: ELOOP, link: true)
        default: throw Failure(code: ENOTDIR)
        }
    }

    /// The names in the owned folder `components` under `output` (without `.` and `..`).
    static func ownedNames(_ components: [String], in output: String) throws(Failure) -> [String] {
        let fd = try openOwnedFolder(components, in: output)
        defer { close(fd) }
        return try entryNames(fd)
    }

    /// The names in the folder `fd` (which stays open: it is opened again as `.` and listed).
    private static func entryNames(_ fd: Int32) throws(Failure) -> [String] {
        do { return try folderEntries(in: fd).map(\.name) } catch { throw Failure(code: error.rawValue) }
    }

    /// The text of the owned file `components` under `output`: every component opened without
    /// following a link, the file `O_NONBLOCK` and checked to be a regular file.
    static func readOwnedText(_ components: [String], in output: String) throws(Failure) -> String {
        let fd = try openOwnedFile(components, in: output)
        defer { close(fd) }
        return try readAll(fd)
    }

    /// The owned file `components` under `output`, open for reading (see `readOwnedText`).
    static func openOwnedFile(_ components: [String], in output: String) throws(Failure) -> Int32 {
        guard let name = components.last else { throw Failure(code: EISDIR) }
        let folder = try openOwnedFolder(components.dropLast(), in: output)
        defer { close(folder) }
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            var failure = Failure.current
            if kind(at: folder, name) == .link { failure.link = true }
            throw failure
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Failure(code: EINVAL, notRegular: true)
        }
        return fd
    }

    /// Writes `text` to the owned file `components` under `output` atomically: a temporary file
    /// (`.<name>.tmp-<pid>-<n>`, `O_EXCL | O_NOFOLLOW`) in the same folder, opened relative to
    /// the folder's descriptor, flushed, renamed over the name (`renameat`, which replaces a
    /// link there rather than following it), the folder flushed.
    static func writeOwnedAtomically(_ text: String, _ components: [String], in output: String) throws(Failure) {
        guard let name = components.last else { throw Failure(code: EISDIR) }
        let folder = try openOwnedFolder(components.dropLast(), in: output)
        defer { close(folder) }
        let temporary = ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        var failure: Failure?
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { b in
                retryingOnInterrupt { write(fd, b.baseAddress! + written, b.count - written) }
            }
            if n < 0 {
                failure = .current
                break
            }
            written += n
        }
        if failure == nil, fsync(fd) != 0 { failure = .current }
        close(fd)
        bytes = []
        if failure == nil, renameat(folder, temporary, folder, name) != 0 { failure = .current }
        if let failure {
            unlinkat(folder, temporary, 0)
            throw failure
        }
        fsync(folder)
    }

    /// Removes the owned file `components` under `output` (`unlinkat`: a link is removed, never
    /// its target); a missing one is fine.
    static func removeOwnedFile(_ components: [String], in output: String) {
        guard let name = components.last, let folder = try? openOwnedFolder(components.dropLast(), in: output) else {
            return
        }
        unlinkat(folder, name, 0)
        close(folder)
    }
}

extension BatchPlatform {
    /// An owned folder held open (its descriptor), for many look-ups in it without opening the
    /// path again: the cohort's pass over every person (docs/batch.md §6: nothing followed).
    final class OwnedFolder {
        let fd: Int32

        /// The folder `components` under `output` (see `openOwnedFolder`).
        init(_ components: [String], in output: String) throws(Failure) {
            fd = try openOwnedFolder(components, in: output)
        }

        /// The folder `name` inside `parent`, opened `O_DIRECTORY | O_NOFOLLOW`.
        init(_ name: String, in parent: OwnedFolder) throws(Failure) {
            let fd = openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                var failure = Failure.current
                if BatchPlatform.kind(at: parent.fd, name) == .link { failure.link = true }
                throw failure
            }
            self.fd = fd
        }

        deinit { close(fd) }

        /// What `name` in this folder is, a link not followed.
        func kind(_ name: String) -> OwnedKind { BatchPlatform.kind(at: fd, name) }

        /// The names in this folder.
        func names() throws(Failure) -> [String] { try entryNames(fd) }

        /// Identity and version of `name` (a link not followed): device, inode, size and
        /// modification time in nanoseconds, or `-` when nothing is there. A folder replaced by
        /// the report's swap gets another inode; a file rewritten in place, another time.
        func stamp(_ name: String) -> String {
            var st = stat()
            guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return "-" }
            return "\(st.st_dev):\(st.st_ino):\(st.st_mode):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
        }

        /// The stamp of this folder itself.
        func stamp() -> String { stamp(".") }

        /// The text of the regular file `name` in this folder (`O_NOFOLLOW | O_NONBLOCK`).
        func readText(_ name: String) throws(Failure) -> String {
            let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else {
                var failure = Failure.current
                if kind(name) == .link { failure.link = true }
                throw failure
            }
            defer { close(file) }
            var st = stat()
            guard fstat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
                throw Failure(code: EINVAL, notRegular: true)
            }
            return try readAll(file)
        }
    }

    /// A new file written in pieces (the cohort's tables, person by person): created
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`, appended through a 1 MiB buffer, flushed and closed by
    /// `finish`. Without a path, the text is kept in memory (`text`).
    final class FileSink {
        private var fd: Int32 = -1
        private var buffer: [UInt8] = []
        private let inMemory: Bool
        let path: String

        init(_ path: String?) throws(Failure) {
            self.path = path ?? ""
            inMemory = path == nil
            if let path {
                fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw .current }
            }
            buffer.reserveCapacity(inMemory ? 0 : 1 << 20)
        }

        deinit { if fd >= 0 { close(fd) } }

        func append(_ text: String) throws(Failure) {
            buffer.append(contentsOf: text.utf8)
            if !inMemory && buffer.count >= 1 << 20 { try flush() }
        }

        private func flush() throws(Failure) {
            var written = 0
            while written < buffer.count {
                let n = buffer.withUnsafeBytes { b in
                    retryingOnInterrupt { write(fd, b.baseAddress! + written, b.count - written) }
                }
                if n < 0 { throw .current }
                written += n
            }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes what is buffered, flushes the file to disk and closes it.
        func finish() throws(Failure) {
            guard !inMemory else { return }
            try flush()
            guard fsync(fd) == 0 else { throw .current }
            let result = close(fd)
            fd = -1
            guard result == 0 else { throw .current }
        }

        /// The text written (in memory only).
        var text: String { String(decoding: buffer, as: UTF8.self) }
    }
}

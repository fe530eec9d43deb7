import CSQLite
import HealthTables
import SystemCalls

/// Why an archive could not be opened or written. `description` is a one-line message naming
/// the file.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists and is not an SQLite database. It was not modified.
    case notSQLite(path: String)
    /// An SQLite database that is not a health-analyzer archive, or an empty file. It was not modified.
    case notAnArchive(path: String, reason: String)
    /// An import committed after the report read the archive: its results were not stored.
    case changedMeanwhile(path: String, before: ArchiveStamp, now: ArchiveStamp)
    /// An archive written by a newer health-analyzer (schema `version` > this code's). Not modified.
    case newerSchema(path: String, version: Int64, supported: Int64)
    /// An archive of an earlier schema version that this process cannot upgrade in place (read
    /// access only). Not modified.
    case olderSchema(path: String, version: Int64, reason: String)
    /// `inspect --db` or `report --db` on a file that does not exist.
    case missing(path: String)
    /// `path` is not a regular file (a FIFO, a device, a socket) or is a symbolic link to nothing;
    /// `what` says which. Nothing was opened for reading or writing.
    case notAFile(path: String, what: String)
    /// Another import held the archive longer than the busy timeout.
    case busy(path: String, seconds: Int)
    /// The archive is damaged: `PRAGMA quick_check` found a problem (its first), or a row holds what
    /// the importer never writes (a NULL instant, an offset of days). Not modified.
    case damaged(path: String, problem: String)
    /// The disk (or quota) holding the archive or its `-wal` file is full.
    case diskFull(path: String)
    /// A command that writes (`import`) on an archive this process cannot write: the file, or
    /// the folder that must hold its `-wal` and `-shm` files (a read-only mount). Not modified.
    case readOnly(path: String, reason: String)
    /// SQLite failed (disk full, I/O error, corruption, …).
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .notSQLite(let path):
            return "\(path): not an SQLite database (left unchanged); give --db a new file or an archive"
                + " made by health-analyzer import"
        case .notAnArchive(let path, let reason):
            return "\(path): an SQLite database that is not a health-analyzer archive (\(reason)); left unchanged"
        case .newerSchema(let path, let version, let supported):
            return "\(path): archive schema version \(version) is newer than this health-analyzer supports"
                + " (\(supported)); left unchanged, update health-analyzer"
        case .olderSchema(let path, let version, let reason):
            return "\(path): archive schema version \(version) is from an earlier health-analyzer; it is upgraded in"
                + " place when it can be written, and this one cannot (\(reason)); left unchanged"
        case .missing(let path):
            return "\(path): no such archive; create it with 'health-analyzer import <export> --db \(path)'"
        case .notAFile(let path, let what):
            return "\(path): not an archive file: it is \(what); give --db an archive made by health-analyzer"
                + " import, or a new file name for import to create"
        case .busy(let path, let seconds):
            return "\(path): the archive stayed locked by another process for \(seconds) s; try again later"
        case .changedMeanwhile(let path, let before, let now):
            return "\(path): an import committed while the report was made (exports \(before.exports) then"
                + " \(now.exports)): the result tables were not stored; run report --db again to store them"
        case .damaged(let path, let problem):
            return "\(path): the archive is damaged (\(problem)); left unchanged, restore it from a"
                + " backup or import into a new archive"
        case .readOnly(let path, let reason):
            return "\(path): the archive is read-only (\(reason)); writing needs write access to it and to its"
                + " folder (SQLite keeps its -wal and -shm files there); reading it (inspect --db, report --db) works"
        case .diskFull(let path):
            return "\(path): the disk is full: the archive (or its -wal or -shm file beside it) cannot grow; the"
                + " archive is as it was before this command"
        case .sqlite(let e):
            return e.message
        }
    }
}

/// A SQLite archive of a person's health history, the union of every export imported into it
/// (schema in `Schema.swift` and docs/archive.md).
///
/// Opening checks the file before anything is written: a file that is not SQLite, an SQLite
/// database of another application, or an archive of a newer schema version
/// (`PRAGMA user_version`) is refused and left as it was. The archive uses WAL mode, so readers
/// never block the writer; writers (imports, `report --db` storing its results) wait for each
/// other up to the busy timeout.
///
/// Not thread-safe: one archive value per thread.
public final class Archive {
    /// The archive file.
    public let path: String
    let db: Connection
    let busyTimeoutSeconds: Int
    /// Lookup ids cached across transactions; cleared on rollback (ids created in a rolled-back
    /// transaction do not exist).
    var lookups = Lookups()

    /// True when this process created the archive file (a first `import`): a failed first
    /// import removes it again (`removeIfCreatedAndEmpty`).
    public let created: Bool
    /// True when the archive was opened `immutable=1`: read-only in a folder where SQLite cannot
    /// make the `-shm` and `-wal` files a reader of a WAL database needs (a read-only mount).
    public let immutable: Bool
    /// The archive's contents as of the last `read` (its snapshot): what results computed from
    /// that read describe.
    public internal(set) var readStamp: ArchiveStamp?

    /// Opens the archive at `path`, creating it when it does not exist and `create` is true.
    ///
    /// A new archive is made complete (schema, WAL mode) under a temporary name beside `path`
    /// and linked into place in one step, so that `path` never exists empty: a 0-byte file is
    /// never one of ours and is refused ("not an archive"), for every command.
    ///
    /// - Parameters:
    ///   - readOnly: open for reading only (`inspect --db`; `report --db` on an archive it cannot
    ///     write); the file must exist.
    ///     Needs no write access to the file; where the folder cannot hold SQLite's `-shm` and
    ///     `-wal` files and there is no `-wal`, the file is opened `immutable=1`.
    ///   - create: create a missing archive, or the schema in an empty database (`import`);
    ///     `report --db` does neither.
    ///   - busyTimeoutSeconds: how long to wait for another writer's lock.
    ///   - onLongWait: called once, with a one-line message, when a wait for another process's
    ///     lock has lasted more than a second (`report --db` waited silently for an
    ///     import's commit).
    ///   - queryOnly: with `readOnly`, every connection is opened `mode=ro` with `PRAGMA query_only`
    ///     and extension loading off, and an archive of an earlier schema version is refused
    ///     (`ArchiveError.olderSchema`) instead of upgraded in place: nothing can change the file
    ///     (`health-analyzer mcp`, docs/mcp.md).
    /// - Throws: `ArchiveError`.
    public init(
        path: String, readOnly: Bool = false, create: Bool = true, busyTimeoutSeconds: Int = 600,
        onLongWait: (@Sendable (String) -> Void)? = nil, queryOnly: Bool = false
    ) throws(ArchiveError) {
        self.path = path
        self.queryOnly = queryOnly && readOnly
        self.busyTimeoutSeconds = busyTimeoutSeconds
        var status = ArchivePlatform.status(path)
        if status == nil, let target = ArchivePlatform.linkTarget(path) {
            // A dangling link: "no such archive" (or creating one through the link) is not what happened.
            throw .notAFile(path: path, what: "a symbolic link to '\(target)', which does not exist")
        }
        if let special = status?.special { throw .notAFile(path: path, what: special) }
        if status == nil && (readOnly || !create) { throw .missing(path: path) }
        var created = false
        if status == nil {
            created = try Archive.createNew(path, busyTimeoutSeconds: busyTimeoutSeconds)
            status = ArchivePlatform.status(path)
        }
        guard let status else { throw .missing(path: path) }
        self.created = created
        if status.isDirectory { throw .notSQLite(path: path) }
        if status.size == 0 { throw .notAnArchive(path: path, reason: "the file is empty (0 bytes)") }
        try Archive.checkHeader(path)
        if !readOnly {
            do throws(Errno) { try ArchivePlatform.checkAccess(path, .write) } catch {
                throw .readOnly(path: path, reason: error.text)
            }
            if let problem = Archive.walProblem(path, forWriting: true) {
                throw .readOnly(path: path, reason: "its folder: \(problem.text)")
            }
        }
        let immutable = readOnly && !Archive.folderCanHoldWAL(path)
        self.immutable = immutable
        do {
            db = try Connection(
                path: path, readOnly: readOnly, create: false, immutable: immutable, queryOnly: queryOnly && readOnly)
        } catch {
            throw Archive.classify(error, path: path, busyTimeoutSeconds: busyTimeoutSeconds)
        }
        busyWait = BusyWait(path: path, timeoutSeconds: busyTimeoutSeconds, onLongWait: onLongWait)
        db.setBusyHandler(busyWait)
        do throws(ArchiveError) {
            try wrap { try checkSchema(readOnly: readOnly, mayCreate: create) }
        } catch .olderSchema(let path, let version, _) where readOnly && !queryOnly {
            // Reading needs the current schema: upgrade through a writable connection, then read.
            if let problem = Archive.whyNotWritable(path) {
                throw .olderSchema(path: path, version: version, reason: problem)
            }
            _ = try Archive(path: path, create: false, busyTimeoutSeconds: busyTimeoutSeconds, onLongWait: onLongWait)
            try wrap { try checkSchema(readOnly: readOnly, mayCreate: false) }
        }
    }

    /// True when the archive was opened `queryOnly` (see `init`).
    public let queryOnly: Bool

    /// The schema version of archives this code writes and reads (`PRAGMA user_version`;
    /// docs/archive.md §6.2): an opened archive has it, older ones being upgraded on opening.
    public static var schemaVersion: Int64 { Schema.version }

    /// The wait for other processes' locks (see `onLongWait`).
    let busyWait: BusyWait

    /// True when SQLite can make (or there already are) the `-shm` and `-wal` files beside
    /// `path`: the folder is writable, or both exist (readable; writable `forWriting`).
    public static func folderCanHoldWAL(_ path: String, forWriting: Bool = false) -> Bool {
        walProblem(path, forWriting: forWriting) == nil
    }

    /// Why the archive at `path` cannot be written, as the system says it ("Read-only file
    /// system", "Permission denied"): the file itself, or its folder for the `-wal` and `-shm`
    /// files; nil when it can.
    public static func whyNotWritable(_ path: String) -> String? {
        do throws(Errno) { try ArchivePlatform.checkAccess(path, .write) } catch { return error.text }
        return walProblem(path, forWriting: true)?.text
    }

    /// Why the `-shm` and `-wal` files cannot be made or used beside `path` (see
    /// `folderCanHoldWAL`), or nil when they can.
    static func walProblem(_ path: String, forWriting: Bool) -> Errno? {
        let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
        if (try? ArchivePlatform.checkAccess(folder.isEmpty ? "/" : folder, .writeAndSearch)) != nil { return nil }
        do throws(Errno) {
            try ArchivePlatform.checkAccess(path + "-wal", forWriting ? .readWrite : .read)
            try ArchivePlatform.checkAccess(path + "-shm", forWriting ? .readWrite : .read)
            return nil
        } catch {
            return error
        }
    }

    /// Makes a new archive (schema, `application_id`, `user_version`, WAL mode) under a temporary
    /// name in `path`'s folder and links it to `path` (`link(2)`: fails if `path` exists). Returns
    /// false when another process's archive got there first (then that one is used).
    /// - Throws: `ArchiveError.sqlite` naming `path` when the folder cannot take it.
    static func createNew(_ path: String, busyTimeoutSeconds: Int) throws(ArchiveError) -> Bool {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let temporary =
            (folder.isEmpty ? "" : folder + "/") + "." + base + ".new-\(ArchivePlatform.processID)-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        func removeTemporary() {
            for suffix in ["", "-wal", "-shm", "-journal"] { ArchivePlatform.remove(temporary + suffix) }
        }
        defer { removeTemporary() }
        do {
            let db = try Connection(path: temporary, readOnly: false, create: true, immutable: false)
            try db.execute("BEGIN IMMEDIATE")
            for statement in Schema.create { try db.execute(statement) }
            try db.execute("PRAGMA application_id = \(Schema.applicationID)")
            try db.execute("PRAGMA user_version = \(Schema.version)")
            try db.execute("COMMIT")
            try db.execute("PRAGMA journal_mode = WAL")
        } catch {
            // The temporary name is ours; the message names the file the user gave.
            let reason = error.message.split(separator: ": ").last.map(String.init) ?? error.message
            throw .sqlite(SQLiteError(code: error.code, message: "\(path): cannot create: \(reason)"))
        }
        do throws(Errno) {
            try ArchivePlatform.link(temporary, to: path)
            return true
        } catch {
            if error == .alreadyExists { return false }
            throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: "\(path): cannot create: \(error.text)"))
        }
    }

    /// Removes the archive file (and its `-wal` and `-shm`) when this process created it and it
    /// holds no export: what a first `import` that failed leaves. Takes the write lock first, so
    /// that an import another process started meanwhile is not lost; false when it was kept.
    @discardableResult
    public func removeIfCreatedAndEmpty() -> Bool {
        guard created, (try? db.execute("BEGIN IMMEDIATE")) != nil else { return false }
        defer { try? db.execute("ROLLBACK") }
        guard (try? db.integer("SELECT count(*) FROM exports")) == 0 else { return false }
        for suffix in ["", "-wal", "-shm"] { ArchivePlatform.remove(path + suffix) }
        return true
    }

    /// How long `checkIntact` lets `PRAGMA integrity_check` run before it settles for
    /// `quick_check` (docs/archive.md §8).
    public static let integrityCheckSeconds = 120.0

    /// `PRAGMA integrity_check` before an import writes, the check `inspect --db` relies on: a
    /// damaged archive is refused (`ArchiveError.damaged`, its first problem) and left
    /// byte-identical. `quick_check` is not enough: it does not compare indexes with their
    /// tables, and an import wrote into archives whose index lacked rows. `integrity_check` costs
    /// more (it sorts every index's keys), so it is bounded by `integrityCheckSeconds`; an archive
    /// whose check takes longer gets `quick_check` (every page read once, about a second per GB).
    public func checkIntact() throws(ArchiveError) {
        let outcome = db.withTimeLimit(seconds: Self.integrityCheckSeconds) { () -> ArchiveError? in
            do throws(ArchiveError) {
                try check("integrity_check")
                return nil
            } catch {
                return error
            }
        }
        guard let outcome else { return }
        guard case .sqlite(let s) = outcome, s.code & 0xFF == SQLITE_INTERRUPT else { throw outcome }
        try check("quick_check")
    }

    /// `PRAGMA <pragma>(1)`: nothing when "ok", else `ArchiveError.damaged` with its first problem.
    private func check(_ pragma: String) throws(ArchiveError) {
        let problems: [String]
        do {
            let s = try db.prepare("PRAGMA \(pragma)(1)")
            var lines: [String] = []
            while try s.step() { lines.append(s.text(0)) }
            problems = lines
        } catch {
            if error.code & 0xFF == SQLITE_CORRUPT || error.code & 0xFF == SQLITE_NOTADB {
                throw .damaged(
                    path: path,
                    problem: "PRAGMA \(pragma): " + (error.message.split(separator: ": ").last.map(String.init) ?? ""))
            }
            if error.code & 0xFF == SQLITE_INTERRUPT { throw .sqlite(error) }
            throw classify(error)
        }
        if problems != ["ok"] {
            // SQLite's lines, on one line: "*** in database main ***" headers left out.
            let lines = problems.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
            throw .damaged(
                path: path,
                problem: "PRAGMA \(pragma): " + (lines.isEmpty ? "no answer" : lines.joined(separator: "; ")))
        }
    }

    /// The archive's contents now: its exports' count and largest id (imports only add exports).
    public func stamp() throws(ArchiveError) -> ArchiveStamp {
        try wrap { try currentStamp() }
    }

    func currentStamp() throws -> ArchiveStamp {
        let s = try db.prepare("SELECT count(*), coalesce(max(id), 0) FROM exports")
        guard try s.step() else { return ArchiveStamp(exports: 0, lastExportID: 0) }
        return ArchiveStamp(exports: s.int64(0), lastExportID: s.int64(1))
    }

    /// Stores `result` (`storeResults`) only when the archive still holds what `stamp` says,
    /// checked under the write lock: results in the archive describe the archive they are in
    /// (a `report --db` that waited for an import stored 1 day over 1,802).
    /// - Throws: `ArchiveError.changedMeanwhile` when an import committed since, and what
    ///   `storeResults` throws.
    public func storeResults(_ run: ReportRun, describing stamp: ArchiveStamp) throws(ArchiveError) {
        writeGuard = { [unowned self] in
            let now = try self.currentStamp()
            if now != stamp { throw ArchiveError.changedMeanwhile(path: self.path, before: stamp, now: now) }
        }
        defer { writeGuard = nil }
        try storeResults(run)
    }

    /// Run by `writeTransaction` right after it took the write lock (see `storeResults(_:describing:)`).
    var writeGuard: (() throws -> Void)?

    /// The first 16 bytes of every SQLite 3 database.
    private static func checkHeader(_ path: String) throws(ArchiveError) {
        let header: [UInt8]
        do throws(Errno) { header = try ArchivePlatform.prefix(of: path, count: 16) } catch {
            throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: "\(path): cannot read: \(error.text)"))
        }
        guard header == Array("SQLite format 3\0".utf8) else { throw .notSQLite(path: path) }
    }

    /// Refuses foreign or newer files; creates the schema in a new (empty) database when
    /// `mayCreate` (`import`; `report --db`, which opens an existing archive writable to store
    /// its results, refuses an empty database as a reader does: it is not one of ours).
    private func checkSchema(readOnly: Bool, mayCreate: Bool) throws {
        // One statement, so one read transaction: the header and `sqlite_master` come from the same
        // commit. (Three separate reads could see the header before another process created the
        // schema and `sqlite_master` after it, and call our own archive foreign.)
        func state() throws -> (application: Int64, version: Int64, objects: Int64) {
            let s = try db.prepare(
                "SELECT (SELECT application_id FROM pragma_application_id()),"
                    + " (SELECT user_version FROM pragma_user_version()), (SELECT count(*) FROM sqlite_master)")
            guard try s.step() else { return (0, 0, 0) }
            return (s.int64OrNil(0) ?? 0, s.int64OrNil(1) ?? 0, s.int64OrNil(2) ?? 0)
        }
        var s = try state()
        if s.application == 0 && s.objects == 0 {
            if readOnly || !mayCreate {
                throw ArchiveError.notAnArchive(path: path, reason: "the database is empty")
            }
            // Another process may be creating it right now: decide again under the write lock.
            try db.execute("BEGIN IMMEDIATE")
            do {
                s = try state()
                if s.application == 0 && s.objects == 0 {
                    for statement in Schema.create { try db.execute(statement) }
                    try db.execute("PRAGMA application_id = \(Schema.applicationID)")
                    try db.execute("PRAGMA user_version = \(Schema.version)")
                    s = (Schema.applicationID, Schema.version, 1)
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        guard s.application == Schema.applicationID else {
            throw ArchiveError.notAnArchive(
                path: path,
                reason: s.application == 0
                    ? "it has \(s.objects) tables or indexes of its own" : "its application_id is \(s.application)")
        }
        guard s.version <= Schema.version else {
            throw ArchiveError.newerSchema(path: path, version: s.version, supported: Schema.version)
        }
        guard s.version >= 1 else {
            throw ArchiveError.notAnArchive(path: path, reason: "schema version \(s.version)")
        }
        if s.version < Schema.version {
            if readOnly {
                throw ArchiveError.olderSchema(
                    path: path, version: s.version,
                    reason: queryOnly ? "mcp never writes; run health-analyzer report --db on it once" : "read-only")
            }
            try db.execute("BEGIN IMMEDIATE")  // another process may be upgrading it right now
            do {
                let version = try state().version
                if version < Schema.version { try Schema.upgrade(db, from: version) }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        if !readOnly {
            // WAL: a reader never blocks an import, and a crash mid-import leaves the last commit.
            try enableWAL()
            try db.execute("PRAGMA synchronous = FULL")
            try db.execute("PRAGMA journal_size_limit = 67108864")
        }
        try db.execute("PRAGMA cache_size = -16384")
    }

    /// Puts the archive in WAL mode (persistent: done once, by whichever process gets there first).
    ///
    /// Changing the journal mode needs the file to itself and fails at once with SQLITE_BUSY,
    /// without waiting in the busy handler, while another connection opens the new file. So this
    /// retries every 10 ms up to the busy timeout.
    private func enableWAL() throws {
        let deadline = ContinuousClock.now + .seconds(busyTimeoutSeconds)
        while try !isWAL() {
            let rc = db.tryExecute("PRAGMA journal_mode = WAL")
            if rc == SQLITE_OK { return }
            guard rc & 0xFF == SQLITE_BUSY, ContinuousClock.now < deadline else { throw db.failure(rc) }
            ArchivePlatform.sleep(microseconds: 10_000)
        }
    }

    private func isWAL() throws -> Bool {
        let mode = try db.prepare("PRAGMA journal_mode")
        return try mode.step() && mode.text(0).lowercased() == "wal"
    }

    /// Runs `body`, turning SQLite errors into `ArchiveError` (busy → `.busy`).
    func wrap<T>(_ body: () throws -> T) throws(ArchiveError) -> T {
        do {
            return try body()
        } catch let e as ArchiveError {
            throw e
        } catch let e as SQLiteError {
            throw classify(e)
        } catch let e as DamagedRow {
            throw .damaged(path: path, problem: e.problem)
        } catch {
            throw .sqlite(SQLiteError(code: SQLITE_ERROR, message: "\(path): \(error)"))
        }
    }

    func classify(_ e: SQLiteError) -> ArchiveError {
        Archive.classify(e, path: path, busyTimeoutSeconds: busyTimeoutSeconds)
    }

    /// The typed case of an SQLite error on the archive at `path`: a full disk is SQLITE_FULL, or
    /// an I/O error whose system error is ENOSPC or EDQUOT (the `-shm` file of a reader that
    /// cannot be made).
    static func classify(_ e: SQLiteError, path: String, busyTimeoutSeconds: Int) -> ArchiveError {
        if e.code & 0xFF == SQLITE_BUSY || e.code & 0xFF == SQLITE_LOCKED {
            return .busy(path: path, seconds: busyTimeoutSeconds)
        }
        if e.code & 0xFF == SQLITE_FULL || ArchivePlatform.meansNoSpace(e.systemErrno) { return .diskFull(path: path) }
        // A write refused because the file or its folder is read-only (another process changed
        // the mode since the open, or a read-only mount): the typed case callers switch on.
        if e.code & 0xFF == SQLITE_READONLY { return .readOnly(path: path, reason: e.message) }
        return .sqlite(e)
    }

    /// Runs `body` in one write transaction (BEGIN IMMEDIATE: waits for other writers first);
    /// commits when it returns, rolls back when it throws.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.execute("BEGIN IMMEDIATE")
        do {
            try writeGuard?()
            try lookups.load(db)
            let value = try body()
            try db.execute("COMMIT")
            return value
        } catch {
            try? db.execute("ROLLBACK")
            lookups = Lookups()
            throw error
        }
    }

    /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems.
    public func integrityCheck() throws(ArchiveError) -> String {
        try wrap {
            let s = try db.prepare("PRAGMA integrity_check")
            var lines: [String] = []
            while try s.step() { lines.append(s.text(0)) }
            return lines.joined(separator: "\n")
        }
    }

    /// Rows per table (for tests, `inspect --db` and the benchmark).
    public func rowCounts() throws(ArchiveError) -> [String: Int] {
        try wrap {
            let tables = try db.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            var names: [String] = []
            while try tables.step() { names.append(tables.text(0)) }
            var counts: [String: Int] = [:]
            for name in names {
                // A table name from sqlite_master, quoted as an identifier: not a value.
                counts[name] = Int(try db.integer("SELECT count(*) FROM \"\(name)\"") ?? 0)
            }
            // The records the blocks hold, as version 1 counted its `records` table.
            counts["records"] = Int(try db.integer("SELECT coalesce(sum(count), 0) FROM record_blocks") ?? 0)
            return counts
        }
    }

    /// Copies committed WAL frames into the database file and truncates the WAL, so that the
    /// file's size is the archive's size (the benchmark measures it).
    public func checkpoint() throws(ArchiveError) {
        try wrap { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}

/// What an archive holds, as far as results computed from it go: imports only add exports, so
/// two equal stamps of one archive are the same contents.
public struct ArchiveStamp: Hashable, Sendable {
    public var exports: Int64
    public var lastExportID: Int64
}

/// SQLite's busy handler for one connection: waits up to the timeout (sleeping 1 ms, then 10 ms
/// steps), and after one second tells `onLongWait` once what it is waiting for.
final class BusyWait {
    let path: String
    let timeoutSeconds: Int
    let onLongWait: (@Sendable (String) -> Void)?
    var started: ContinuousClock.Instant?
    var announced = false

    init(path: String, timeoutSeconds: Int, onLongWait: (@Sendable (String) -> Void)?) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        self.onLongWait = onLongWait
    }

    /// One call of the handler: `count` is 0 at the start of a wait. True: try again.
    func wait(_ count: Int32) -> Bool {
        let now = ContinuousClock.now
        if count == 0 || started == nil { started = now }
        let waited = now - started!
        if waited >= .seconds(timeoutSeconds) { return false }
        if waited >= .seconds(1), !announced {
            announced = true
            onLongWait?(
                "waiting for another process (an import or a report --db) that holds the write lock of \(path)"
                    + " (up to \(timeoutSeconds) s)…")
        }
        ArchivePlatform.sleep(microseconds: count < 10 ? 1_000 : 10_000)
        return true
    }
}

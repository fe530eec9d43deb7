import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an archive could not be opened or written. `description` is a one-line message naming
/// the file.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists and is not an SQLite database. It was not modified.
    case notSQLite(path: String)
    /// An SQLite database that is not a health-analyzer archive. It was not modified.
    case notAnArchive(path: String, reason: String)
    /// An archive written by a newer health-analyzer (schema `version` > this code's). Not modified.
    case newerSchema(path: String, version: Int64, supported: Int64)
    /// `inspect --db` or `report --db` on a file that does not exist.
    case missing(path: String)
    /// Another import held the archive longer than the busy timeout.
    case busy(path: String, seconds: Int)
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
        case .missing(let path):
            return "\(path): no such archive; create it with 'health-analyzer import <export> --db \(path)'"
        case .busy(let path, let seconds):
            return "\(path): the archive stayed locked by another process for \(seconds) s; try again later"
        case .sqlite(let e):
            return e.message
        }
    }
}

/// A SQLite archive of a person's health history, the union of every export imported into it
/// (schema in `Schema.swift` and the README).
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

    /// Opens the archive at `path`, creating it when it does not exist and `create` is true.
    ///
    /// - Parameters:
    ///   - readOnly: open for reading only (`inspect --db`); the file must exist.
    ///   - create: create a missing archive (`import`); `report --db` does not.
    ///   - busyTimeoutSeconds: how long to wait for another writer's lock.
    /// - Throws: `ArchiveError`.
    public init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeoutSeconds: Int = 600)
        throws(ArchiveError)
    {
        self.path = path
        self.busyTimeoutSeconds = busyTimeoutSeconds
        var st = stat()
        let exists = stat(path, &st) == 0
        if !exists && (readOnly || !create) { throw .missing(path: path) }
        if exists {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .notSQLite(path: path) }
            if st.st_size > 0 { try Archive.checkHeader(path) }
        }
        do {
            db = try Connection(path: path, readOnly: readOnly, create: !readOnly)
        } catch {
            throw .sqlite(error)
        }
        db.setBusyTimeout(milliseconds: Int32(clamping: busyTimeoutSeconds * 1000))
        try wrap { try checkSchema(readOnly: readOnly) }
    }

    /// The first 16 bytes of every SQLite 3 database.
    private static func checkHeader(_ path: String) throws(ArchiveError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: "\(path): cannot read: \(errnoText())"))
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let n = pread(fd, &header, 16, 0)
        guard n == 16, header == Array("SQLite format 3\0".utf8) else { throw .notSQLite(path: path) }
    }

    /// Refuses foreign or newer files; creates the schema in a new (empty) database.
    private func checkSchema(readOnly: Bool) throws {
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
            if readOnly { throw ArchiveError.notAnArchive(path: path, reason: "the database is empty") }
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
            usleep(10_000)
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
        } catch {
            throw .sqlite(SQLiteError(code: SQLITE_ERROR, message: "\(path): \(error)"))
        }
    }

    func classify(_ e: SQLiteError) -> ArchiveError {
        if e.code & 0xFF == SQLITE_BUSY || e.code & 0xFF == SQLITE_LOCKED {
            return .busy(path: path, seconds: busyTimeoutSeconds)
        }
        return .sqlite(e)
    }

    /// Runs `body` in one write transaction (BEGIN IMMEDIATE: waits for other writers first);
    /// commits when it returns, rolls back when it throws.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.execute("BEGIN IMMEDIATE")
        do {
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
            return counts
        }
    }

    /// Copies committed WAL frames into the database file and truncates the WAL, so that the
    /// file's size is the archive's size (the benchmark measures it).
    public func checkpoint() throws(ArchiveError) {
        try wrap { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }

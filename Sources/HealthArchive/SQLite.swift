import CSQLite

// A thin layer over the SQLite C API: one connection, prepared statements with bound values
// (never SQL text with values in it), and errors that carry SQLite's own message.

/// An error from SQLite: the result code and message of the failed call, with what was being done.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary or extended result code (`SQLITE_BUSY` is 5, `SQLITE_CORRUPT` 11, …).
    public var code: Int32
    public var message: String
    /// The `errno` of the system call behind an I/O error (`sqlite3_system_errno`), 0 when none.
    public var systemErrno: Int32 = 0
    public var description: String { message }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// SQLite's `SQLITE_TRANSIENT`: bound text and blobs are copied before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not thread-safe: use it from one thread at a time.
final class Connection {
    let handle: OpaquePointer
    let path: String

    /// Opens `path` read-write (creating it when `create`) or read-only; `immutable` (read-only
    /// only) opens it as `file:…?immutable=1`, which needs no `-shm` or `-wal` beside it.
    /// `queryOnly` (read-only only) opens it as `file:…?mode=ro`, sets `PRAGMA query_only` and
    /// turns extension loading off (`SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`): a connection that
    /// cannot change the file whatever SQL it is given (`health-analyzer mcp`).
    init(path: String, readOnly: Bool, create: Bool, immutable: Bool = false, queryOnly: Bool = false)
        throws(SQLiteError)
    {
        var db: OpaquePointer?
        let queryOnly = queryOnly && readOnly
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
            | SQLITE_OPEN_NOMUTEX | (immutable || queryOnly ? SQLITE_OPEN_URI : 0)
        let name =
            queryOnly
            ? Self.uri(path, immutable ? "mode=ro&immutable=1" : "mode=ro")
            : immutable && readOnly ? Self.immutableURI(path) : path
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "\(path): cannot open: \(message)")
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        if queryOnly {
            guard health_sqlite_disable_load_extension(db) == SQLITE_OK else {
                throw SQLiteError(code: SQLITE_ERROR, message: "\(path): cannot turn extension loading off")
            }
            try execute("PRAGMA query_only = 1")
        }
    }

    deinit { sqlite3_close_v2(handle) }

    /// `file:<path>?immutable=1`, the path's bytes other than unreserved ones percent-encoded.
    static func immutableURI(_ path: String) -> String { uri(path, "immutable=1") }

    /// `file:<path>?<query>`, the path's bytes other than unreserved ones percent-encoded.
    static func uri(_ path: String, _ query: String) -> String {
        var uri = "file:"
        for b in path.utf8 {
            let c = Character(Unicode.Scalar(b))
            if b < 0x80, c.isLetter || c.isNumber || "/-._~".contains(c) {
                uri.append(c)
            } else {
                uri += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return uri + "?" + query
    }

    /// Runs `body` with statements interrupted (`SQLITE_INTERRUPT`) once `seconds` have passed:
    /// SQLite's progress handler looks at the clock every 10,000 virtual-machine steps.
    func withTimeLimit<T>(seconds: Double, _ body: () throws -> T) rethrows -> T {
        let deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        deadline.pointee = ArchivePlatform.monotonicSeconds() + seconds
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            deadline.deallocate()
        }
        sqlite3_progress_handler(
            handle, 10_000,
            { context in
                guard let context else { return 0 }
                return ArchivePlatform.monotonicSeconds() > context.assumingMemoryBound(to: Double.self).pointee ? 1 : 0
            }, deadline)
        return try body()
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Lets `wait` decide each retry while another connection holds a lock (instead of a
    /// timeout). `wait` must outlive the connection.
    func setBusyHandler(_ wait: BusyWait) {
        sqlite3_busy_handler(
            handle,
            { context, count in
                Unmanaged<BusyWait>.fromOpaque(context!).takeUnretainedValue().wait(count) ? 1 : 0
            }, Unmanaged.passUnretained(wait).toOpaque())
    }

    /// Runs SQL without parameters (schema statements, PRAGMAs, BEGIN/COMMIT).
    func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw failure(rc, message: message)
        }
    }

    /// Runs SQL without parameters and returns SQLite's result code (for callers that retry).
    func tryExecute(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }

    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        return Statement(handle: statement, connection: self)
    }

    /// The first column of the first row of `sql` as an integer (PRAGMAs, counts).
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let s = try prepare(sql)
        return try s.step() ? s.int64OrNil(0) : nil
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The error for result code `rc`, with SQLite's text (or `message`). An I/O error carries the
    /// system's `errno` and says its text: "disk I/O error" alone does not say that the disk is
    /// full or the device failed.
    func failure(_ rc: Int32, message: String? = nil) -> SQLiteError {
        var text = message ?? String(cString: sqlite3_errmsg(handle))
        let code = rc & 0xFF == SQLITE_IOERR || rc & 0xFF == SQLITE_CANTOPEN ? sqlite3_system_errno(handle) : 0
        if code != 0 { text += " (\(ArchivePlatform.text(ofErrno: code)))" }
        return SQLiteError(code: rc, message: "\(path): \(text)", systemErrno: code)
    }
}

/// A prepared statement. Bind by 1-based index, `step`, read columns by 0-based index.
///
/// The statement counts what is bound: `step` refuses to run (`SQLITE_MISUSE`, naming the
/// statement and the parameters left unbound or out of range) unless every parameter of the SQL
/// was bound since the last `reset`, so a bind list that drifts from its SQL fails the first test
/// that runs it instead of storing NULLs.
final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    /// `sqlite3_bind_parameter_count`.
    let parameterCount: Int32
    /// One bit per parameter bound since the last reset (bit i − 1 for parameter i).
    private var bound: [UInt64]
    /// A bind to an index outside 1 … parameterCount since the last reset.
    private var outOfRange: Int32?
    /// The bindings were checked since the last bind or reset (steps over rows check once).
    private var verified = false

    init(handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
        parameterCount = sqlite3_bind_parameter_count(handle)
        bound = Array(repeating: 0, count: (Int(parameterCount) + 63) / 64)
    }

    /// Records that parameter `i` is bound.
    @inline(__always)
    private func mark(_ i: Int32) {
        verified = false
        guard i >= 1, i <= parameterCount else {
            outOfRange = i
            return
        }
        bound[Int(i - 1) >> 6] |= 1 << UInt64((i - 1) & 63)
    }

    /// Nil when every parameter is bound and none out of range; else what is wrong.
    private func bindingProblem() -> String? {
        if let i = outOfRange { return "parameter \(i) was bound, but the statement has \(parameterCount)" }
        var missing: [Int32] = []
        for i in 1...max(1, parameterCount) where i <= parameterCount {
            if bound[Int(i - 1) >> 6] & (1 << UInt64((i - 1) & 63)) == 0 { missing.append(i) }
        }
        guard !missing.isEmpty else { return nil }
        return
            "parameter\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(parameterCount) not bound"
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ i: Int32, _ v: Int64?) {
        mark(i)
        if let v { sqlite3_bind_int64(handle, i, v) } else { sqlite3_bind_null(handle, i) }
    }
    func bind(_ i: Int32, _ v: Int?) { bind(i, v.map { Int64($0) }) }
    func bind(_ i: Int32, _ v: Int32?) { bind(i, v.map { Int64($0) }) }
    func bind(_ i: Int32, _ v: Double?) {
        mark(i)
        if let v { sqlite3_bind_double(handle, i, v) } else { sqlite3_bind_null(handle, i) }
    }
    func bind(_ i: Int32, _ v: String?) {
        mark(i)
        if let v { sqlite3_bind_text(handle, i, v, -1, transient) } else { sqlite3_bind_null(handle, i) }
    }

    /// Binds UTF-8 `bytes` as TEXT (copied by SQLite).
    func bindText(_ i: Int32, _ bytes: [UInt8]) {
        mark(i)
        if bytes.isEmpty {
            _ = sqlite3_bind_text(handle, i, "", 0, transient)
            return
        }
        bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { c in
                _ = sqlite3_bind_text(handle, i, c.baseAddress, Int32(c.count), transient)
            }
        }
    }

    /// Binds the bytes of `values` (this machine's byte order) as a BLOB, copied by SQLite; for
    /// temporary tables only, which live as long as this process. An empty array binds a
    /// zero-length BLOB.
    func bindBlob(_ i: Int32, _ values: [Int64]) {
        mark(i)
        if values.isEmpty {
            _ = sqlite3_bind_zeroblob(handle, i, 0)
            return
        }
        values.withUnsafeBytes { b in _ = sqlite3_bind_blob(handle, i, b.baseAddress, Int32(b.count), transient) }
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bindAll(_ values: [SQLValue]) {
        for (i, v) in values.enumerated() {
            let p = Int32(i + 1)
            mark(p)
            switch v {
            case .null: sqlite3_bind_null(handle, p)
            case .integer(let n): sqlite3_bind_int64(handle, p, n)
            case .real(let d): sqlite3_bind_double(handle, p, d)
            case .text(let s): sqlite3_bind_text(handle, p, s, -1, transient)
            }
        }
    }

    /// Advances; true when a row is available, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        if !verified {
            if let problem = bindingProblem() {
                let sql = sqlite3_sql(handle).map { String(cString: $0) } ?? ""
                throw SQLiteError(code: SQLITE_MISUSE, message: "\(connection.path): \(problem): \(sql)")
            }
            verified = true
        }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let error = connection.failure(rc)
        sqlite3_reset(handle)
        throw error
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    func run() throws(SQLiteError) {
        defer { reset() }
        try step()
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for k in bound.indices { bound[k] = 0 }
        outOfRange = nil
        verified = false
    }

    func isNull(_ c: Int32) -> Bool { sqlite3_column_type(handle, c) == SQLITE_NULL }
    /// The name of result column `c` as the query gave it (`start_utc`).
    func columnName(_ c: Int32) -> String {
        sqlite3_column_name(handle, c).map { String(cString: $0) } ?? "column \(c)"
    }
    func int64(_ c: Int32) -> Int64 { sqlite3_column_int64(handle, c) }
    func int64OrNil(_ c: Int32) -> Int64? { isNull(c) ? nil : int64(c) }
    func intOrNil(_ c: Int32) -> Int? { isNull(c) ? nil : Int(int64(c)) }
    func double(_ c: Int32) -> Double { sqlite3_column_double(handle, c) }
    func doubleOrNil(_ c: Int32) -> Double? { isNull(c) ? nil : double(c) }
    func text(_ c: Int32) -> String {
        guard let p = sqlite3_column_text(handle, c) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, c))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    func textOrNil(_ c: Int32) -> String? { isNull(c) ? nil : text(c) }
    /// The bytes of TEXT column `c` without a copy, valid only inside `body` (empty for NULL).
    func withTextBytes<T>(_ c: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let p = sqlite3_column_text(handle, c)
        let n = Int(sqlite3_column_bytes(handle, c))
        return try body(UnsafeBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    /// The `Int64`s of BLOB column `c` as `bindBlob` wrote them (empty for NULL; a trailing
    /// partial value is ignored).
    func blobInt64s(_ c: Int32) -> [Int64] {
        guard let p = sqlite3_column_blob(handle, c) else { return [] }
        let n = Int(sqlite3_column_bytes(handle, c)) / 8
        return (0..<n).map { p.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self) }
    }

    /// The value of column `c` with its storage class.
    func value(_ c: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, c) {
        case SQLITE_INTEGER: return .integer(int64(c))
        case SQLITE_FLOAT: return .real(double(c))
        case SQLITE_NULL: return .null
        default: return .text(text(c))
        }
    }
    var columnCount: Int32 { sqlite3_column_count(handle) }
}

/// A value bound to or read from a statement.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// The SQLite library in use (`sqlite3_libversion()`, e.g. `3.40.1`), for `--version`.
public var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }

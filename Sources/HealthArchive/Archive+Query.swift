import CSQLite

// One read-only SQL statement over the archive, as `health-analyzer mcp`'s `query` tool runs it
// (docs/mcp.md "query"): SQLite's authorizer decides what the statement may do (not a look at
// its text), a progress handler stops it at a time limit, and at most a number of rows come back.

/// The rows of one query: its column names and values, at most the row limit of them.
public struct ArchiveQueryResult: Sendable {
    public var columns: [String]
    /// One array per row, `columns.count` values each, with SQLite's storage class.
    public var rows: [[SQLValue]]
    /// True when the statement had more rows than the limit (they were not read).
    public var truncated: Bool
}

/// Why a query was refused or failed; `description` is one line.
public enum ArchiveQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The SQL holds no statement.
    case empty
    /// More than one statement (`SELECT 1; SELECT 2`).
    case severalStatements
    /// A statement that is not a read-only `SELECT`, or that reads what is never returned:
    /// what SQLite's authorizer refused, in words.
    case refused(String)
    /// The statement ran longer than the time limit and was interrupted.
    case timeLimit(seconds: Double)
    /// SQLite's error (a syntax error, an unknown table or column).
    case sqlite(String)

    public var description: String {
        switch self {
        case .empty: return "sql holds no statement"
        case .severalStatements: return "sql holds more than one statement; give one SELECT"
        case .refused(let why): return "sql refused: \(why)"
        case .timeLimit(let seconds):
            return "sql ran longer than \(seconds.formatted) s and was stopped; narrow it (a WHERE on start_utc or"
                + " block_id, a LIMIT)"
        case .sqlite(let message): return "sql: \(message)"
        }
    }
}

extension Double {
    fileprivate var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}

/// What the authorizer of one query knows: whether names may be returned, and the first refusal.
private final class QueryGuard {
    let showSourceNames: Bool
    var refusal: String?
    var sawSelect = false
    let deadline: ContinuousClock.Instant
    var interrupted = false

    init(showSourceNames: Bool, deadline: ContinuousClock.Instant) {
        self.showSourceNames = showSourceNames
        self.deadline = deadline
    }

    /// Columns that can hold a person's name ("Alex’s Apple Watch", an export file named after
    /// them): read as NULL unless names are shown.
    static let identifying: Set<String> = [
        "sources.name", "devices.name", "devices.other_fields", "exports.input_name",
    ]

    /// SQLITE_OK, SQLITE_IGNORE (the column reads as NULL) or SQLITE_DENY for one action.
    func decide(_ action: Int32, _ a: String?, _ b: String?) -> Int32 {
        func deny(_ why: String) -> Int32 {
            if refusal == nil { refusal = why }
            return SQLITE_DENY
        }
        switch action {
        case SQLITE_SELECT:
            sawSelect = true
            return SQLITE_OK
        case SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_READ:
            let table = (a ?? "").lowercased()
            if table == "me" {
                return deny("the table me (date of birth, sex, blood type) is never returned")
            }
            if !showSourceNames, Self.identifying.contains(table + "." + (b ?? "").lowercased()) {
                return SQLITE_IGNORE
            }
            return SQLITE_OK
        case SQLITE_FUNCTION:
            if (b ?? "").lowercased() == "load_extension" { return deny("load_extension() is not allowed") }
            return SQLITE_OK
        case SQLITE_ATTACH, SQLITE_DETACH: return deny("ATTACH and DETACH are not allowed; one SELECT only")
        case SQLITE_PRAGMA: return deny("PRAGMA statements are not allowed; one SELECT only")
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            if (a ?? "").lowercased().hasPrefix("sqlite_") {
                return deny("creating or changing tables, views and indexes is not allowed; one SELECT only")
            }
            return deny("INSERT, UPDATE and DELETE are not allowed; the archive is read-only")
        case SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TEMP_INDEX,
            SQLITE_CREATE_TEMP_TRIGGER:
            return deny("temporary tables, views, indexes and triggers are not allowed; one SELECT only")
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: return deny("transactions are not allowed; one SELECT only")
        default: return deny("only a SELECT is allowed (SQLite authorizer action \(action))")
        }
    }
}

extension Archive {
    /// Runs `sql`, one read-only `SELECT` (or `WITH … SELECT`), in one read snapshot, and
    /// returns its first `maxRows` rows (fewer when their text passes `maxBytes`).
    ///
    /// What the statement may do is decided by SQLite's authorizer while it is compiled, on
    /// top of the connection being `mode=ro` and `query_only` (`queryOnly`): reading tables and
    /// views, functions and recursive CTEs are allowed; `ATTACH`, `PRAGMA`, writes, temporary
    /// objects, transactions and `load_extension()` are refused with a reason. The table `me`
    /// is never read; source and device names (and export file names) read as NULL unless
    /// `showSourceNames`. A progress handler stops the statement after `seconds`.
    ///
    /// - Throws: `ArchiveQueryError`.
    public func query(
        _ sql: String, maxRows: Int, maxBytes: Int = 4 << 20, seconds: Double, showSourceNames: Bool
    ) throws(ArchiveQueryError)
        -> ArchiveQueryResult
    {
        let handle = db.handle
        let guardState = QueryGuard(
            showSourceNames: showSourceNames,
            deadline: ContinuousClock.now + .milliseconds(Int64((seconds * 1000).rounded())))
        // The snapshot first: the authorizer refuses BEGIN. (Defers run in reverse: the authorizer
        // is removed before the COMMIT.)
        let ownTransaction = sqlite3_get_autocommit(handle) != 0
        if ownTransaction {
            guard sqlite3_exec(handle, "BEGIN", nil, nil, nil) == SQLITE_OK else {
                throw .sqlite(String(cString: sqlite3_errmsg(handle)))
            }
        }
        defer { if ownTransaction { sqlite3_exec(handle, "COMMIT", nil, nil, nil) } }
        let context = Unmanaged.passUnretained(guardState).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, a, b, _, _ in
                Unmanaged<QueryGuard>.fromOpaque(context!).takeUnretainedValue().decide(
                    action, a.map { String(cString: $0) }, b.map { String(cString: $0) })
            }, context)
        sqlite3_progress_handler(
            handle, 1000,
            { context in
                let g = Unmanaged<QueryGuard>.fromOpaque(context!).takeUnretainedValue()
                if ContinuousClock.now >= g.deadline { g.interrupted = true }
                return g.interrupted ? 1 : 0
            }, context)
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            sqlite3_progress_handler(handle, 0, nil, nil)
        }
        return try withExtendedLifetime(guardState) { () throws(ArchiveQueryError) -> ArchiveQueryResult in
            try runQuery(
                sql, handle: handle, guardState: guardState, maxRows: maxRows, maxBytes: maxBytes, seconds: seconds)
        }
    }

    private func runQuery(
        _ sql: String, handle: OpaquePointer, guardState: QueryGuard, maxRows: Int, maxBytes: Int, seconds: Double
    ) throws(ArchiveQueryError) -> ArchiveQueryResult {
        var text = Array(sql.utf8)
        text.append(0)
        return try text.withUnsafeBufferPointer { buffer throws(ArchiveQueryError) -> ArchiveQueryResult in
            let start = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(handle, start, Int32(buffer.count), &statement, &tail)
            defer { sqlite3_finalize(statement) }
            if rc != SQLITE_OK {
                if let refusal = guardState.refusal { throw .refused(refusal) }
                throw .sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            guard let statement else { throw .empty }
            // Anything after the statement but comments and spaces is a second statement: SQLite
            // compiles it to tell (a comment compiles to no statement).
            if let tail, tail.pointee != 0 {
                var next: OpaquePointer?
                let rc2 = sqlite3_prepare_v2(handle, tail, -1, &next, nil)
                sqlite3_finalize(next)
                if rc2 != SQLITE_OK || next != nil { throw .severalStatements }
            }
            guard guardState.sawSelect, sqlite3_stmt_readonly(statement) != 0, sqlite3_stmt_isexplain(statement) == 0
            else { throw .refused("only a SELECT is allowed") }
            let count = sqlite3_column_count(statement)
            let columns = (0..<count).map { c in sqlite3_column_name(statement, c).map { String(cString: $0) } ?? "" }
            var rows: [[SQLValue]] = []
            var truncated = false
            var bytes = 0  // the rows' size so far, about
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else {
                    if guardState.interrupted { throw .timeLimit(seconds: seconds) }
                    if let refusal = guardState.refusal { throw .refused(refusal) }
                    throw .sqlite(String(cString: sqlite3_errmsg(handle)))
                }
                if rows.count == maxRows || bytes > maxBytes {
                    truncated = true
                    break
                }
                bytes += 8 * Int(count)
                for c in 0..<count where sqlite3_column_type(statement, c) == SQLITE_TEXT {
                    bytes += Int(sqlite3_column_bytes(statement, c))
                }
                rows.append(
                    (0..<count).map { c in
                        switch sqlite3_column_type(statement, c) {
                        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, c))
                        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, c))
                        case SQLITE_NULL: return .null
                        case SQLITE_BLOB: return .text("<blob of \(sqlite3_column_bytes(statement, c)) bytes>")
                        default:
                            guard let p = sqlite3_column_text(statement, c) else { return .text("") }
                            let n = Int(sqlite3_column_bytes(statement, c))
                            return .text(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
                        }
                    })
            }
            return ArchiveQueryResult(columns: columns, rows: rows, truncated: truncated)
        }
    }

    /// Runs `body` inside one read transaction (one snapshot of the archive) with the archive's
    /// stamp as of that snapshot; `query` inside it reads the same snapshot. Must not be nested,
    /// nor call `read` (which takes a snapshot of its own).
    ///
    /// - Throws: `ArchiveError`, or what `body` throws.
    public func withReadSnapshot<T>(_ body: (ArchiveStamp) throws -> T) throws -> T {
        do {
            try db.execute("BEGIN")
        } catch {
            throw classify(error)
        }
        defer { try? db.execute("COMMIT") }
        let stamp = try wrap { try currentStamp() }
        return try body(stamp)
    }
}

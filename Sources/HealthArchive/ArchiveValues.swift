import CSQLite
import HealthExport

/// The ranges every number read back from an archive must lie in (docs/archive.md §11). An
/// archive is a file anyone can edit with `sqlite3`, and `PRAGMA integrity_check` says nothing
/// about values: an instant of 10^308 or a count of 2^62 passes it. Every number is checked where
/// a row becomes a value, and one outside its range is a `DamagedRow` naming the table, the row
/// and the column, so that no arithmetic further on can overflow.
enum ArchiveRange {
    /// An instant: 0000-01-01 00:00:00 to 9999-12-31 23:59:59 UTC, what a four-digit year of the
    /// export's date format can write (docs/export-format.md §9).
    static let instant: ClosedRange<Int64> = -62_167_219_200...253_402_300_799
    /// A printed offset in minutes: at most a day either way (UTC−12 to UTC+14 are in use).
    static let offsetMinutes: ClosedRange<Int64> = -1_440...1_440
    /// A length of time in seconds between two instants (a duration, a creation delay).
    static let span: ClosedRange<Int64> =
        -(instant.upperBound - instant.lowerBound)...(instant.upperBound - instant.lowerBound)
    /// A count of rows, records, copies or lines: at most 2^40 (an export of a trillion records).
    static let count: ClosedRange<Int64> = 0...(1 << 40)
    /// A row id or a lookup id.
    static let id: ClosedRange<Int64> = 0...Int64.max
}

extension DamagedRow {
    /// "table workouts, row 3, column end_utc: 1.0e+308 is not an instant of years 0 to 9999".
    init(table: String, row: String, column: String, value: String, problem: String) {
        self.init(problem: "table \(table), row \(row), column \(column): \(value) \(problem)")
    }
}

extension Statement {
    /// The table result column `c` is read from (SQLite's column metadata), or "?" for an expression.
    func tableName(_ c: Int32) -> String {
        sqlite3_column_table_name(handle, c).map { String(cString: $0) } ?? "?"
    }

    /// The `DamagedRow` of column `c` of the current row, identified as `row` (its id).
    func damaged(_ c: Int32, row: Int64, _ problem: String) -> DamagedRow {
        DamagedRow(table: tableName(c), row: String(row), column: columnName(c), value: text(c), problem: problem)
    }

    /// Column `c` as an integer in `range`, nil for NULL.
    /// - Throws: `DamagedRow` naming the table, `row` and the column for a value that is not an
    ///   integer (SQLite keeps a REAL in an INTEGER column when it is not a whole number that fits
    ///   64 bits) or lies outside `range`, described as `what` ("an instant of years 0 to 9999").
    func checked(_ c: Int32, row: Int64, in range: ClosedRange<Int64>, _ what: String) throws(DamagedRow) -> Int64? {
        switch sqlite3_column_type(handle, c) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER:
            let v = int64(c)
            guard range.contains(v) else { throw damaged(c, row: row, "is not \(what)") }
            return v
        default: throw damaged(c, row: row, "is not \(what)")
        }
    }

    /// `checked(_:row:in:_:)` of a column the schema declares NOT NULL.
    func required(_ c: Int32, row: Int64, in range: ClosedRange<Int64>, _ what: String) throws(DamagedRow) -> Int64 {
        guard let v = try checked(c, row: row, in: range, what) else {
            throw DamagedRow(
                table: tableName(c), row: String(row), column: columnName(c), value: "NULL",
                problem: "where every row has a value")
        }
        return v
    }

    /// Column `c` as a finite double, nil for NULL.
    /// - Throws: `DamagedRow` for text or a blob (a REAL column holds numbers only).
    func checkedDouble(_ c: Int32, row: Int64) throws(DamagedRow) -> Double? {
        switch sqlite3_column_type(handle, c) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let d = double(c)
            guard d.isFinite else { throw damaged(c, row: row, "is not a finite number") }
            return d
        default: throw damaged(c, row: row, "is not a number")
        }
    }
}

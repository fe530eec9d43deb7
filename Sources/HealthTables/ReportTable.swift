import HealthAnalysis
import HealthExport

// The report's tables, each declared once: a column's name, its kind, how a row's value is read
// and (for a plain property) how it is read back. From that one declaration come the CSV text
// (`CSV.swift`), the typed `CREATE TABLE`s of `schema.sql` (HealthReports' `SchemaSQL.swift`), the
// archive's result tables (HealthArchive's `Archive+Results.swift`), the cohort tables of a batch
// (HealthBatch's `CohortTables`) and the typed rows read back from a CSV file
// (`TableReader.swift`), so a header, a SQL type, a stored value and a value read back can never
// drift apart.

/// The kind of value a report column holds: how it is written in CSV and typed in SQL.
public enum ColumnKind: Hashable, Sendable {
    /// UTF-8 text; an empty cell is no value.
    case text
    /// A whole number (counts, hours of the day).
    case integer
    /// A decimal number written with at most `decimals` digits after the point, trailing zeros
    /// trimmed; never an exponent.
    case number(decimals: Int)
    /// `true` / `false`.
    case boolean
    /// A civil date, `yyyy-MM-dd` (a local day of the report's zone).
    case date
    /// A local time with its UTC offset, ISO 8601 (`2025-10-02T06:31:00+02:00`).
    case timestamp

    /// The type in `schema.sql`, which DuckDB and SQLite both read.
    public var sqlType: String {
        switch self {
        case .text: return "VARCHAR"
        case .integer: return "INTEGER"
        case .number: return "DOUBLE"
        case .boolean: return "BOOLEAN"
        case .date: return "DATE"
        case .timestamp: return "TIMESTAMP WITH TIME ZONE"
        }
    }

    /// The column type in a SQLite table (the archive's result tables): booleans are 0 and 1,
    /// dates and times ISO 8601 text, as SQLite's date functions read them.
    public var sqliteType: String {
        switch self {
        case .text, .date, .timestamp: return "TEXT"
        case .integer, .boolean: return "INTEGER"
        case .number: return "REAL"
        }
    }
}

/// One cell of a report table, typed. `.null` is no value (an empty CSV cell, SQL NULL), never 0.
public enum TableCell: Hashable, Sendable {
    case null
    case text(String)
    case integer(Int)
    /// A finite number, before rounding to its column's decimals.
    case number(Double)
    case boolean(Bool)
    case date(CivilDate)
    case timestamp(LocalTime)

    /// The cell as a CSV field of a column of `kind`, before quoting (empty for no value).
    public func csvText(_ kind: ColumnKind) -> String {
        switch self {
        case .null: return ""
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .number(let value):
            guard case .number(let decimals) = kind else { return String(value) }
            return DecimalFormat(decimals: decimals, trimsTrailingZeros: true).string(value) ?? ""
        case .boolean(let value): return value ? "true" : "false"
        case .date(let date): return date.description
        case .timestamp(let time): return time.description
        }
    }
}

/// A column of a report table: its header name, its kind, and how a row's cell is read.
///
/// Made with the factories (`.number("steps", decimals: 0) { $0.steps }`), which take values of
/// the kind's Swift type, so a column's cells always are of its kind.
public struct ReportColumn<Row>: Sendable {
    /// The header name; a measured value's name carries its unit (`distance_km`).
    public let name: String
    public let kind: ColumnKind
    /// True for a column that can name a person (a source or device name such as "Alex’s Apple
    /// Watch"): cohort tables leave it out.
    public let identifying: Bool
    let cell: @Sendable (Row) -> TableCell
    /// Writes a cell read back from CSV into a row (nil: the column is not read back, such as a
    /// value computed from several properties). Only called with cells of `kind`.
    @usableFromInline let assign: (@Sendable (inout Row, TableCell) -> Void)?

    init(
        _ name: String, _ kind: ColumnKind, identifying: Bool = false, cell: @escaping @Sendable (Row) -> TableCell,
        assign: (@Sendable (inout Row, TableCell) -> Void)? = nil
    ) {
        self.name = name
        self.kind = kind
        self.identifying = identifying
        self.cell = cell
        self.assign = assign
    }

    /// The CSV field of `row` in this column, before quoting.
    func csvField(_ row: Row) -> String { cell(row).csvText(kind) }

    /// Text; nil and "" are both no value.
    static func text(_ name: String, identifying: Bool = false, _ value: @escaping @Sendable (Row) -> String?)
        -> Self
    {
        Self(name, .text, identifying: identifying) { row in
            guard let text = value(row), !text.isEmpty else { return .null }
            return .text(text)
        }
    }

    static func integer(_ name: String, _ value: @escaping @Sendable (Row) -> Int?) -> Self {
        Self(name, .integer) { value($0).map(TableCell.integer) ?? .null }
    }

    /// A number with `decimals` digits in CSV; nil, NaN and infinities are no value.
    static func number(_ name: String, decimals: Int, _ value: @escaping @Sendable (Row) -> Double?) -> Self {
        Self(name, .number(decimals: decimals)) { row in
            guard let v = value(row), v.isFinite else { return .null }
            return .number(v)
        }
    }

    static func boolean(_ name: String, _ value: @escaping @Sendable (Row) -> Bool?) -> Self {
        Self(name, .boolean) { value($0).map(TableCell.boolean) ?? .null }
    }

    static func date(_ name: String, _ value: @escaping @Sendable (Row) -> CivilDate?) -> Self {
        Self(name, .date) { value($0).map(TableCell.date) ?? .null }
    }

    static func timestamp(_ name: String, _ value: @escaping @Sendable (Row) -> LocalTime?) -> Self {
        Self(name, .timestamp) { value($0).map(TableCell.timestamp) ?? .null }
    }
    // The same factories for a plain property of the row: the column is also read back into it
    // (`ReportTable.values(fromCSV:)`).

    static func text(_ name: String, identifying: Bool = false, _ property: WritableKeyPath<Row, String?> & Sendable)
        -> Self
    {
        let column = text(name, identifying: identifying) { $0[keyPath: property] }
        return Self(name, .text, identifying: identifying, cell: column.cell) { row, cell in
            if case .text(let t) = cell { row[keyPath: property] = t }
        }
    }

    static func integer(_ name: String, _ property: WritableKeyPath<Row, Int?> & Sendable) -> Self {
        Self(
            name, .integer, cell: { $0[keyPath: property].map(TableCell.integer) ?? .null },
            assign: { row, cell in
                if case .integer(let n) = cell { row[keyPath: property] = n }
            })
    }

    /// A count that is never empty (0 when there is none).
    static func integer(_ name: String, _ property: WritableKeyPath<Row, Int> & Sendable) -> Self {
        Self(
            name, .integer, cell: { .integer($0[keyPath: property]) },
            assign: { row, cell in
                if case .integer(let n) = cell { row[keyPath: property] = n }
            })
    }

    static func number(_ name: String, decimals: Int, _ property: WritableKeyPath<Row, Double?> & Sendable) -> Self {
        let column = number(name, decimals: decimals) { $0[keyPath: property] }
        return Self(name, column.kind, cell: column.cell) { row, cell in
            if case .number(let v) = cell { row[keyPath: property] = v }
        }
    }

    /// A number that is never empty (0 when there is none).
    static func number(_ name: String, decimals: Int, _ property: WritableKeyPath<Row, Double> & Sendable) -> Self {
        let column = number(name, decimals: decimals) { $0[keyPath: property] }
        return Self(name, column.kind, cell: column.cell) { row, cell in
            if case .number(let v) = cell { row[keyPath: property] = v }
        }
    }

    static func boolean(_ name: String, _ property: WritableKeyPath<Row, Bool?> & Sendable) -> Self {
        Self(
            name, .boolean, cell: { $0[keyPath: property].map(TableCell.boolean) ?? .null },
            assign: { row, cell in
                if case .boolean(let b) = cell { row[keyPath: property] = b }
            })
    }

    static func boolean(_ name: String, _ property: WritableKeyPath<Row, Bool> & Sendable) -> Self {
        Self(
            name, .boolean, cell: { .boolean($0[keyPath: property]) },
            assign: { row, cell in
                if case .boolean(let b) = cell { row[keyPath: property] = b }
            })
    }

    static func date(_ name: String, _ property: WritableKeyPath<Row, CivilDate?> & Sendable) -> Self {
        Self(
            name, .date, cell: { $0[keyPath: property].map(TableCell.date) ?? .null },
            assign: { row, cell in
                if case .date(let d) = cell { row[keyPath: property] = d }
            })
    }

    /// A date that every row has.
    static func date(_ name: String, _ property: WritableKeyPath<Row, CivilDate> & Sendable) -> Self {
        Self(
            name, .date, cell: { .date($0[keyPath: property]) },
            assign: { row, cell in
                if case .date(let d) = cell { row[keyPath: property] = d }
            })
    }

    static func timestamp(_ name: String, _ property: WritableKeyPath<Row, LocalTime?> & Sendable) -> Self {
        Self(
            name, .timestamp, cell: { $0[keyPath: property].map(TableCell.timestamp) ?? .null },
            assign: { row, cell in
                if case .timestamp(let t) = cell { row[keyPath: property] = t }
            })
    }
}

/// A column's name, kind and privacy, without its row type: what `schema.sql`, the loaders, the
/// archive and the cohort tables need.
public struct ColumnSchema: Hashable, Sendable {
    public var name: String
    public var kind: ColumnKind
    /// See `ReportColumn.identifying`.
    public var identifying: Bool

    public init(name: String, kind: ColumnKind, identifying: Bool = false) {
        self.name = name
        self.kind = kind
        self.identifying = identifying
    }
}

/// A table's SQL name, its CSV file and its columns in order.
public struct TableSchema: Hashable, Sendable {
    /// The SQL table name (`daily`), also the file's name without `.csv`.
    public var name: String
    /// The CSV file's name (`daily.csv`).
    public var fileName: String
    public var columns: [ColumnSchema]

    public init(name: String, fileName: String, columns: [ColumnSchema]) {
        self.name = name
        self.fileName = fileName
        self.columns = columns
    }

    /// The header row: the columns' names in order.
    public var header: [String] { columns.map(\.name) }
}

/// One of the report's CSV tables: its file and its typed columns, declared once.
public struct ReportTable<Row>: Sendable {
    /// The SQL table name (`daily`).
    public let name: String
    /// The CSV file's name (`daily.csv`).
    public let fileName: String
    public let columns: [ReportColumn<Row>]
    /// A row with no values, that `values(fromCSV:)` fills in (nil: the table is not read back
    /// into rows, only into cells).
    @usableFromInline let blank: (@Sendable () -> Row)?

    init(_ name: String, fileName: String, blank: (@Sendable () -> Row)? = nil, columns: [ReportColumn<Row>]) {
        self.name = name
        self.fileName = fileName
        self.blank = blank
        self.columns = columns
    }

    public var schema: TableSchema {
        TableSchema(
            name: name, fileName: fileName,
            columns: columns.map { ColumnSchema(name: $0.name, kind: $0.kind, identifying: $0.identifying) })
    }

    /// The typed cells of `rows`, one array per row in the columns' order.
    ///
    /// - Complexity: O(rows × columns).
    public func cells(_ rows: some Sequence<Row>) -> TableRows {
        TableRows(schema: schema, rows: rows.map { row in columns.map { $0.cell(row) } })
    }

    /// The CSV text of `rows`: the header, then one line per row (`CSV.swift`'s conventions).
    ///
    /// - Complexity: O(rows × columns).
    public func csv(_ rows: some Sequence<Row>) -> String {
        var text = CSV.line(columns.map(\.name))
        for row in rows {
            text += CSV.line(columns.map { $0.csvField(row) })
        }
        return text
    }
}

/// A table's rows as typed cells, with their schema: what the archive stores.
public struct TableRows: Hashable, Sendable {
    public var schema: TableSchema
    /// One array per row, `schema.columns.count` cells each.
    public var rows: [[TableCell]]
}

import HealthExport
import HealthTables

// A window of one of the report's tables (daily.csv, weekly.csv, …) as a tool returns it: the
// rows whose local days meet the window, typed cells as JSON (numbers as the CSV writes them,
// no value as null), and the same rows as a Markdown table.

/// One report table a tool serves, and how a row's local days are read from its typed cells.
struct ServedTable {
    /// The tool's name and the table's (`daily`).
    var name: String
    var table: ReportTableID
    /// The local days a row covers, from its cells: daily, sleep and workouts rows one day
    /// (their first date or timestamp column), weekly rows their week (week_start + 6 days),
    /// monthly rows their calendar month (the first column, `YYYY-MM`).
    var span: Span

    enum Span {
        case day
        case week
        case month
    }

    static let daily = ServedTable(name: "daily", table: .daily, span: .day)
    static let weekly = ServedTable(name: "weekly", table: .weekly, span: .week)
    static let monthly = ServedTable(name: "monthly", table: .monthly, span: .month)
    static let sleep = ServedTable(name: "sleep", table: .sleep, span: .day)
    static let workouts = ServedTable(name: "workouts", table: .workouts, span: .day)
    static let all: [ServedTable] = [daily, weekly, monthly, sleep, workouts]

    /// The CSV file's name (`daily.csv`).
    var fileName: String { table.schema.fileName }

    /// The first and last local day of `row`, nil when its cells hold no day.
    func days(of row: [TableCell]) -> (first: CivilDate, last: CivilDate)? {
        switch span {
        case .day, .week:
            for cell in row {
                let day: CivilDate
                switch cell {
                case .date(let d): day = d
                case .timestamp(let t):
                    day = CivilDate(
                        daysSince1970: Int(floorDiv(t.secondsSince1970 + Int64(t.utcOffsetSeconds), 86_400)))
                default: continue
                }
                guard span == .week else { return (day, day) }
                return (day, CivilDate(daysSince1970: day.daysSince1970 + 6))
            }
            return nil
        case .month:
            guard case .text(let month) = row.first, let first = CivilDate(month + "-01") else { return nil }
            let next =
                first.month == 12
                ? CivilDate(year: first.year + 1, month: 1, day: 1)
                : CivilDate(year: first.year, month: first.month + 1, day: 1)
            return (first, CivilDate(daysSince1970: next.daysSince1970 - 1))
        }
    }
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// A typed cell as JSON: a number as its CSV text (rounded to its column's decimals, so it reads
/// as daily.csv's value), a date or time as its ISO 8601 text, no value as null.
func jsonCell(_ cell: TableCell, _ kind: ColumnKind) -> JSON {
    switch cell {
    case .null: return .null
    case .text(let s): return .string(s)
    case .integer(let n): return .int(n)
    case .number:
        let text = cell.csvText(kind)
        return text.isEmpty ? .null : .number(text)
    case .boolean(let b): return .bool(b)
    case .date, .timestamp: return .string(cell.csvText(kind))
    }
}

/// The JSON Schema type of a column's cells (with null for no value).
func jsonSchemaType(_ kind: ColumnKind) -> JSON {
    let base: String
    switch kind {
    case .text, .date, .timestamp: base = "string"
    case .integer: base = "integer"
    case .number: base = "number"
    case .boolean: base = "boolean"
    }
    return .array([.string(base), .string("null")])
}

/// A Markdown table of `columns` and `rows` (cells as the CSV writes them; `|` escaped).
func markdownTable(_ columns: [String], _ rows: [[JSON]]) -> String {
    func text(_ cell: JSON) -> String {
        switch cell {
        case .null: return ""
        case .string(let s):
            return s.replacingAll("|", with: "\\|").replacingAll("\n", with: " ").replacingAll("\r", with: " ")
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return cell.text
        }
    }
    var out = "| " + columns.joined(separator: " | ") + " |\n"
    out += "|" + String(repeating: " --- |", count: columns.count) + "\n"
    for row in rows { out += "| " + row.map(text).joined(separator: " | ") + " |\n" }
    return out
}

extension String {
    /// This text with every `target` replaced (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

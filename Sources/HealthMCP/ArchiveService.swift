import HealthAnalysis
import HealthArchive
import HealthExport
import HealthTables

/// How `health-analyzer mcp` serves an archive.
public struct ArchiveServiceOptions: Sendable {
    /// Return source and device names (`--show-source-names`); off by default, since they hold
    /// first names ("Alex’s Apple Watch").
    public var showSourceNames = false
    /// Threads replaying the archive for the analysis (as `report --db --threads`).
    public var threads = 1
    /// `$TZ`, which the analysis consults only where the archive cannot decide a zone (as
    /// `report --db` does).
    public var environmentTimeZone: String?

    public init(showSourceNames: Bool = false, threads: Int = 1, environmentTimeZone: String? = nil) {
        self.showSourceNames = showSourceNames
        self.threads = threads
        self.environmentTimeZone = environmentTimeZone
    }
}

/// The tools and resources of `health-analyzer mcp` over one archive (docs/mcp.md).
///
/// The numbers are the reports' numbers: the archive is replayed through the same analysis as
/// `report --db` (`ReportPipeline.run` over `Archive.read`, default options) and the rows come
/// from the report's typed table declarations (`ReportTableID.rows`), so `daily` returns
/// exactly the values of the daily.csv that `report --db` writes for the same archive.
///
/// Nothing is analysed when the server starts; the first call that needs the numbers analyses
/// the archive and keeps the result for as long as the archive's stamp (`ArchiveStamp`: its
/// exports) is unchanged, checked at every call. Each call reads one snapshot.
public final class ArchiveService: MCPService {
    let archive: Archive
    let options: ArchiveServiceOptions
    /// The analysis of the archive as of `stamp`, and the tables made from it so far.
    var cached: Analysis?

    final class Analysis {
        let stamp: ArchiveStamp
        let run: ReportRun
        var tables: [ReportTableID: TableRows] = [:]

        init(stamp: ArchiveStamp, run: ReportRun) {
            self.stamp = stamp
            self.run = run
        }

        /// The typed rows of `id` for this analysis (made once).
        func table(_ id: ReportTableID) -> TableRows {
            if let t = tables[id] { return t }
            let t = id.rows(for: run.result, context: run.context)
            tables[id] = t
            return t
        }
    }

    /// Most rows a table tool returns per call.
    public static let maximumTableRows = 400
    /// Most rows and seconds of a `query`.
    public static let maximumQueryRows = 1000
    public static let queryTimeLimitSeconds = 2.0

    /// - Parameter archive: an archive opened `readOnly` and `queryOnly`.
    public init(archive: Archive, options: ArchiveServiceOptions) {
        self.archive = archive
        self.options = options
    }

    public var instructions: String {
        "health-analyzer's archive of one person's Apple Health exports, read-only. The numbers are de-duplicated"
            + " (iPhone and Watch are not added together) and bucketed by the person's local days, as the"
            + " health-analyzer reports compute them. Call summary first; daily, weekly, monthly, sleep and workouts"
            + " return rows of the report tables for a window of local days (from, to as YYYY-MM-DD); compare"
            + " sets two windows side by side; query runs one read-only SELECT. The resources define every column."
    }

    // MARK: Analysis

    /// The analysis of the archive as it is now: the kept one when the archive's stamp is
    /// unchanged, else a new replay (one snapshot; its stamp is the snapshot's).
    func analysis(_ log: MCPLog) throws -> Analysis {
        let now = try archive.stamp()
        if let cached, cached.stamp == now { return cached }
        let started = MCPPlatform.seconds()
        log.log(
            "info",
            cached == nil
                ? "analysing the archive (once; kept while it is unchanged)"
                : "the archive changed (an import); analysing it again")
        let parts = max(1, options.threads)
        let archive = self.archive
        let run = try ReportPipeline.run(
            parts: parts,
            reading: { makeConsumer in try archive.read(parts: parts, makeConsumer: makeConsumer) },
            options: AnalysisOptions(), environmentTimeZone: options.environmentTimeZone)
        let analysis = Analysis(stamp: archive.readStamp ?? now, run: run)
        cached = analysis
        let ms = Int(((MCPPlatform.seconds() - started) * 1000).rounded())
        log.log("info", "analysed \(run.result.days.count) days in \(ms) ms")
        return analysis
    }

    /// The first and last reported day.
    /// - Throws: `ToolError` when the archive holds no day.
    func dataDays(_ a: Analysis) throws(ToolError) -> (first: CivilDate, last: CivilDate) {
        guard let first = a.run.result.firstDay, let last = a.run.result.lastDay else {
            throw ToolError(message: "the archive holds no days of data; import an export first")
        }
        return (first, last)
    }

    // MARK: Calls

    public func callTool(_ name: String, arguments: JSON, log: MCPLog) -> ToolResult? {
        guard Self.toolNames.contains(name) else { return nil }
        do {
            switch name {
            case "summary": return try summary(arguments, log)
            case "compare": return try compare(arguments, log)
            case "query": return try query(arguments)
            default:
                guard let table = ServedTable.all.first(where: { $0.name == name }) else { return nil }
                return try rows(of: table, arguments, log)
            }
        } catch let e as ToolError {
            return .failure(e.message)
        } catch {
            // The archive failed (damaged, locked): one line, as report --db says it.
            log.log("error", "\(error)")
            return .failure("archive: \(error)")
        }
    }

    static let toolNames = ["summary", "daily", "weekly", "monthly", "sleep", "workouts", "compare", "query"]

    /// The columns of `schema` a tool may return: source and device names only when shown.
    func visibleColumns(_ schema: TableSchema) -> [Int] {
        schema.columns.indices.filter { options.showSourceNames || !schema.columns[$0].identifying }
    }

    /// `daily`, `weekly`, `monthly`, `sleep`, `workouts`: the rows of the table whose local days
    /// meet the window, at most `maximumTableRows`, cut between days; `next_from` continues.
    func rows(of served: ServedTable, _ arguments: JSON, _ log: MCPLog) throws -> ToolResult {
        let args = try ToolArguments(tool: served.name, arguments, accepted: ["from", "to", "columns"])
        _ = try args.date("from")
        _ = try args.date("to")
        let a = try analysis(log)
        let window = try DayWindow.read(args, from: "from", to: "to", data: try dataDays(a))
        let table = a.table(served.table)
        let visible = visibleColumns(table.schema)
        var chosen = visible
        if let names = try args.strings("columns") {
            let known = visible.map { table.schema.columns[$0].name }
            var picked: [Int] = [visible[0]]  // the row's key (date, week, month, night, start) always
            for name in names {
                guard let k = known.firstIndex(of: name) else {
                    throw ToolError(
                        message: "columns: \(served.fileName) has no column '\(name)'; its columns: "
                            + known.joined(separator: ", "))
                }
                if !picked.contains(visible[k]) { picked.append(visible[k]) }
            }
            chosen = picked
        }
        var selected: [(row: [TableCell], first: CivilDate)] = []
        for row in table.rows {
            guard let days = served.days(of: row), window.meets(days.first, days.last) else { continue }
            selected.append((row, days.first))
        }
        var truncated = false
        var nextFrom: CivilDate?
        if selected.count > Self.maximumTableRows {
            truncated = true
            var cut = Self.maximumTableRows
            // Cut between days: a day's rows are all on one page (unless one day has them all).
            while cut > 1, selected[cut - 1].first == selected[cut].first { cut -= 1 }
            if cut == 1, selected[0].first == selected[1].first { cut = Self.maximumTableRows }
            nextFrom = selected[cut].first
            selected.removeSubrange(cut...)
        }
        let columns = chosen.map { table.schema.columns[$0] }
        let cells = selected.map { s in chosen.map { jsonCell(s.row[$0], table.schema.columns[$0].kind) } }
        let structured = JSON.object([
            ("table", .string(served.name)),
            ("from", .string(window.from.description)), ("to", .string(window.to.description)),
            ("columns", .array(columns.map { .string($0.name) })),
            ("rows", .array(cells.map(JSON.array))),
            ("row_count", .int(cells.count)),
            ("truncated", .bool(truncated)),
            ("next_from", nextFrom.map { .string($0.description) } ?? .null),
        ])
        var text = "\(served.fileName), \(window.from) to \(window.to): \(cells.count) rows"
        if let nextFrom {
            text +=
                " (truncated at \(Self.maximumTableRows); call \(served.name) again with from=\(nextFrom) for the rest)"
        }
        text += "\n\n" + markdownTable(columns.map(\.name), cells)
        return .success(structured, text: text)
    }

    // MARK: summary

    func summary(_ arguments: JSON, _ log: MCPLog) throws -> ToolResult {
        _ = try ToolArguments(tool: "summary", arguments, accepted: [])
        // The analysis and the exports from one snapshot: retried when an import commits between.
        for _ in 0..<3 {
            let a = try analysis(log)
            let exports: ArchiveQueryResult? = try archive.withReadSnapshot { stamp in
                guard stamp == a.stamp else { return nil }
                return try archive.query(
                    "SELECT export_utc, printed_offset_min, records_read, records_new FROM exports ORDER BY export_utc, id",
                    maxRows: 100_000, seconds: 10, showSourceNames: false)
            }
            guard let exports else { continue }
            return summary(a, exports: exports)
        }
        throw ToolError(message: "the archive kept changing (imports) while it was read; call summary again")
    }

    func summary(_ a: Analysis, exports: ArchiveQueryResult) -> ToolResult {
        let result = a.run.result
        let daily = a.table(.daily)
        var metrics: [(String, Int)] = []
        for (c, column) in daily.schema.columns.enumerated() where isMetric(column) {
            let days = daily.rows.reduce(0) { $0 + ($1[c] == .null ? 0 : 1) }
            if days > 0 { metrics.append((column.name, days)) }
        }
        let exportRows: [JSON] = exports.rows.map { row in
            var date: JSON = .null
            if case .integer(let t) = row[0] {
                var offset: Int64 = 0
                if case .integer(let o) = row[1] { offset = o }
                date = .string(Timestamp(secondsSince1970: t, printedOffsetSeconds: Int32(offset * 60)).description)
            }
            func int(_ v: SQLValue) -> JSON {
                if case .integer(let n) = v { return .int(Int(n)) }
                return .null
            }
            return .object([("export_date", date), ("records_read", int(row[2])), ("records_new", int(row[3]))])
        }
        var kinds: [(SourceClass, [String])] = []
        for source in result.sourceOrder {
            if let k = kinds.firstIndex(where: { $0.0 == source.sourceClass }) {
                kinds[k].1.append(source.name)
            } else {
                kinds.append((source.sourceClass, [source.name]))
            }
        }
        kinds.sort { $0.0 < $1.0 }
        let sources: [JSON] = kinds.map { kind, names in
            var fields: [(String, JSON)] = [("kind", .string(kind.rawValue)), ("count", .int(names.count))]
            if options.showSourceNames { fields.append(("names", .array(names.map(JSON.string)))) }
            return .object(fields)
        }
        let periods: [JSON] = result.timeZonePeriods.map { p in
            .object([
                ("zone", .string(p.identifier)),
                ("first_day", p.firstDay.map { .string($0.description) } ?? .null),
                ("last_day", p.lastDay.map { .string($0.description) } ?? .null),
            ])
        }
        let structured = JSON.object([
            ("schema_version", .int(Int(Archive.schemaVersion))),
            ("first_day", result.firstDay.map { .string($0.description) } ?? .null),
            ("last_day", result.lastDay.map { .string($0.description) } ?? .null),
            ("days", .int(result.days.count)),
            ("exports", .array(exportRows)),
            ("time_zone_periods", .array(periods)),
            ("metrics", .array(metrics.map { .object([("column", .string($0.0)), ("days_with_data", .int($0.1))]) })),
            ("sources", .array(sources)),
            ("source_names_shown", .bool(options.showSourceNames)),
        ])
        let period = [result.firstDay, result.lastDay].compactMap { $0?.description }.joined(separator: " to ")
        var text =
            "Archive (schema version \(Archive.schemaVersion)): \(result.days.count) days"
            + (period.isEmpty ? ", no data" : " (\(period))") + ", \(exportRows.count) exports\n\n"
        text += markdownTable(
            ["export_date", "records_read", "records_new"],
            exportRows.map { [$0["export_date"] ?? .null, $0["records_read"] ?? .null, $0["records_new"] ?? .null] })
        text +=
            "\n"
            + markdownTable(
                ["zone", "first_day", "last_day"],
                periods.map { [$0["zone"] ?? .null, $0["first_day"] ?? .null, $0["last_day"] ?? .null] })
        text +=
            "\n"
            + markdownTable(
                ["metric (daily.csv column)", "days_with_data"], metrics.map { [.string($0.0), .int($0.1)] })
        text +=
            "\n"
            + markdownTable(
                options.showSourceNames ? ["source kind", "sources", "names"] : ["source kind", "sources"],
                kinds.map { kind, names in
                    [.string(kind.rawValue), .int(names.count)]
                        + (options.showSourceNames ? [.string(names.joined(separator: ", "))] : [])
                })
        return .success(structured, text: text)
    }

    // MARK: compare

    /// A daily.csv column holding a measured number (not the date, the zone or a name).
    func isMetric(_ column: ColumnSchema) -> Bool {
        if column.identifying { return false }
        switch column.kind {
        case .number, .integer: return true
        default: return false
        }
    }

    func compare(_ arguments: JSON, _ log: MCPLog) throws -> ToolResult {
        let args = try ToolArguments(
            tool: "compare", arguments, accepted: ["from", "to", "baseline_from", "baseline_to", "columns"])
        for name in ["from", "to", "baseline_from", "baseline_to"] {
            guard try args.date(name) != nil else { throw ToolError(message: "\(name): missing; compare needs it") }
        }
        let a = try analysis(log)
        let data = try dataDays(a)
        let window = try DayWindow.read(args, from: "from", to: "to", data: data)
        let baseline = try DayWindow.read(args, from: "baseline_from", to: "baseline_to", data: data)
        let daily = a.table(.daily)
        var metricColumns = daily.schema.columns.indices.filter { isMetric(daily.schema.columns[$0]) }
        if let names = try args.strings("columns") {
            let known = metricColumns.map { daily.schema.columns[$0].name }
            metricColumns = try names.map { name throws(ToolError) in
                guard let k = known.firstIndex(of: name) else {
                    throw ToolError(
                        message: "columns: daily.csv has no metric '\(name)'; its metrics: "
                            + known.joined(separator: ", "))
                }
                return metricColumns[k]
            }
        }
        func days(_ w: DayWindow) -> [[TableCell]] {
            daily.rows.filter { row in
                guard case .date(let d) = row[0] else { return false }
                return d >= w.from && d <= w.to
            }
        }
        let windowRows = days(window)
        let baselineRows = days(baseline)
        func mean(_ rows: [[TableCell]], _ c: Int) -> (mean: Double?, days: Int) {
            let kind = daily.schema.columns[c].kind
            let values = rows.compactMap { Double($0[c].csvText(kind)) }
            return (values.isEmpty ? nil : values.reduce(0, +) / Double(values.count), values.count)
        }
        func rounded(_ v: Double?, _ decimals: Int) -> Double? {
            guard let v else { return nil }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return (v * scale).rounded() / scale
        }
        var metrics: [JSON] = []
        var textRows: [[JSON]] = []
        for c in metricColumns {
            let column = daily.schema.columns[c]
            var decimals = 0
            if case .number(let d) = column.kind { decimals = d }
            let w = mean(windowRows, c)
            let b = mean(baselineRows, c)
            let change = w.mean.flatMap { x in b.mean.map { x - $0 } }
            let percent = change.flatMap { ch in b.mean.flatMap { $0 == 0 ? nil : ch / $0 * 100 } }
            let fields: [(String, JSON)] = [
                ("metric", .string(column.name)),
                ("mean", .double(rounded(w.mean, decimals + 1))), ("days_with_data", .int(w.days)),
                ("baseline_mean", .double(rounded(b.mean, decimals + 1))), ("baseline_days_with_data", .int(b.days)),
                ("change", .double(rounded(change, decimals + 1))), ("change_pct", .double(rounded(percent, 1))),
            ]
            metrics.append(.object(fields))
            textRows.append(fields.map(\.1))
        }
        let structured = JSON.object([
            (
                "window",
                .object([
                    ("from", .string(window.from.description)), ("to", .string(window.to.description)),
                    ("days", .int(windowRows.count)),
                ])
            ),
            (
                "baseline",
                .object([
                    ("from", .string(baseline.from.description)), ("to", .string(baseline.to.description)),
                    ("days", .int(baselineRows.count)),
                ])
            ),
            ("metrics", .array(metrics)),
        ])
        let text =
            "Mean per day with data, \(window.from) to \(window.to) against \(baseline.from) to \(baseline.to)"
            + " (daily.csv values):\n\n"
            + markdownTable(
                [
                    "metric", "mean", "days_with_data", "baseline_mean", "baseline_days_with_data", "change",
                    "change_pct",
                ],
                textRows)
        return .success(structured, text: text)
    }

    // MARK: query

    func query(_ arguments: JSON) throws -> ToolResult {
        let args = try ToolArguments(tool: "query", arguments, accepted: ["sql"])
        guard let sql = try args.string("sql", required: true) else { throw ToolError(message: "sql: missing") }
        let result: ArchiveQueryResult
        do {
            result = try archive.query(
                sql, maxRows: Self.maximumQueryRows, seconds: Self.queryTimeLimitSeconds,
                showSourceNames: options.showSourceNames)
        } catch {
            throw ToolError(message: error.description)
        }
        let rows: [[JSON]] = result.rows.map { row in
            row.map { v in
                switch v {
                case .null: return .null
                case .integer(let n): return .number(String(n))
                case .real(let d): return .double(d)
                case .text(let s): return .string(s)
                }
            }
        }
        let structured = JSON.object([
            ("columns", .array(result.columns.map(JSON.string))),
            ("rows", .array(rows.map(JSON.array))),
            ("row_count", .int(rows.count)),
            ("truncated", .bool(result.truncated)),
        ])
        var text = "\(rows.count) rows"
        if result.truncated {
            text += " (truncated at \(Self.maximumQueryRows): narrow the query or add a LIMIT/OFFSET)"
        }
        text += "\n\n" + markdownTable(result.columns, rows)
        return .success(structured, text: text)
    }
}

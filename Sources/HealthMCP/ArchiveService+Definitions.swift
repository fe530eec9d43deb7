import HealthArchive
import HealthReports
import HealthTables

// The tools' definitions (`tools/list`: name, description, inputSchema, outputSchema) and the
// resources (`resources/list`, `resources/read`): docs/mcp.md describes both for people.

extension ArchiveService {
    static func schemaObject(_ properties: [(String, JSON)], required: [String] = []) -> JSON {
        var fields: [(String, JSON)] = [("type", .string("object")), ("properties", .object(properties))]
        if !required.isEmpty { fields.append(("required", .array(required.map(JSON.string)))) }
        fields.append(("additionalProperties", .bool(false)))
        return .object(fields)
    }

    static func date(_ description: String) -> JSON {
        .object([
            ("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
            ("description", .string(description)),
        ])
    }

    static let nullableDate: JSON = .object([("type", .array([.string("string"), .string("null")]))])
    static let cells: JSON = .object([
        ("type", .string("array")),
        (
            "items",
            .object([
                ("type", .string("array")),
                ("items", .object([("type", .array(["number", "string", "boolean", "null"].map(JSON.string)))])),
            ])
        ),
        ("description", .string("One array per row, its cells in the order of columns; no value is null.")),
    ])

    func tool(_ name: String, _ title: String, _ description: String, input: JSON, output: JSON) -> JSON {
        .object([
            ("name", .string(name)), ("title", .string(title)), ("description", .string(description)),
            ("inputSchema", input), ("outputSchema", output),
            ("annotations", .object([("readOnlyHint", .bool(true)), ("openWorldHint", .bool(false))])),
        ])
    }

    /// The column names a table tool can return (source names only when shown).
    func columnNames(_ id: ReportTableID) -> [String] {
        visibleColumns(id.schema).map { id.schema.columns[$0].name }
    }

    func tableTool(_ served: ServedTable, _ what: String) -> JSON {
        let names = columnNames(served.table)
        let input = Self.schemaObject([
            ("from", Self.date("First local day of the window (inclusive). Default: the first day of data.")),
            ("to", Self.date("Last local day of the window (inclusive). Default: the last day of data.")),
            (
                "columns",
                .object([
                    ("type", .string("array")),
                    ("items", .object([("type", .string("string")), ("enum", .array(names.map(JSON.string)))])),
                    (
                        "description",
                        .string("Only these columns (the first, \(names.first ?? ""), always comes). Default: all.")
                    ),
                ])
            ),
        ])
        let output = Self.schemaObject(
            [
                ("table", .object([("type", .string("string"))])),
                ("from", .object([("type", .string("string"))])), ("to", .object([("type", .string("string"))])),
                ("columns", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
                ("rows", Self.cells),
                ("row_count", .object([("type", .string("integer")), ("minimum", .int(0))])),
                ("truncated", .object([("type", .string("boolean"))])),
                ("next_from", Self.nullableDate),
            ], required: ["table", "from", "to", "columns", "rows", "row_count", "truncated", "next_from"])
        return tool(
            served.name, "\(served.fileName) rows",
            "The rows of \(served.fileName) (\(what)) whose local days meet the window from..to, exactly as"
                + " health-analyzer report writes them: de-duplicated across sources, local days of the person's"
                + " time zone. At most \(Self.maximumTableRows) rows; when truncated, call again with from=next_from."
                + " Columns are defined in the resource docs/outputs.md.",
            input: input, output: output)
    }

    public var tools: [JSON] {
        let summaryOutput = Self.schemaObject(
            [
                ("schema_version", .object([("type", .string("integer"))])),
                ("first_day", Self.nullableDate), ("last_day", Self.nullableDate),
                ("days", .object([("type", .string("integer"))])),
                ("exports", .object([("type", .string("array")), ("items", .object([("type", .string("object"))]))])),
                (
                    "time_zone_periods",
                    .object([("type", .string("array")), ("items", .object([("type", .string("object"))]))])
                ),
                ("metrics", .object([("type", .string("array")), ("items", .object([("type", .string("object"))]))])),
                ("sources", .object([("type", .string("array")), ("items", .object([("type", .string("object"))]))])),
                ("source_names_shown", .object([("type", .string("boolean"))])),
            ],
            required: [
                "schema_version", "first_day", "last_day", "days", "exports", "time_zone_periods", "metrics", "sources",
                "source_names_shown",
            ])
        let metricNames = columnNames(.daily).filter { name in
            ReportTableID.daily.schema.columns.first { $0.name == name }.map(isMetric) ?? false
        }
        let compareInput = Self.schemaObject(
            [
                ("from", Self.date("First day of the window.")), ("to", Self.date("Last day of the window.")),
                ("baseline_from", Self.date("First day of the window to compare against.")),
                ("baseline_to", Self.date("Last day of the window to compare against.")),
                (
                    "columns",
                    .object([
                        ("type", .string("array")),
                        (
                            "items",
                            .object([("type", .string("string")), ("enum", .array(metricNames.map(JSON.string)))])
                        ),
                        ("description", .string("Only these daily.csv metrics. Default: all.")),
                    ])
                ),
            ], required: ["from", "to", "baseline_from", "baseline_to"])
        let window = Self.schemaObject(
            [
                ("from", .object([("type", .string("string"))])), ("to", .object([("type", .string("string"))])),
                ("days", .object([("type", .string("integer"))])),
            ], required: ["from", "to", "days"])
        let nullableNumber: JSON = .object([("type", .array([.string("number"), .string("null")]))])
        let metric = Self.schemaObject(
            [
                ("metric", .object([("type", .string("string"))])), ("mean", nullableNumber),
                ("days_with_data", .object([("type", .string("integer"))])), ("baseline_mean", nullableNumber),
                ("baseline_days_with_data", .object([("type", .string("integer"))])), ("change", nullableNumber),
                ("change_pct", nullableNumber),
            ],
            required: [
                "metric", "mean", "days_with_data", "baseline_mean", "baseline_days_with_data", "change", "change_pct",
            ])
        let compareOutput = Self.schemaObject(
            [
                ("window", window), ("baseline", window),
                ("metrics", .object([("type", .string("array")), ("items", metric)])),
            ], required: ["window", "baseline", "metrics"])
        let queryInput = Self.schemaObject(
            [
                (
                    "sql",
                    .object([
                        ("type", .string("string")),
                        (
                            "description",
                            .string(
                                "One SELECT over the archive's tables and views (resource archive/schema.sql,"
                                    + " docs/archive.md): e.g. SELECT date, steps FROM daily_results."
                                    + " Instants are UTC seconds (*_utc).")
                        ),
                    ])
                )
            ], required: ["sql"])
        let queryOutput = Self.schemaObject(
            [
                ("columns", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
                ("rows", Self.cells),
                ("row_count", .object([("type", .string("integer")), ("minimum", .int(0))])),
                ("truncated", .object([("type", .string("boolean"))])),
            ], required: ["columns", "rows", "row_count", "truncated"])
        return [
            tool(
                "summary", "What the archive holds",
                "The archive's period, its exports and their dates, the time-zone periods of the person's local days,"
                    + " which daily.csv metrics have data and on how many days, the sources by kind (watch, phone,"
                    + " manual, other), and the archive's schema version. Call it first.",
                input: Self.schemaObject([]), output: summaryOutput),
            tableTool(.daily, "one row per local day: steps, distance, energy, rings, heart rate, sleep, workouts"),
            tableTool(.weekly, "one row per week (ISO 8601, Monday first): totals, averages, ring-closed days"),
            tableTool(.monthly, "one row per calendar month"),
            tableTool(.sleep, "one row per night, by wake-up date, and per day with naps"),
            tableTool(.workouts, "one row per workout, duplicates from a second source marked counted=false"),
            tool(
                "compare", "Two windows side by side",
                "Per daily.csv metric: the mean per day with data in the window from..to and in the baseline window,"
                    + " the days with data in each, and the change (absolute and percent of the baseline); e.g. this"
                    + " month against the same month last year.",
                input: compareInput, output: compareOutput),
            tool(
                "query", "One read-only SQL SELECT",
                "Runs one SELECT over the archive (SQLite) and returns at most \(Self.maximumQueryRows) rows; it is"
                    + " stopped after \(Int(Self.queryTimeLimitSeconds)) s. Anything else (writes, PRAGMA, ATTACH,"
                    + " several statements) is refused. The raw records are not de-duplicated: prefer daily and"
                    + " the other tools for totals."
                    + (options.showSourceNames ? "" : " Source and device names read as NULL."),
                input: queryInput, output: queryOutput),
        ]
    }

    // MARK: Resources

    static let archiveSchemaURI = "health-analyzer://archive/schema.sql"
    static let reportSchemaURI = "health-analyzer://report/schema.sql"
    static func docURI(_ name: String) -> String { "health-analyzer://docs/" + name }

    public var resources: [JSON] {
        var out: [JSON] = [
            .object([
                ("uri", .string(Self.archiveSchemaURI)), ("name", .string("archive/schema.sql")),
                ("title", .string("The archive's SQL schema")),
                (
                    "description",
                    .string("The CREATE statements of this archive's tables and views, as the query tool sees them.")
                ),
                ("mimeType", .string("application/sql")),
            ]),
            .object([
                ("uri", .string(Self.reportSchemaURI)), ("name", .string("report/schema.sql")),
                ("title", .string("The report tables, typed")),
                (
                    "description",
                    .string("The typed columns of daily.csv, weekly.csv, monthly.csv, sleep.csv and workouts.csv.")
                ),
                ("mimeType", .string("application/sql")),
            ]),
        ]
        for page in EmbeddedDocs.pages {
            out.append(
                .object([
                    ("uri", .string(Self.docURI(page.name))), ("name", .string("docs/" + page.name)),
                    ("title", .string(Self.title(of: page.text) ?? page.name)),
                    ("mimeType", .string("text/markdown")),
                    ("size", .int(page.text.utf8.count)),
                ]))
        }
        return out
    }

    /// A page's first `# ` heading.
    static func title(of markdown: String) -> String? {
        for line in markdown.split(separator: "\n", maxSplits: 20) where line.hasPrefix("# ") {
            return String(line.dropFirst(2))
        }
        return nil
    }

    public func readResource(_ uri: String) -> JSON? {
        func contents(_ text: String, _ mime: String) -> JSON {
            .object([("uri", .string(uri)), ("mimeType", .string(mime)), ("text", .string(text))])
        }
        switch uri {
        case Self.archiveSchemaURI:
            guard
                let result = try? archive.query(
                    "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
                    maxRows: 10_000, seconds: 10, showSourceNames: false)
            else { return nil }
            let statements = result.rows.compactMap { row -> String? in
                if case .text(let s) = row.first { return s + ";\n" }
                return nil
            }
            return contents(statements.joined(separator: "\n"), "application/sql")
        case Self.reportSchemaURI:
            return contents(ReportWriter().schemaSQL(), "application/sql")
        default:
            guard let page = EmbeddedDocs.pages.first(where: { Self.docURI($0.name) == uri }) else { return nil }
            return contents(page.text, "text/markdown")
        }
    }

    /// The compiled-in pages and the report's schema change only with the binary: public, an
    /// hour. The archive's schema is this person's archive and changes when an import upgrades
    /// it: private, read again each time.
    public func cacheHint(forResource uri: String) -> CacheHint {
        uri == Self.archiveSchemaURI
            ? .uncached : CacheHint(milliseconds: MCPServer.listTTLMilliseconds, isPublic: true)
    }
}

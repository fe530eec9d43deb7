import HealthTables

/// `people.csv`: one row per person of the output folder, from their status record
/// (`PersonStatus`): the outcome of their last run, its message, and what the report in their
/// folder was made from. The only cohort file that names exports. No wall time (a person's
/// `seconds` stay in their status record): the same results give the same bytes.
enum CohortPeople {
    /// The table's columns, declared once (the CSV header and `schema.sql` come from it).
    static let schema = TableSchema(
        name: "people", fileName: "people.csv",
        columns: [
            ColumnSchema(name: "person", kind: .text),
            ColumnSchema(name: "outcome", kind: .text),
            ColumnSchema(name: "message", kind: .text),
            ColumnSchema(name: "export", kind: .text),
            ColumnSchema(name: "export_date", kind: .text),
            ColumnSchema(name: "first_day", kind: .date),
            ColumnSchema(name: "last_day", kind: .date),
            ColumnSchema(name: "days_with_data", kind: .integer),
            ColumnSchema(name: "records", kind: .integer),
            ColumnSchema(name: "tool_version", kind: .text),
        ])

    /// The row of one person (a folder without a status record has outcome `unknown`; a listed
    /// person without folder or record, `missing`). A person whose files do not read back as
    /// their tables (`unreadable`, the reason) is `failed`.
    static func row(_ id: String, _ status: PersonStatus?, unreadable: String? = nil, missing: Bool = false)
        -> [String]
    {
        let report = status?.report
        let outcome =
            missing
            ? "missing"
            : unreadable != nil ? PersonStatus.Outcome.failed.rawValue : status?.outcome.rawValue ?? "unknown"
        let fields: [String?] = [
            id, outcome, unreadable ?? status?.message,
            report?.export ?? status?.fingerprint?.export ?? status?.export,
            report?.exportDate, report?.firstDay, report?.lastDay, report.map { String($0.daysWithData) },
            report.map { String($0.records) }, status?.toolVersion,
        ]
        return fields.map { $0 ?? "" }
    }

    static func csv(_ people: [(id: String, status: PersonStatus?, unreadable: String?, missing: Bool)]) -> String {
        var text = CSV.line(schema.header)
        for person in people {
            text += CSV.line(row(person.id, person.status, unreadable: person.unreadable, missing: person.missing))
        }
        return text
    }
}

import HealthReports

// The cohort's long tables: each is `person` followed by the non-identifying columns of the
// person table of the same name, taken from that table's one declaration
// (`ReportWriter.tableSchemas`), so that a column added to a report appears here, typed, with
// nothing written twice. Columns that can name a person (source and device names) are left out.

/// The cohort tables and how their rows are read back from the person folders.
public enum CohortTables {
    /// The person tables that have a cohort table, by SQL name.
    public static let personTables = ["daily", "weekly", "monthly", "sleep", "workouts"]

    /// The `person` column that starts every cohort table.
    public static let personColumn = ColumnSchema(name: "person", kind: .text)

    /// The long tables' schemas: `person` + the person table's non-identifying columns.
    public static var schemas: [TableSchema] {
        personTables.compactMap { name in
            guard let table = ReportWriter.tableSchemas.first(where: { $0.name == name }) else { return nil }
            return TableSchema(
                name: table.name, fileName: table.fileName,
                columns: [personColumn] + table.columns.filter { !$0.identifying })
        }
    }

    /// The cohort table `schema`'s text from the person folders `folders` (id, folder), in the
    /// order given (by id): each person's rows in their file's order (by date), `person` first.
    /// A column missing from a person's file (a report of an older version) is empty; a person
    /// without the file adds no rows.
    static func csv(_ schema: TableSchema, people folders: [(id: String, folder: String)]) -> String {
        var text = CSV.line(schema.header)
        for (id, folder) in folders {
            guard let fileText = try? BatchPlatform.readText(BatchPlatform.join(folder, schema.fileName)) else {
                continue
            }
            let rows = CSV.parse(fileText)
            guard let header = rows.first else { continue }
            var position: [String: Int] = [:]
            for (i, name) in header.enumerated() where position[name] == nil { position[name] = i }
            let sources = schema.columns.dropFirst().map { position[$0.name] }
            for row in rows.dropFirst() {
                text += CSV.line([id] + sources.map { i in i.flatMap { $0 < row.count ? row[$0] : nil } ?? "" })
            }
        }
        return text
    }
}

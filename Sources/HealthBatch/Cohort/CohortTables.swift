import HealthAnalysis
import HealthTables

// The cohort's long tables: each is `person` followed by the non-identifying columns of the
// person table of the same name, taken from that table's one declaration (`ReportTableID`), so
// that a column added to a report appears here, typed, with nothing written twice. Columns that
// can name a person (source and device names) are left out. Each person's files are read back as
// their declared tables (`TableSchema.rows(fromCSV:)`): a file that does not read back makes the
// person failed, and none of their rows is copied.

/// The cohort tables and how their rows are read back from the person folders.
public enum CohortTables {
    /// The person tables that have a cohort table.
    public static let personTables: [ReportTableID] = [.daily, .weekly, .monthly, .sleep, .workouts]

    /// The `person` column that starts every cohort table.
    public static let personColumn = ColumnSchema(name: "person", kind: .text)

    /// The long tables' schemas: `person` + the person table's non-identifying columns.
    public static var schemas: [TableSchema] {
        personTables.map { table in
            let schema = table.schema
            return TableSchema(
                name: schema.name, fileName: schema.fileName,
                columns: [personColumn] + schema.columns.filter { !$0.identifying })
        }
    }

    /// One person's tables as read back from their folder: typed cells by table (a missing file
    /// is no rows, as a report of an older version may lack one).
    struct PersonFiles {
        var id: String
        var tables: [ReportTableID: [[TableCell]]] = [:]

        /// Reads the person tables in `folder`.
        /// - Throws: `TableReadError` for the first file that does not read back as its table.
        init(id: String, folder: String) throws(TableReadError) {
            self.id = id
            for table in CohortTables.personTables {
                guard let text = try? BatchPlatform.readText(BatchPlatform.join(folder, table.schema.fileName)) else {
                    continue
                }
                tables[table] = try table.schema.rows(fromCSV: text)
            }
        }

        /// The rows of `daily.csv`, typed (empty without the file).
        var days: [DailyMetrics] { ReportTables.daily.values(fromCells: tables[.daily] ?? []) }
        /// The rows of `sleep.csv`, typed.
        var nights: [SleepNight] { ReportTables.sleep.values(fromCells: tables[.sleep] ?? []) }
    }

    /// The cohort table of `table`'s text from `people` (in the order given, by id): each
    /// person's rows in their file's order (by date), `person` first, the identifying columns left
    /// out.
    static func csv(_ table: ReportTableID, people: [PersonFiles]) -> String {
        let columns = table.schema.columns
        let kept = columns.indices.filter { !columns[$0].identifying }
        var text = CSV.line([personColumn.name] + kept.map { columns[$0].name })
        for person in people {
            for row in person.tables[table] ?? [] {
                text += CSV.line([person.id] + kept.map { row[$0].csvText(columns[$0].kind) })
            }
        }
        return text
    }
}

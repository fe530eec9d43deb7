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

        /// Reads the person tables in `<output>/person=<id>/`, each file opened without following
        /// a link (docs/batch.md §6).
        /// - Throws: `Unreadable` naming the first file that cannot be read (a link, a FIFO) or
        ///   does not read back as its table (`TableReadError`).
        init(id: String, output: String) throws(Unreadable) {
            self.id = id
            for table in CohortTables.personTables {
                let text: String
                do {
                    text = try BatchPlatform.readOwnedText(["person=" + id, table.schema.fileName], in: output)
                } catch {
                    if error.code == BatchPlatform.Failure.missingCode && !error.link && !error.notRegular { continue }
                    throw Unreadable(description: "\(table.schema.fileName): \(error.text)")
                }
                do { tables[table] = try table.schema.rows(fromCSV: text) } catch {
                    throw Unreadable(description: error.description)
                }
            }
        }

        /// The rows of `daily.csv`, typed (empty without the file).
        var days: [DailyMetrics] { ReportTables.daily.values(fromCells: tables[.daily] ?? []) }
        /// The rows of `sleep.csv`, typed.
        var nights: [SleepNight] { ReportTables.sleep.values(fromCells: tables[.sleep] ?? []) }
    }

    /// Why a person's file cannot be taken: the file, then the reason.
    struct Unreadable: Error {
        var description: String
    }

    /// The header line of `table`'s cohort table: `person`, then the non-identifying columns.
    static func header(_ table: ReportTableID) -> String {
        CSV.line([personColumn.name] + table.schema.columns.filter { !$0.identifying }.map(\.name))
    }

    /// One person's lines of `table`'s cohort table: their rows in their file's order (by date),
    /// `person` first, the identifying columns left out; "" without rows.
    static func lines(_ table: ReportTableID, of person: PersonFiles) -> String {
        let columns = table.schema.columns
        let kept = columns.indices.filter { !columns[$0].identifying }
        let kinds = kept.map { columns[$0].kind }
        let id = CSV.escape(person.id)
        var text = ""
        for row in person.tables[table] ?? [] {
            // CSV.line's output, built in place (this runs for every cell of the cohort).
            text += id
            for (k, i) in kept.enumerated() {
                text += ","
                text += CSV.escape(row[i].csvText(kinds[k]))
            }
            text += CSV.lineEnding
        }
        return text
    }
}

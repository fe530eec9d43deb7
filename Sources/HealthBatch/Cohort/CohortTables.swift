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

    /// One person's tables as read back from their folder: each table's cohort lines, and the
    /// typed cells of the tables report.md's means read (`typedTables`). A missing file is no
    /// rows, as a report of an older version may lack one.
    struct PersonFiles {
        var id: String
        /// The cohort lines of each table (`lines`), UTF-8.
        var lines: [ReportTableID: [UInt8]] = [:]
        /// The typed cells of `typedTables`, as `TableSchema.rows(fromCSV:)` reads them.
        var tables: [ReportTableID: [[TableCell]]] = [:]

        /// The tables read back into rows for report.md's means (`days`, `nights`).
        static let typedTables: Set<ReportTableID> = [.daily, .sleep]

        /// Reads the person tables in `<output>/person=<id>/`, each file opened without following
        /// a link (docs/batch.md §6), and writes their cohort lines (`TableSchema.csvLines`).
        /// - Throws: `Unreadable` naming the first file that cannot be read (a link, a FIFO) or
        ///   does not read back as its table (`TableReadError`).
        init(id: String, output: String) throws(Unreadable) {
            self.id = id
            let prefix = CSV.escape(id)
            let folder: BatchPlatform.OwnedFolder?
            do { folder = try BatchPlatform.OwnedFolder(["person=" + id], in: output) } catch {
                guard error.code == BatchPlatform.Failure.missingCode && !error.link else {
                    throw Unreadable(description: "\(CohortTables.personTables[0].schema.fileName): \(error.text)")
                }
                folder = nil  // gone since the plan was made: no rows
            }
            guard let folder else { return }
            for table in CohortTables.personTables {
                let schema = table.schema
                let text: String
                do { text = try folder.readText(schema.fileName) } catch {
                    if error.code == BatchPlatform.Failure.missingCode && !error.link && !error.notRegular { continue }
                    throw Unreadable(description: "\(schema.fileName): \(error.text)")
                }
                let typed = Self.typedTables.contains(table)
                do {
                    let read = try schema.csvLines(
                        fromCSV: text, prefix: prefix,
                        kept: schema.columns.indices.filter { !schema.columns[$0].identifying },
                        typed: typed)
                    lines[table] = read.lines
                    if typed { tables[table] = read.rows }
                } catch {
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
        person.lines[table].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

import HealthTables

/// `health-analyzer cohort <dir>`: the people of a batch's output folder side by side, in
/// `<dir>/cohort/`:
///
/// - `daily.csv`, `weekly.csv`, `monthly.csv`, `sleep.csv`, `workouts.csv`: long form, `person`
///   first, rows by person (UTF-8 byte order of the ids) then by date, the columns of the person
///   tables without those that can name a person (`CohortTables`);
/// - `people.csv`: one row per person (`CohortPeople`), the only file naming exports;
/// - `schema.sql`, `load-duckdb.sql`, `load-sqlite.sql` (`CohortSQL`);
/// - `report.md` with `chart_spread.svg` (`CohortReport`).
///
/// The people are those the batches' listings name (`BatchListing`, docs/batch.md §5): one
/// listed without a result is a row `missing` in `people.csv` (the cohort is then incomplete);
/// a folder or status record of a person no listing names is left out of every table and
/// named in `report.md` as excluded. Without any listing, the people are those with a status
/// record (`.status/<id>.json`) or a `person=<id>` folder.
/// Nothing from `Me` is ever read, and no source or device name is copied. The bytes are a
/// function of the person folders and status records only: rerunning gives the same files.
/// The folder is written as one set, like a report's `--out`.
public enum Cohort {
    /// The files of the cohort folder, in the order written.
    public static let fileNames =
        CohortTables.schemas.map(\.fileName) + [
            CohortPeople.schema.fileName, "schema.sql", "load-duckdb.sql", "load-sqlite.sql", "report.md",
            CohortReport.chartFile,
        ]

    /// The cohort folder of `output`.
    public static func folder(in output: String) -> String { BatchPlatform.join(output, "cohort") }

    /// What `write` did.
    public struct Written: Sendable {
        /// The paths written.
        public var paths: [String]
        /// Listed people without a result (`missing` in people.csv), by id.
        public var missing: [String]
        /// People with a folder or status record whom no listing names, by id.
        public var excluded: [String]
    }

    /// Writes `<output>/cohort/`.
    /// - Throws: `BatchError` when `output` cannot be read; `ReportError` when the folder
    ///   cannot be written (it is then as it was).
    @discardableResult
    public static func write(_ output: String) throws -> Written {
        guard BatchPlatform.kind(of: output) == .directory else {
            throw BatchError(description: "\(output): not a folder (expected the --out folder of a batch)")
        }
        var people = People()
        let files = try texts(output, people: &people)
        let names = Set(fileNames)
        let paths = try FileSetWriter(owns: { names.contains($0) }).write(files, to: folder(in: output))
        return Written(paths: paths, missing: people.missing, excluded: people.excluded)
    }

    /// Who is in the cohort, who is missing, who is excluded.
    struct People {
        var missing: [String] = []
        var excluded: [String] = []
    }

    /// The cohort files' names and texts for `output`, without writing them.
    public static func texts(_ output: String) throws -> [(name: String, text: String)] {
        var people = People()
        return try texts(output, people: &people)
    }

    static func texts(_ output: String, people who: inout People) throws -> [(name: String, text: String)] {
        let entries: [BatchPlatform.Entry]
        do { entries = try BatchPlatform.entries(of: output) } catch {
            throw BatchError(description: "\(output): cannot read the folder: \(error.text)")
        }
        let folderIDs = entries.filter { $0.isDirectory && $0.name.hasPrefix("person=") }.map {
            String($0.name.dropFirst("person=".count))
        }.filter(PersonID.isValid)
        let statuses = PersonStatus.all(in: output)
        var byID: [String: PersonStatus] = [:]
        for status in statuses { byID[status.id] = status }
        let found = Set(folderIDs).union(byID.keys)
        let listed = BatchListing.people(in: output)
        let ids = (listed ?? found).sorted(by: utf8Order)
        let withFolder = Set(folderIDs)
        who.excluded = listed.map { found.subtracting($0).sorted(by: utf8Order) } ?? []
        who.missing = ids.filter { !found.contains($0) }
        let missing = Set(who.missing)
        // Each person's files read back as their declared tables; one that does not read back
        // makes the person failed (its reason in people.csv) and adds no rows anywhere.
        var read: [CohortTables.PersonFiles] = []
        var unreadable: [String: String] = [:]
        for id in ids where withFolder.contains(id) {
            do throws(TableReadError) {
                read.append(try CohortTables.PersonFiles(id: id, folder: Batch.personFolder(id, in: output)))
            } catch {
                unreadable[id] = "person=\(id)/\(error.description)"
            }
        }
        var files: [(name: String, text: String)] = CohortTables.personTables.map {
            (name: $0.schema.fileName, text: CohortTables.csv($0, people: read))
        }
        files.append(
            (
                name: CohortPeople.schema.fileName,
                text: CohortPeople.csv(
                    ids.map { (id: $0, status: byID[$0], unreadable: unreadable[$0], missing: missing.contains($0)) })
            ))
        files.append((name: "schema.sql", text: CohortSQL.schema()))
        files.append((name: "load-duckdb.sql", text: CohortSQL.loadDuckDB()))
        files.append((name: "load-sqlite.sql", text: CohortSQL.loadSQLite()))
        let measures = Dictionary(
            uniqueKeysWithValues: read.map { ($0.id, PersonMeasures(days: $0.days, nights: $0.nights)) })
        let people = ids.map { id in
            CohortReport.Person(
                id: id, status: byID[id], unreadable: unreadable[id], measures: measures[id],
                missing: missing.contains(id))
        }
        files.append((name: "report.md", text: CohortReport.markdown(people, excluded: who.excluded)))
        files.append((name: CohortReport.chartFile, text: CohortReport.chart(people)))
        return files
    }
}

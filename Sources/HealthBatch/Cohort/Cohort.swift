import HealthExport
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
///
/// Streaming (docs/batch.md §7): the people are read and parsed in windows of a few dozen, on
/// `threads` threads, and their rows appended to the tables in id order, so memory holds a
/// window of people and a small summary per person (status record and means for report.md),
/// never a whole table. The folder is written as one set, like a report's `--out`, and the
/// cohort owns its contents: files in it that are not cohort files are not kept, a folder in
/// it stops the write with a message. A stamp of the inputs (`<dir>/.cohort.inputs`) lets an
/// unchanged cohort be left as it is after a look at each input's inode, size and time.
public enum Cohort {
    /// The files of the cohort folder, in the order written.
    public static let fileNames =
        CohortTables.schemas.map(\.fileName) + [
            CohortPeople.schema.fileName, "schema.sql", "load-duckdb.sql", "load-sqlite.sql", "report.md",
            CohortReport.chartFile,
        ]

    /// The cohort folder of `output`.
    public static func folder(in output: String) -> String { BatchPlatform.join(output, "cohort") }

    /// The stamp file's name in the output folder: the inputs and the cohort folder as last written.
    static let stampName = ".cohort.inputs"

    /// What `write` did.
    public struct Written: Sendable {
        /// The paths written (or, when unchanged, there).
        public var paths: [String]
        /// Listed people without a result (`missing` in people.csv), by id.
        public var missing: [String]
        /// People with a folder or status record whom no listing names, by id.
        public var excluded: [String]
        /// True when no input changed since the last cohort, which was left as it was.
        public var unchanged = false
    }

    /// Writes `<output>/cohort/`, unless no input changed since it was last written
    /// (`Written.unchanged`).
    /// - Parameters:
    ///   - threads: threads that read and parse the person files.
    ///   - toolVersion: part of the stamp: another version rewrites the cohort.
    /// - Throws: `BatchError` when `output` cannot be read, a name the tool owns in it is a
    ///   link, or a folder is in the cohort folder; `ReportError` when the folder cannot be
    ///   written (it is then as it was).
    @discardableResult
    public static func write(_ output: String, threads: Int = ExportReader.availableCores, toolVersion: String = "")
        throws -> Written
    {
        let plan = try Plan(output)
        let folder = folder(in: output)
        let paths = fileNames.map { BatchPlatform.join(folder, $0) }
        let inputs = plan.stamp(toolVersion: toolVersion)
        let stampFile = [stampName]
        if let earlier = try? BatchPlatform.readOwnedText(stampFile, in: output),
            earlier == inputs + cohortStamp(output)
        {
            return Written(paths: paths, missing: plan.missing, excluded: plan.excluded, unchanged: true)
        }
        // A cohort written from here on is not the one the stamp describes, whatever happens.
        BatchPlatform.removeOwnedFile(stampFile, in: output)
        do throws(ReportError) { try writeFolder(plan, threads: threads, to: folder) } catch {
            if case .folderInTheWay(let path) = error {
                throw BatchError(
                    description: "\(path): a folder inside the cohort folder; cohort owns that folder and rewrites it "
                        + "as a whole: move it out (keep DuckDB and Parquet files beside cohort/, docs/batch.md)")
            }
            throw error
        }
        try? BatchPlatform.writeOwnedAtomically(inputs + cohortStamp(output), stampFile, in: output)
        return Written(paths: paths, missing: plan.missing, excluded: plan.excluded)
    }

    /// Streams the cohort into `folder` as one set that owns every file of the folder.
    private static func writeFolder(_ plan: Plan, threads: Int, to folder: String) throws(ReportError) {
        try FileSetWriter(owns: { _ in true }).write(names: fileNames, to: folder) {
            (staging: String) throws(ReportError) in
            try stream(plan, threads: threads) { (name: String) throws(ReportError) -> BatchPlatform.FileSink in
                do throws(BatchPlatform.Failure) {
                    return try BatchPlatform.FileSink(BatchPlatform.join(staging, name))
                } catch {
                    throw .cannotWriteFile(path: BatchPlatform.join(folder, name), .init(rawValue: error.code))
                }
            }
        }
    }

    /// The cohort files' names and texts for `output`, without writing them (in memory: for
    /// tests over a few people).
    public static func texts(_ output: String) throws -> [(name: String, text: String)] {
        let plan = try Plan(output)
        var sinks: [String: BatchPlatform.FileSink] = [:]
        try stream(plan, threads: 1) { name throws(ReportError) in
            let sink = try! BatchPlatform.FileSink(nil)
            sinks[name] = sink
            return sink
        }
        return fileNames.map { (name: $0, text: sinks[$0]?.text ?? "") }
    }

    /// The stamp of the cohort folder as it is: its identity and each file's.
    private static func cohortStamp(_ output: String) -> String {
        guard let cohort = try? BatchPlatform.OwnedFolder(["cohort"], in: output),
            let names = try? cohort.names()
        else { return "no cohort\n" }
        var text = "cohort \(cohort.stamp())\n"
        for name in names.sorted(by: utf8Order) { text += "\(name) \(cohort.stamp(name))\n" }
        return text
    }

    /// Who is in the cohort, from the output folder's names, status records and listings.
    struct Plan {
        var output: String
        /// The cohort's people, in id order (listed, or found without listings).
        var ids: [String]
        /// People with a `person=<id>` folder.
        var withFolder: Set<String>
        var missing: [String]
        var excluded: [String]
        /// The ids with a status record file.
        var withStatus: Set<String>

        init(_ output: String) throws {
            self.output = output
            guard BatchPlatform.kind(of: output) == .directory else {
                throw BatchError(description: "\(output): not a folder (expected the --out folder of a batch)")
            }
            let names: [String]
            do { names = try BatchPlatform.ownedNames([], in: output) } catch {
                throw BatchError(description: "\(output): cannot read the folder: \(error.text)")
            }
            // Links at the tool's own names are refused, never followed (docs/batch.md §6).
            try Batch.refuseOwnedLinks(in: output)
            // One descriptor of the output folder for every person's look (fstatat, no open each).
            let top = try? BatchPlatform.OwnedFolder([], in: output)
            let folderIDs = names.filter {
                $0.hasPrefix("person=") && top?.kind($0) == .directory
            }.map { String($0.dropFirst("person=".count)) }.filter(PersonID.isValid)
            withFolder = Set(folderIDs)
            withStatus = Set(
                ((try? BatchPlatform.ownedNames([".status"], in: output)) ?? []).filter {
                    $0.hasSuffix(".json") && !$0.hasPrefix(".")
                }.map { String($0.dropLast(5)) }.filter(PersonID.isValid))
            let found = withFolder.union(withStatus)
            let listed = BatchListing.people(in: output)
            ids = (listed ?? found).sorted(by: utf8Order)
            excluded = listed.map { found.subtracting($0).sorted(by: utf8Order) } ?? []
            missing = ids.filter { !found.contains($0) }
        }

        /// The inputs' stamp: the tool version, the listings, and for every person found or
        /// listed, their folder, its table files and their status record, each by inode, size
        /// and time (`OwnedFolder.stamp`). A person's folder replaced, a file rewritten, a
        /// record written, a listing changed: another stamp.
        ///
        /// Every look is one `fstatat` relative to the output folder's descriptor, the files as
        /// `person=<id>/<file>` (docs/batch.md §7): 7 per person, and no folder opened. The
        /// person folder was found a folder, not a link (`init`); were it swapped for a link
        /// since, its own stamp (not followed) changes, and the cohort that follows reads
        /// nothing through it (`PersonFiles`).
        func stamp(toolVersion: String) -> String {
            var hash = Stamp()
            hash.add("cohort inputs 1\n\(toolVersion)\n")
            let top = try? BatchPlatform.OwnedFolder([], in: output)
            let status = try? BatchPlatform.OwnedFolder([".status"], in: output)
            if let listings = try? BatchPlatform.OwnedFolder([".listings"], in: output) {
                for name in ((try? listings.names()) ?? []).sorted(by: utf8Order) {
                    hash.add("listing \(name) \(listings.stamp(name))\n")
                }
            }
            for id in Set(ids).union(excluded).sorted(by: utf8Order) {
                hash.add("person \(id) \(status?.stamp(id + ".json") ?? "-")")
                if withFolder.contains(id), let top {
                    let folder = "person=" + id
                    hash.add(" \(top.stamp(folder))")
                    for name in Cohort.tableFiles { hash.add(" \(top.stamp(folder + "/" + name))") }
                }
                hash.add("\n")
            }
            return "# inputs of cohort/ as last written (health-analyzer cohort; docs/batch.md §7)\n"
                + "inputs \(String(hash.value, radix: 16))\n"
        }
    }

    /// The person tables' file names.
    static let tableFiles = CohortTables.personTables.map(\.schema.fileName)

    /// FNV-1a 64 over text, as `Shard.hash`, fed in pieces.
    struct Stamp {
        var value: UInt64 = 14_695_981_039_346_656_037
        mutating func add(_ text: String) {
            for byte in text.utf8 {
                value ^= UInt64(byte)
                value = value &* 1_099_511_628_211
            }
        }
    }

    /// One person's part of the cohort, made on a reading thread.
    struct PersonPart: Sendable {
        /// Lines of each long table (`CohortTables.personTables` order).
        var tables: [String]
        var summary: CohortReport.Person
    }

    /// How many people are read ahead of the one being appended, per thread.
    static let windowPerThread = 16

    /// Writes every cohort file into sinks `open` makes: the long tables and people.csv person
    /// by person, in windows read and parsed on `threads` threads, then the small files.
    static func stream(
        _ plan: Plan, threads: Int, open: (String) throws(ReportError) -> BatchPlatform.FileSink
    ) throws(ReportError) {
        var sinks: [BatchPlatform.FileSink] = []
        for name in CohortTables.schemas.map(\.fileName) + [CohortPeople.schema.fileName] {
            sinks.append(try open(name))
        }
        func append(_ sink: BatchPlatform.FileSink, _ text: String) throws(ReportError) {
            do throws(BatchPlatform.Failure) { try sink.append(text) } catch {
                throw .cannotWriteFile(path: sink.path, .init(rawValue: error.code))
            }
        }
        for (k, table) in CohortTables.personTables.enumerated() { try append(sinks[k], CohortTables.header(table)) }
        let peopleSink = sinks[CohortTables.personTables.count]
        try append(peopleSink, CSV.line(CohortPeople.schema.header))
        var people: [CohortReport.Person] = []
        people.reserveCapacity(plan.ids.count)
        let window = max(1, threads) * windowPerThread
        let missing = Set(plan.missing)
        var start = 0
        while start < plan.ids.count {
            let ids = Array(plan.ids[start..<min(start + window, plan.ids.count)])
            start += ids.count
            let parts = JobPool.map(count: ids.count, order: Array(ids.indices), jobs: threads) { i in
                person(ids[i], plan: plan, missing: missing.contains(ids[i]))
            }
            for part in parts {
                for (k, text) in part.tables.enumerated() where !text.isEmpty { try append(sinks[k], text) }
                let p = part.summary
                try append(
                    peopleSink,
                    CSV.line(CohortPeople.row(p.id, p.status, unreadable: p.unreadable, missing: p.missing)))
                people.append(part.summary)
            }
        }
        var small: [(String, String)] = [
            ("schema.sql", CohortSQL.schema()), ("load-duckdb.sql", CohortSQL.loadDuckDB()),
            ("load-sqlite.sql", CohortSQL.loadSQLite()),
            ("report.md", CohortReport.markdown(people, excluded: plan.excluded)),
        ]
        small.append((CohortReport.chartFile, CohortReport.chart(people)))
        for (name, text) in small {
            let sink = try open(name)
            try append(sink, text)
            sinks.append(sink)
        }
        for sink in sinks {
            do throws(BatchPlatform.Failure) { try sink.finish() } catch {
                throw .cannotWriteFile(path: sink.path, .init(rawValue: error.code))
            }
        }
    }

    /// One person read: their status record, their files read back as their tables (one that
    /// does not read back makes the person failed and adds no rows), their rows and means.
    static func person(_ id: String, plan: Plan, missing: Bool) -> PersonPart {
        let status = plan.withStatus.contains(id) ? PersonStatus.read(id, in: plan.output) : nil
        var summary = CohortReport.Person(id: id, status: status, missing: missing)
        var tables = [String](repeating: "", count: CohortTables.personTables.count)
        if plan.withFolder.contains(id) {
            do throws(CohortTables.Unreadable) {
                let files = try CohortTables.PersonFiles(id: id, output: plan.output)
                tables = CohortTables.personTables.map { CohortTables.lines($0, of: files) }
                summary.measures = PersonMeasures(days: files.days, nights: files.nights)
            } catch {
                summary.unreadable = "person=\(id)/\(error.description)"
            }
        }
        return PersonPart(tables: tables, summary: summary)
    }
}

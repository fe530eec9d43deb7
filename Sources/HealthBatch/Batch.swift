import HealthAnalysis
import HealthArchive
import HealthExport
import HealthTables

/// How one person of a batch ended.
public enum PersonOutcome: Equatable, Sendable {
    /// A new report is in `person=<id>/`.
    case done
    /// Export, options and tool version as at the last successful run: nothing was done.
    case unchanged
    /// The reason (one line); an earlier report of the person stays as it was.
    case failed(String)
}

/// One person's line of a batch run.
public struct PersonResult: Equatable, Sendable {
    public var id: String
    public var outcome: PersonOutcome
    /// Wall time of the person (0 for unchanged), seconds.
    public var seconds: Double
}

/// What a batch run did, by person in id order.
public struct BatchSummary: Equatable, Sendable {
    public var people: [PersonResult]
    /// What `--prune` removed (paths), in id order.
    public var pruned: [String] = []
    public var done: Int { people.filter { $0.outcome == .done }.count }
    public var unchanged: Int { people.filter { $0.outcome == .unchanged }.count }
    public var failed: Int { people.count - done - unchanged }

    /// `3 done, 1 unchanged, 1 failed`: the last line a batch prints.
    public var line: String { "\(grouped(done)) done, \(grouped(unchanged)) unchanged, \(grouped(failed)) failed" }
}

/// An error that stops a whole batch before any person is processed (the output folder, the
/// status folder or the archives folder cannot be made).
public struct BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

/// Many people's exports into one folder: `<out>/person=<id>/` holds exactly what
/// `report <export> --out <that folder>` writes, with the same all-or-nothing guarantee
/// (`ReportWriter`), and `<out>/.status/<id>.json` records each person's last run
/// (`PersonStatus`).
///
/// - A person whose export cannot be read fails alone: the reason goes into their status
///   record, an earlier report of theirs stays, the others go on.
/// - A person whose export, options and tool version are unchanged since their last
///   successful run is skipped (unless `force`).
/// - A kill at any instant leaves each person folder old or new: the folder is swapped in one
///   step, and the status record is written (atomically) only after the swap, so the next run
///   redoes a person whose record is older than their folder.
/// - `jobs` people run at once, each with `threadsPerJob` parser threads.
public struct Batch: Sendable {
    /// The output folder (`--out`).
    public var output: String
    public var options: BatchOptions
    /// Called at each step of a person's folder write (tests kill the process there).
    public var stepHook: (@Sendable (String, OutputStep) -> Void)?

    /// Writes each person's report folder (HealthReports' `ReportWriter`).
    public var renderer: any ReportRendering

    /// Told to stop by the CLI's signal thread (SIGTERM, SIGINT): see `BatchInterruption`.
    public var interruption: BatchInterruption?

    /// The manifest or folder the people came from: recorded as a listing (`BatchListing`)
    /// so that the cohort knows who belongs in it. Nil: nothing recorded.
    public var listing: String?

    public init(output: String, options: BatchOptions, renderer: any ReportRendering) {
        self.output = output
        self.options = options
        self.renderer = renderer
    }

    /// The person folder of `id`: `<output>/person=<id>`.
    public static func personFolder(_ id: String, in output: String) -> String {
        BatchPlatform.join(output, "person=" + id)
    }

    /// The people of `people` this batch takes: those of its shard (all without one).
    public func selected(_ people: [BatchPerson]) -> [BatchPerson] {
        guard let shard = options.shard else { return people }
        return people.filter { shard.contains($0.id) }
    }

    /// Runs every selected person of `people` (`selected(_:)`); `onPerson` is called as each
    /// ends (from the job's thread, one call at a time).
    /// - Returns: every selected person's result, in id order (UTF-8 bytes).
    /// - Throws: `BatchError` when the output, status or archives folder cannot be made, or
    ///   when another batch holds the folder's lock (`BatchLock`), or when a name the tool
    ///   owns in `output` is a symbolic link (docs/batch.md §6), before any person; a person's
    ///   own failure is never thrown.
    public func run(_ people: [BatchPerson], onPerson: @escaping @Sendable (PersonResult) -> Void = { _ in })
        throws(BatchError) -> BatchSummary
    {
        let everyone = people
        let people = selected(people).sorted { utf8Order($0.id, $1.id) }
        try Self.refuseOwnedLinks(in: output)
        try makeFolders()
        let lock = try BatchLock.acquire(in: output, shard: options.shard)
        interruption?.running(in: output, lock: lock)
        defer {
            interruption?.running(in: output, lock: nil)
            lock.release()
        }
        if let listing {
            do { try BatchListing.write(everyone, input: listing, in: output) } catch {
                throw BatchError(
                    description: "\(BatchListing.folder(in: output)): cannot record the people listed: \(error.text)")
            }
        }
        let pruned = options.prune ? prune() : []
        // The largest exports first, so that one long person does not start last.
        let sizes = people.map { Self.size(of: $0.export) }
        let order = people.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        let serial = Serial()
        let results = JobPool.map(count: people.count, order: order, jobs: options.jobs) { i in
            interruption?.step(OutputStep?.none)
            let result = runPerson(people[i])
            serial.run { onPerson(result) }
            return result
        }
        return BatchSummary(people: results, pruned: pruned)
    }

    /// Throws when a name the tool owns in `output` (a person folder, `cohort`, `.status`,
    /// `.listings`, a lock or staging name) is a symbolic link: nothing is written through it
    /// (docs/batch.md §6).
    static func refuseOwnedLinks(in output: String) throws(BatchError) {
        if let link = BatchPlatform.ownedLink(in: output) {
            throw BatchError(description: "\(link): \(BatchPlatform.Failure.symbolicLink.text)")
        }
    }

    /// `--prune`: removes the people of `output` that no listing names (docs/batch.md §5):
    /// their person folder, its lock file, their status record and, with `archives`, their
    /// archive. Only people of this batch's shard are touched.
    /// - Returns: the paths removed, by id.
    private func prune() -> [String] {
        guard let listed = BatchListing.people(in: output) else { return [] }
        let found =
            BatchPlatform.names(in: output).filter { $0.hasPrefix("person=") }.map { String($0.dropFirst(7)) }
            + ((try? BatchPlatform.ownedNames([".status"], in: output)) ?? []).filter {
                $0.hasSuffix(".json") && !$0.hasPrefix(".")
            }.map { String($0.dropLast(5)) }
        let gone = Set(found).filter { PersonID.isValid($0) && !listed.contains($0) }
            .filter { options.shard?.contains($0) ?? true }.sorted(by: utf8Order)
        var removed: [String] = []
        for id in gone {
            let folder = Self.personFolder(id, in: output)
            if BatchPlatform.ownedKind(["person=" + id], in: output) == .directory {
                BatchPlatform.removeFolderOfFiles(folder)
                removed.append(folder + "/")
            }
            BatchPlatform.removeOwnedFile([".person=\(id).lock"], in: output)
            let status = PersonStatus.path(of: id, in: output)
            // A link there is removed itself (`unlinkat`), never its target.
            let statusKind = BatchPlatform.ownedKind([".status", id + ".json"], in: output)
            if statusKind == .file || statusKind == .link {
                BatchPlatform.removeOwnedFile([".status", id + ".json"], in: output)
                removed.append(status)
            }
            if let archives = options.archives {
                let archive = archivePath(id, archives)
                if BatchPlatform.kind(of: archive) == .file {
                    for suffix in ["", "-wal", "-shm", "-journal"] { BatchPlatform.removeFile(archive + suffix) }
                    removed.append(archive)
                }
            }
        }
        return removed
    }

    /// The bytes of an export (of the XML file in an unzipped folder); 0 when unreadable.
    static func size(of export: String) -> Int64 {
        let file = BatchPlatform.kind(of: export) == .directory ? ExportReader.exportFile(inFolder: export) : export
        return file.flatMap { try? BatchPlatform.fileStatus($0).size } ?? 0
    }

    private func makeFolders() throws(BatchError) {
        for folder in [output] + [options.archives].compactMap({ $0 }) {
            do { try makeFolders(folder) } catch {
                throw BatchError(description: "\(folder): cannot create the folder: \(error.text)")
            }
        }
        // The status folder is the tool's own: never a link (docs/batch.md §6).
        do { try BatchPlatform.makeOwnedFolder(".status", in: output) } catch {
            let folder = PersonStatus.folder(in: output)
            throw BatchError(
                description: error.link
                    ? "\(folder): \(error.text)" : "\(folder): cannot create the folder: \(error.text)")
        }
    }

    /// `mkdir -p`.
    private func makeFolders(_ path: String) throws(BatchPlatform.Failure) {
        if BatchPlatform.kind(of: path) == .directory { return }
        let parent = BatchPlatform.parent(of: path)
        if !parent.isEmpty, parent != path { try makeFolders(parent) }
        try BatchPlatform.makeFolder(path)
    }

    /// One person: unchanged, done or failed; never throws.
    func runPerson(_ person: BatchPerson) -> PersonResult {
        let start = BatchPlatform.now()
        let earlier = PersonStatus.read(person.id, in: output)
        let folder = Self.personFolder(person.id, in: output)
        let folderKind = BatchPlatform.ownedKind(["person=" + person.id], in: output)
        func failed(_ message: String, _ fingerprint: ExportFingerprint?) -> PersonResult {
            let status = PersonStatus(
                id: person.id, export: person.export, outcome: .failed, message: message, fingerprint: fingerprint,
                options: options.fingerprint, toolVersion: options.toolVersion,
                report: folderKind == .directory ? earlier?.report : nil)
            var message = message
            do { try status.write(in: output) } catch {
                message += "; the status record could not be written: \(error.text)"
            }
            return PersonResult(id: person.id, outcome: .failed(message), seconds: BatchPlatform.now() - start)
        }
        // A link (or anything but a real folder) at the person's folder name is never written
        // through (docs/batch.md §6).
        if folderKind != .missing && folderKind != .directory {
            let what =
                folderKind == .link ? BatchPlatform.Failure.symbolicLink.text : "not a folder (remove it)"
            return failed("\(folder): \(what)", nil)
        }
        let fingerprint: ExportFingerprint
        do { fingerprint = try ExportFingerprint.of(person.export) } catch { return failed(error.description, nil) }
        if !options.force, let earlier, folderKind == .directory,
            earlier.isUnchanged(fingerprint, options: options.fingerprint, toolVersion: options.toolVersion)
        {
            return PersonResult(id: person.id, outcome: .unchanged, seconds: 0)
        }
        let run: ReportRun
        let records: Int
        do {
            (run, records) = try read(person)
        } catch {
            return failed("\(error)", fingerprint)
        }
        let steps = WriteSteps()
        var hook: (@Sendable (OutputStep) -> Void)?
        if stepHook != nil || interruption != nil {
            let testHook = stepHook
            let interruption = interruption
            let id = person.id
            hook = { @Sendable (step: OutputStep) in
                testHook?(id, step)
                steps.record(step)
                interruption?.step(step)
            }
        }
        do {
            defer { if steps.abandonedSwap { interruption?.swapAbandoned() } }
            try renderer.write(run, to: folder, threads: options.threadsPerJob, stepHook: hook)
        } catch {
            // Another batch is writing this person right now: its record is its own to write.
            if case .busy = error {
                return PersonResult(id: person.id, outcome: .failed("\(error)"), seconds: BatchPlatform.now() - start)
            }
            return failed("\(error)", fingerprint)
        }
        if let archives = options.archives {
            // As `report --db` does: the archive keeps the results beside the records.
            do {
                try Archive(path: archivePath(person.id, archives), create: false).storeResults(run)
            } catch {
                return failed("\(error)", fingerprint)
            }
        }
        let seconds = BatchPlatform.now() - start
        let status = PersonStatus(
            id: person.id, export: person.export, outcome: .done, message: "", fingerprint: fingerprint,
            options: options.fingerprint,
            toolVersion: options.toolVersion,
            report: PersonStatus.Report(
                export: fingerprint.export, exportDate: run.summary.exportDate?.description,
                firstDay: run.result.firstDay?.description, lastDay: run.result.lastDay?.description,
                daysWithData: ReportTables.daysWithData(run.result.days), records: records,
                seconds: (seconds * 10).rounded() / 10))
        // Only now, after the folder swap: a record never claims a report that is not there.
        do { try status.write(in: output) } catch {
            return PersonResult(
                id: person.id,
                outcome: .failed(
                    "the report was written, but its status record could not be: \(error.text) (it is redone next time)"
                ), seconds: seconds)
        }
        return PersonResult(id: person.id, outcome: .done, seconds: seconds)
    }

    /// The person's analysis: from the export, or through their archive with `archives`.
    private func read(_ person: BatchPerson) throws -> (ReportRun, Int) {
        let input = ExportInput.path(person.export)
        guard let archives = options.archives else {
            let run = try ReportPipeline.run(
                input, options: options.analysis, environmentTimeZone: options.environmentTimeZone,
                threads: options.threadsPerJob)
            return (run, run.summary.elementCounts["Record"] ?? 0)
        }
        let archive = try Archive(path: archivePath(person.id, archives))
        _ = try archive.importExport(input, threads: options.threadsPerJob)
        var records = 0
        let run = try ReportPipeline.run(
            reading: { consume in
                try archive.read { batch in
                    records += batch.records.count
                    try consume(batch)
                }
            }, options: options.analysis, environmentTimeZone: options.environmentTimeZone)
        return (run, records)
    }

    private func archivePath(_ id: String, _ archives: String) -> String {
        BatchPlatform.join(archives, id + ".sqlite")
    }
}

/// Which steps of one folder write were reached (for `BatchInterruption`'s count of swaps).
private final class WriteSteps: @unchecked Sendable {
    private var staged = false
    private var swapped = false

    func record(_ step: OutputStep) {
        if step == .allStaged { staged = true }
        if step == .swapped { swapped = true }
    }

    /// The write reached `allStaged` but not `swapped`.
    var abandonedSwap: Bool { staged && !swapped }
}

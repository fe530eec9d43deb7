/// Writes any set of text files into a folder with the guarantees of a report's `--out`
/// (`OutputFolder`): all or nothing, one writer at a time (a lock file beside the folder),
/// leftovers of killed runs removed, other files carried over. For outputs made of files
/// other than one person's report, such as a batch's cohort folder.
///
/// The folder's own name is the caller's (a name it owns inside an output folder, such as
/// `cohort`): a symbolic link there is refused (`ReportError.symbolicLink`), never followed,
/// and from the moment the write begins every name it uses (the folder, its staging and aside
/// names, the lock, each file) is used relative to an open folder's descriptor, never through
/// a link swapped in at it (docs/batch.md §6). The folder's parent, named by the user, may be
/// a link.
public struct FileSetWriter: Sendable {
    /// True for the names of the set (this run's and any earlier run's): such files of an
    /// earlier set are replaced or removed; other files in the folder are carried over.
    public var owns: @Sendable (String) -> Bool
    /// Called at each step of a write; for tests that stop the process there.
    public var stepHook: (@Sendable (OutputStep) -> Void)?

    public init(owns: @escaping @Sendable (String) -> Bool) {
        self.owns = owns
    }

    /// Writes `files` (name without `/`, UTF-8 text) into `directory` as one set, creating it
    /// and missing parents first.
    /// - Returns: The paths written, in the order given.
    /// - Throws: `ReportError`; `directory` is then as it was before the call.
    @discardableResult
    public func write(_ files: [(name: String, text: String)], to directory: String) throws(ReportError) -> [String] {
        let directory = directory.isEmpty ? "." : directory
        try OutputFolder(fileSystem: POSIXFileSystem(), stepHook: stepHook, followsLinkAtName: false).write(
            files, to: directory, owns: owns)
        return files.map { OutputFolder.join(directory, $0.name) }
    }
}

extension FileSetWriter {
    /// Writes the set of files named `names` into `directory` as one set, each file made by
    /// `stage` in the staging folder whose path it is given (for a set streamed file by file,
    /// too large to hold as text). The path is `/proc/self/fd/<n>`, which names the open
    /// staging folder itself, so a link swapped in at the staging folder's name is not
    /// followed; `stage` creates each file with `O_CREAT | O_EXCL | O_NOFOLLOW` under it.
    /// - Returns: The paths written, in the order of `names`.
    /// - Throws: `ReportError`, or what `stage` throws; `directory` is then as it was.
    @discardableResult
    public func write(
        names: [String], to directory: String, stage: (String) throws(ReportError) -> Void
    ) throws(ReportError) -> [String] {
        let directory = directory.isEmpty ? "." : directory
        try OutputFolder(fileSystem: POSIXFileSystem(), stepHook: stepHook, followsLinkAtName: false).write(
            names: names, to: directory, owns: owns
        ) { (staging: OutputFolder.StagingFolder) throws(ReportError) in try stage(staging.path) }
        return names.map { OutputFolder.join(directory, $0) }
    }
}

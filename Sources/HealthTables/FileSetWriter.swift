/// Writes any set of text files into a folder with the guarantees of a report's `--out`
/// (`OutputFolder`): all or nothing, one writer at a time (a lock file beside the folder),
/// leftovers of killed runs removed, other files carried over. For outputs made of files
/// other than one person's report, such as a batch's cohort folder.
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
        try OutputFolder(fileSystem: POSIXFileSystem(), stepHook: stepHook).write(files, to: directory, owns: owns)
        return files.map { OutputFolder.join(directory, $0.name) }
    }
}

extension FileSetWriter {
    /// Writes the set of files named `names` into `directory` as one set, each file made by
    /// `stage` in the staging folder whose path it is given (for a set streamed file by file,
    /// too large to hold as text).
    /// - Returns: The paths written, in the order of `names`.
    /// - Throws: `ReportError`, or what `stage` throws; `directory` is then as it was.
    @discardableResult
    public func write(
        names: [String], to directory: String, stage: (String) throws(ReportError) -> Void
    ) throws(ReportError) -> [String] {
        let directory = directory.isEmpty ? "." : directory
        try OutputFolder(fileSystem: POSIXFileSystem(), stepHook: stepHook).write(
            names: names, to: directory, owns: owns, stage: stage)
        return names.map { OutputFolder.join(directory, $0) }
    }
}

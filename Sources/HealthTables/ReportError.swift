import SystemCalls

/// An error writing a report to disk. Every case names the path concerned; the OS error, when
/// there is one, is kept as its `errno` code.
public enum ReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output directory (or one of its missing parents, `path`) could not be created.
    case cannotCreateDirectory(path: String, Errno)
    /// The output path exists but is not a directory.
    case notADirectory(path: String)
    /// The output path is the file system's root, `/`: the output folder is replaced as a
    /// whole by a folder made beside it, and `/` has nothing beside it.
    case rootFolder(path: String)
    /// The file `path` could not be written: creating, writing or flushing its temporary file
    /// next to it failed. `path` itself was not touched.
    case cannotWriteFile(path: String, Errno)
    /// The complete temporary file could not be renamed to `path`. Files renamed before it in
    /// the same run are already in place.
    case cannotReplaceFile(path: String, Errno)

    /// The output path is a symbolic link to `destination`, which does not exist.
    case danglingSymbolicLink(path: String, destination: String)
    /// Another run holds the lock of this output folder (`lock` is the lock file).
    case busy(path: String, lock: String)
    /// The output folder holds a folder that is not part of the report: the folder is
    /// replaced as a whole and folders cannot be carried over.
    case folderInTheWay(path: String)
    /// A file of the output folder that is not part of the report could not be carried over
    /// into the new folder (hard link failed).
    case cannotCarryOver(path: String, Errno)
    /// The report cannot go into `path`: the folder `folder` (its parent, or its nearest existing
    /// ancestor when it does not exist yet) does not let this process create entries in it.
    case cannotWriteInto(path: String, folder: String, Errno)
    /// A symbolic link is at a name the write owns (a batch person folder, `cohort/`, a
    /// staging folder): it is never followed (docs/batch.md §6).
    case symbolicLink(path: String)
    /// Something other than the folder being written was put at its staging name while the
    /// write ran; every step was undone (docs/batch.md §6).
    case replacedWhileWriting(path: String)

    public var description: String {
        switch self {
        case .danglingSymbolicLink(let path, let destination):
            return
                "cannot write the report into '\(path)': it is a symbolic link to '\(destination)', which does not exist"
        case .busy(let path, let lock):
            return "cannot write the report into '\(path)': another health-analyzer report is writing into it"
                + " right now (it holds '\(lock)'); run again when it is done"
        case .folderInTheWay(let path):
            return "cannot write the report: '\(path)' is a folder; the output folder is replaced as a whole"
                + " and folders in it are not carried over: move it away or choose another --out"
        case .cannotCarryOver(let path, let error):
            return "cannot keep '\(path)' in the new output folder: \(error)"
        case .cannotWriteInto(let path, let folder, let error):
            return "cannot write the report into '\(path)': nothing can be created in '\(folder)': \(error)"
        case .symbolicLink(let path):
            return "\(path): a symbolic link; the tool never follows links at the names it writes (remove it)"
        case .replacedWhileWriting(let path):
            return "\(path): replaced by another program while the files were written into it; nothing was"
                + " changed, run again"
        case .cannotCreateDirectory(let path, let error):
            return "cannot create the output directory '\(path)': \(error)"
        case .notADirectory(let path):
            return "cannot write the report into '\(path)': it exists and is not a directory"
        case .rootFolder(let path):
            return "cannot write the report into '\(path)': it is the root folder '/', which cannot be replaced as"
                + " a whole the way an output folder is; give a folder inside it, e.g. --out /reports"
        case .cannotWriteFile(let path, let error):
            return "cannot write '\(path)': \(error)"
        case .cannotReplaceFile(let path, let error):
            return "cannot move the finished file into place at '\(path)': \(error)"
        }
    }

    /// An OS error code (`errno`), SystemCalls' one error type of the platform files: any
    /// code is representable; its description is `Permission denied (errno 13)`.
    public typealias Errno = SystemCalls.Errno
}

/// The moments of a write a test can stop the process at (`ReportWriter.stepHook`).
public enum OutputStep: Hashable, Sendable {
    /// One file is complete in the staging folder.
    case staged(String)
    /// Every file is complete in the staging folder; nothing in the output folder changed yet.
    case allStaged
    /// Only where the exchange is refused: the earlier folder was renamed aside
    /// (`.<name>.old-<pid>-<hex>`); the output folder's name is free for an instant.
    case movedAside
    /// The staging folder and the output folder were swapped: the new set is in place, the
    /// earlier one is in the staging folder's place (or, without the exchange, aside).
    case swapped
    /// The earlier set was removed.
    case cleaned

    /// `staged:daily.csv`, `all-staged`, `swapped`, `cleaned` (the test hook's spelling).
    public var name: String {
        switch self {
        case .staged(let file): return "staged:" + file
        case .allStaged: return "all-staged"
        case .movedAside: return "moved-aside"
        case .swapped: return "swapped"
        case .cleaned: return "cleaned"
        }
    }
}

/// Writes a set of files into an output folder as one unit: after a crash or a kill at any
/// instant, the folder holds exactly the earlier set or exactly the new one.
///
/// How (Linux): the files are written into a hidden staging folder beside the output folder
/// (`.<name>.tmp-<pid>-<random>`, flushed to disk), other files of the output folder are
/// hard-linked into it, and the two folders are swapped in one step with
/// `renameat2(RENAME_EXCHANGE)`; then the earlier set, now in the staging folder, is removed.
/// Where the exchange is refused (`EINVAL`, `ENOSYS`, `EOPNOTSUPP`: NFS, SMB, CephFS, Lustre
/// and FUSE clients), the earlier folder is renamed aside (`.<name>.old-<pid>-<hex>`), the new
/// one renamed in, and the aside folder's set removed; the next run finishes a write killed
/// after the first rename (the new folder is in: the aside one is removed) or rolls it back
/// (no folder: the aside one is renamed back). A reader then sees the earlier set, the new
/// one, or for an instant no folder, never a mixture (docs/outputs.md).
/// A lock file beside the output folder (`.<name>.lock`, `flock`) lets one writer in at a time:
/// a second one fails at once with `ReportError.busy`. Staging folders left by killed runs are
/// removed by the next run (under the lock). Every file of the set is covered, whatever its
/// name, so files added to a report later need nothing more.
///
/// Limits: the folder is replaced as a whole (its inode changes; a shell sitting in it keeps
/// the earlier one), its parent must be writable, and other *folders* inside it cannot be
/// carried over, so a folder in it that is not part of the set stops the write
/// (`ReportError.folderInTheWay`) before anything changes.
package struct OutputFolder {
    package let fileSystem: any ReportFileSystem
    package var stepHook: (@Sendable (OutputStep) -> Void)?

    package init(fileSystem: any ReportFileSystem, stepHook: (@Sendable (OutputStep) -> Void)?) {
        self.fileSystem = fileSystem
        self.stepHook = stepHook
    }

    /// Writes `files` (name, contents; names without `/`) into `directory`, creating it and
    /// missing parents first. `owns` tells the names of the set (this run's and any earlier
    /// run's, e.g. a chart that has no data this time): files of such names are replaced or
    /// removed with the earlier set; other files are carried over.
    /// - Throws: `ReportError`; the output folder is then as it was before the call.
    package func write(
        _ files: [(name: String, text: String)], to directory: String,
        owns: @escaping (String) -> Bool = { _ in false }
    ) throws(ReportError) {
        try write(names: files.map(\.name), to: directory, owns: owns) { (staging: String) throws(ReportError) in
            for file in files {
                do throws(ReportError.Errno) {
                    try fileSystem.createFile(OutputFolder.join(staging, file.name), contents: file.text)
                } catch {
                    fileSystem.removeFile(OutputFolder.join(staging, file.name))
                    throw .cannotWriteFile(path: OutputFolder.join(directory, file.name), error)
                }
                stepHook?(.staged(file.name))
            }
        }
    }

    /// Writes the set of files named `names` into `directory` as `write(_:to:owns:)` does, the
    /// files made by `stage`, which is given the staging folder's path and creates each of them
    /// there (streamed, for a set too large to hold as text: the cohort).
    /// - Throws: `ReportError`, or what `stage` throws; the output folder is then as it was.
    package func write(
        names: [String], to directory: String, owns: @escaping (String) -> Bool = { _ in false },
        stage: (String) throws(ReportError) -> Void
    ) throws(ReportError) {
        let target = try resolve(directory)
        let parent = OutputFolder.parent(of: target)
        let base = String(target.split(separator: "/").last ?? "")
        guard !base.isEmpty, !parent.isEmpty else {
            throw target == "/" ? .rootFolder(path: directory) : .notADirectory(path: directory)
        }
        let prefix = "." + base + ".tmp-"

        let lock = OutputFolder.lockFile(of: target)
        let lockFD: Int32
        do {
            lockFD = try fileSystem.lock(lock)
        } catch {
            if error == .wouldBlock { throw .busy(path: directory, lock: lock) }
            throw .cannotWriteFile(path: lock, error)
        }
        defer { fileSystem.unlock(lockFD) }

        // Staging folders of killed runs (only this tool's names are removed from them).
        let firstName = names.first ?? ""
        let names = Set(names)
        let ours = { (name: String) in names.contains(name) || owns(name) }
        // A replacement by renames killed between its steps: finished or rolled back.
        let asidePrefix = "." + base + ".old-"
        // The parent listed once, and only our names looked at (the parent may be /tmp, with
        // thousands of entries: two full listings with an lstat each cost a report --db 5 %).
        let leftovers =
            (try? fileSystem.entries(of: parent) { name in
                Self.isStagingName(name, prefix: asidePrefix) || Self.isStagingName(name, prefix: prefix)
            }) ?? []
        for entry in leftovers
        where entry.isDirectory && entry.isOwnedByUs && Self.isStagingName(entry.name, prefix: asidePrefix) {
            let aside = OutputFolder.join(parent, entry.name)
            if (try? fileSystem.status(of: target)) == .directory {
                let links = ((try? fileSystem.entries(of: aside)) ?? []).map(\.name).filter {
                    fileSystem.isSameFile(OutputFolder.join(aside, $0), OutputFolder.join(target, $0))
                }
                removeSet(in: aside, ours: ours, carried: links)
            } else {
                try? fileSystem.rename(aside, to: target)
            }
        }
        // A file there that is also in the output folder (the same inode) was carried over.
        // Only real folders (never a link: `entries` uses lstat) of our user, named as `write` names
        // them, are staging folders (a link named like one led to deletions through it).
        for entry in leftovers
        where entry.isDirectory && entry.isOwnedByUs && Self.isStagingName(entry.name, prefix: prefix) {
            let folder = OutputFolder.join(parent, entry.name)
            let links = ((try? fileSystem.entries(of: folder)) ?? []).map(\.name).filter {
                fileSystem.isSameFile(OutputFolder.join(folder, $0), OutputFolder.join(target, $0))
            }
            removeSet(in: folder, ours: ours, carried: links)
        }

        // What the output folder holds besides the set: carried over by hard links.
        let exists = (try? fileSystem.status(of: target)) == .directory
        var carried: [String] = []
        if exists {
            let entries: [DirectoryEntry]
            do { entries = try fileSystem.entries(of: target) } catch {
                throw .cannotCreateDirectory(path: target, error)
            }
            for entry in entries where !(ours(entry.name) && !entry.isDirectory) {
                if entry.isDirectory { throw .folderInTheWay(path: OutputFolder.join(directory, entry.name)) }
                // Temporary files of earlier versions (`.daily.csv.tmp-…`) are not carried over.
                if isOldTemporary(entry.name, ours) { continue }
                carried.append(entry.name)
            }
        }

        let staging = OutputFolder.join(
            parent, prefix + "\(ReportProcess.id)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16))
        do {
            try fileSystem.makeDirectory(staging)
        } catch {
            throw .cannotWriteFile(path: OutputFolder.join(directory, firstName), error)
        }
        if exists { fileSystem.copyMode(from: target, to: staging) }
        func abandon() { removeSet(in: staging, ours: ours, carried: carried) }
        do { try stage(staging) } catch {
            abandon()
            throw error
        }
        for name in carried {
            do {
                try fileSystem.link(OutputFolder.join(target, name), to: OutputFolder.join(staging, name))
            } catch {
                abandon()
                throw .cannotCarryOver(path: OutputFolder.join(directory, name), error)
            }
        }
        fileSystem.syncDirectory(staging)
        stepHook?(.allStaged)

        // Where the earlier set is once the new one is in place.
        var earlier = staging
        do {
            if exists {
                do {
                    try fileSystem.exchange(staging, target)
                } catch  where error.refusesExchange {
                    earlier = try replaceByRenames(staging, target, parent: parent, prefix: asidePrefix)
                }
            } else {
                try fileSystem.rename(staging, to: target)
            }
        } catch {
            abandon()
            throw .cannotReplaceFile(path: directory, error)
        }
        fileSystem.syncDirectory(parent)
        stepHook?(.swapped)
        if exists { removeSet(in: earlier, ours: ours, carried: carried) }
        stepHook?(.cleaned)
    }

    /// The replacement without `RENAME_EXCHANGE`: `target` renamed aside, `staging` renamed in.
    /// Returns the aside folder (the earlier set). When the second rename fails, the first is
    /// undone before throwing.
    private func replaceByRenames(_ staging: String, _ target: String, parent: String, prefix: String)
        throws(ReportError.Errno) -> String
    {
        let aside = OutputFolder.join(
            parent, prefix + "\(ReportProcess.id)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16))
        try fileSystem.rename(target, to: aside)
        fileSystem.syncDirectory(parent)
        stepHook?(.movedAside)
        do {
            try fileSystem.rename(staging, to: target)
        } catch {
            try? fileSystem.rename(aside, to: target)
            throw error
        }
        return aside
    }

    /// True for `<prefix><pid>-<hex>`, the name `write` gives its staging folders.
    static func isStagingName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isNumber) && !parts[1].isEmpty
            && parts[1].allSatisfy(\.isHexDigit)
    }

    /// Removes the set's files and the carried-over links from a staging folder, then the
    /// folder. Anything else in it is never deleted: the folder then stays.
    private func removeSet(in folder: String, ours: (String) -> Bool, carried: [String]) {
        let carried = Set(carried)
        for entry in (try? fileSystem.entries(of: folder)) ?? [] where !entry.isDirectory {
            if ours(entry.name) || carried.contains(entry.name) || isOldTemporary(entry.name, ours) {
                fileSystem.removeFile(OutputFolder.join(folder, entry.name))
            }
        }
        fileSystem.removeDirectory(folder)
    }

    /// `.daily.csv.tmp-…`: a temporary file that versions before the atomic set left behind.
    private func isOldTemporary(_ name: String, _ ours: (String) -> Bool) -> Bool {
        guard name.hasPrefix("."), let end = name.range(of: ".tmp-") else { return false }
        return ours(String(name[name.index(after: name.startIndex)..<end.lowerBound]))
    }

    /// Checks, without creating or changing anything, what `write` would find wrong with
    /// `directory` before it renders a byte: a path that is not a folder, a dangling link, a
    /// folder (or, when it does not exist yet, its nearest existing ancestor) whose parent lets
    /// nothing be created in it. `write` can still fail later (a full disk, a change meanwhile).
    /// - Throws: `ReportError.notADirectory`, `.danglingSymbolicLink` or `.cannotWriteInto`.
    package func check(_ directory: String) throws(ReportError) {
        if try isFolder(directory) {
            let real = try realPath(directory)
            if real == "/" { throw .rootFolder(path: directory) }
            // The staging folder and the lock file are made beside it.
            let parent = OutputFolder.parent(of: real)
            return try canCreate(in: parent.isEmpty ? "/" : parent, for: directory)
        }
        var folder = OutputFolder.parent(of: directory)
        while true {
            if folder.isEmpty { folder = "." }
            if try isFolder(folder) { return try canCreate(in: folder, for: directory) }
            let next = OutputFolder.parent(of: folder)
            if next == folder || folder == "." { return }
            folder = next
        }
    }

    /// True for a folder, false when nothing is there; throws for anything else at `path`
    /// (`.notADirectory` for a file, `.danglingSymbolicLink`).
    private func isFolder(_ path: String) throws(ReportError) -> Bool {
        switch try linkStatus(path) {
        case .directory: return true
        case .missing: return false
        case .notDirectory: throw .notADirectory(path: path)
        case .danglingLink(let destination): throw .danglingSymbolicLink(path: path, destination: destination)
        }
    }

    private func canCreate(in folder: String, for directory: String) throws(ReportError) {
        do { try fileSystem.checkCanCreateEntries(in: folder) } catch {
            throw .cannotWriteInto(path: directory, folder: folder, error)
        }
    }

    /// The output folder's real path (symbolic links and `.`/`..` resolved), creating missing
    /// parents; the folder itself may not exist yet.
    private func resolve(_ directory: String) throws(ReportError) -> String {
        if try isFolder(directory) { return try realPath(directory) }
        let parent = OutputFolder.parent(of: directory)
        let name = String(directory.split(separator: "/").last ?? "")
        try createDirectory(parent.isEmpty ? "." : parent)
        return OutputFolder.join(try realPath(parent.isEmpty ? "." : parent), name)
    }

    private enum LinkStatus {
        case missing, directory, notDirectory
        case danglingLink(String)
    }

    private func linkStatus(_ path: String) throws(ReportError) -> LinkStatus {
        let status: PathStatus
        do { status = try fileSystem.status(of: path) } catch { throw .cannotCreateDirectory(path: path, error) }
        switch status {
        case .directory: return .directory
        case .notDirectory: return .notDirectory
        case .missing:
            if let destination = fileSystem.symbolicLinkDestination(path) { return .danglingLink(destination) }
            return .missing
        }
    }

    private func realPath(_ path: String) throws(ReportError) -> String {
        do { return try fileSystem.realPath(path) } catch { throw .cannotCreateDirectory(path: path, error) }
    }

    /// Creates `directory` and its missing parents, like `mkdir -p`.
    private func createDirectory(_ directory: String) throws(ReportError) {
        if try isFolder(directory) { return }
        let parent = OutputFolder.parent(of: directory)
        if !parent.isEmpty, parent != directory { try createDirectory(parent) }
        do {
            try fileSystem.makeDirectory(directory)
        } catch {
            // Someone else created it in the meantime: fine if it is a directory.
            if error == .alreadyExists, (try? fileSystem.status(of: directory)) == .directory { return }
            throw .cannotCreateDirectory(path: directory, error)
        }
    }
}

extension OutputFolder {
    /// The lock file a write takes beside `directory`: `.<name>.lock` in its parent
    /// (`OutputFolder`). It stays after the write: removing it could let a waiting writer and a
    /// new one in at once. Callers that own the folder's parent alone may remove it.
    public static func lockFile(of directory: String) -> String {
        let base = String(directory.split(separator: "/").last ?? "")
        let parent = parent(of: directory)
        return parent.isEmpty ? "." + base + ".lock" : join(parent, "." + base + ".lock")
    }

    /// `directory/name`, without doubling a trailing slash.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The parent of `path` (`a/b/` → `a`, `/a` → `/`, `a` → ``).
    public static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        return String(parent)
    }
}

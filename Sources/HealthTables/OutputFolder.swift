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
/// Every step works relative to folder descriptors (docs/outputs.md §6): the parent is opened
/// once, the output, staging and aside folders are opened `O_DIRECTORY | O_NOFOLLOW` relative
/// to it, files are created `O_CREAT | O_EXCL | O_NOFOLLOW` in the staging folder's descriptor
/// and linked (`linkat`) between the two folders' descriptors, the swap is made on the
/// parent's descriptor and the earlier set removed relative to the earlier folder's. So a
/// symbolic link put at one of those names while the write runs is never followed: one that
/// took the output folder's place is moved by the swap and removed itself; one that took the
/// staging folder's place is found right after the swap, which is undone
/// (`ReportError.symbolicLink`, the earlier set in place).
///
/// Limits: the folder is replaced as a whole (its inode changes; a shell sitting in it keeps
/// the earlier one), its parent must be writable, and other *folders* inside it cannot be
/// carried over, so a folder in it that is not part of the set stops the write
/// (`ReportError.folderInTheWay`) before anything changes.
package struct OutputFolder {
    package let fileSystem: any ReportFileSystem
    package var stepHook: (@Sendable (OutputStep) -> Void)?
    /// Whether a symbolic link at the output folder's own name is followed. Yes for
    /// `report --out`, which the user named (resolved once, before the write, like every
    /// folder above it). No for a name the tool owns inside its own output folder (a batch
    /// person folder, `cohort/`): a link there is refused (`ReportError.symbolicLink`), never
    /// followed (docs/batch.md §6). Either way, once the write has begun no link at the
    /// output, staging or aside name is ever followed: those names are used relative to the
    /// parent folder's descriptor, with `O_NOFOLLOW`.
    package var followsLinkAtName: Bool

    package init(
        fileSystem: any ReportFileSystem, stepHook: (@Sendable (OutputStep) -> Void)?, followsLinkAtName: Bool = true
    ) {
        self.fileSystem = fileSystem
        self.stepHook = stepHook
        self.followsLinkAtName = followsLinkAtName
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
        try write(names: files.map(\.name), to: directory, owns: owns) { (staging: StagingFolder) throws(ReportError) in
            for file in files {
                do throws(ReportError.Errno) {
                    try fileSystem.createFile(file.name, in: staging.descriptor, contents: file.text)
                } catch {
                    fileSystem.removeFile(file.name, in: staging.descriptor)
                    throw .cannotWriteFile(path: OutputFolder.join(directory, file.name), error)
                }
                stepHook?(.staged(file.name))
            }
        }
    }

    /// The staging folder a write's `stage` fills: open, so that files are made relative to
    /// its descriptor (`openat`) and never through a link someone puts at its name.
    package struct StagingFolder {
        /// The folder's descriptor (open until `stage` returns).
        package let descriptor: Int32
        let fallbackPath: String
        let fileSystem: any ReportFileSystem

        /// A path for code that opens files by path: `/proc/self/fd/<n>`, which names this
        /// folder itself whatever is at its name; its path beside the output folder where /proc
        /// is not mounted (then that name is looked up by path: docs/batch.md §6).
        package var path: String { fileSystem.pathOfDescriptor(descriptor) ?? fallbackPath }
    }

    /// Writes the set of files named `names` into `directory` as `write(_:to:owns:)` does, the
    /// files made by `stage`, which is given the open staging folder and creates each of them
    /// there (streamed, for a set too large to hold as text: the cohort).
    /// - Throws: `ReportError`, or what `stage` throws; the output folder is then as it was.
    package func write(
        names: [String], to directory: String, owns: @escaping (String) -> Bool = { _ in false },
        stage: (StagingFolder) throws(ReportError) -> Void
    ) throws(ReportError) {
        let (parentPath, base) = try place(directory)
        let prefix = "." + base + ".tmp-"
        // A replacement by renames killed between its steps: finished or rolled back.
        let asidePrefix = "." + base + ".old-"

        // The parent, opened once: every name below is used relative to it, never followed.
        let parent: Int32
        do { parent = try fileSystem.openFolder(parentPath) } catch {
            throw .cannotCreateDirectory(path: parentPath, error)
        }
        defer { fileSystem.close(parent) }

        let lockName = "." + base + ".lock"
        let lockFD: Int32
        do {
            lockFD = try fileSystem.lock(lockName, in: parent)
        } catch {
            let lock = OutputFolder.join(parentPath, lockName)
            if error == .wouldBlock { throw .busy(path: directory, lock: lock) }
            throw .cannotWriteFile(path: lock, error)
        }
        defer { fileSystem.close(lockFD) }

        let firstName = names.first ?? ""
        let names = Set(names)
        let ours = { (name: String) in names.contains(name) || owns(name) }
        // Staging folders of killed runs (only this tool's names are removed from them). The
        // parent listed once, and only our names looked at (the parent may be /tmp, with
        // thousands of entries: two full listings with an lstat each cost a report --db 5 %).
        // Only real folders (never a link: `fstatat` without following) of our user, named as
        // `write` names them, are staging folders (a link named like one led to deletions
        // through it).
        let leftovers =
            (try? fileSystem.entries(
                of: parent,
                named: { Self.isStagingName($0, prefix: asidePrefix) || Self.isStagingName($0, prefix: prefix) },
                owners: true)) ?? []
        for entry in leftovers
        where entry.isDirectory && entry.isOwnedByUs && Self.isStagingName(entry.name, prefix: asidePrefix) {
            if fileSystem.identity(of: base, in: parent)?.isDirectory == true {
                removeLeftover(entry.name, in: parent, base: base, ours: ours)
            } else {
                try? fileSystem.rename(entry.name, to: base, in: parent)
            }
        }
        for entry in leftovers
        where entry.isDirectory && entry.isOwnedByUs && Self.isStagingName(entry.name, prefix: prefix) {
            removeLeftover(entry.name, in: parent, base: base, ours: ours)
        }

        // The output folder, opened without following a link at its name.
        var target: Int32?
        do { target = try fileSystem.openFolder(base, in: parent) } catch {
            if error != .noSuchFile {
                throw refusal(error, at: base, in: parent, path: OutputFolder.join(parentPath, base), for: directory)
            }
        }
        defer { if let target { fileSystem.close(target) } }

        // What the output folder holds: the earlier set (removed after the swap) and other
        // files, carried over by hard links.
        var earlier: FileIdentity?
        var earlierFiles: [String] = []
        var carried: [String] = []
        if let target {
            earlier = fileSystem.identity(of: target)
            let entries: [DirectoryEntry]
            do { entries = try fileSystem.entries(of: target) } catch {
                throw .cannotCreateDirectory(path: OutputFolder.join(parentPath, base), error)
            }
            for entry in entries {
                if ours(entry.name) && !entry.isDirectory {
                    earlierFiles.append(entry.name)
                    continue
                }
                if entry.isDirectory { throw .folderInTheWay(path: OutputFolder.join(directory, entry.name)) }
                // Temporary files of earlier versions (`.daily.csv.tmp-…`) are not carried over.
                if isOldTemporary(entry.name, ours) {
                    earlierFiles.append(entry.name)
                    continue
                }
                carried.append(entry.name)
            }
        }

        let stagingName =
            prefix + "\(ReportProcess.id)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let stagingPath = OutputFolder.join(parentPath, stagingName)
        let staging: Int32
        do throws(ReportError.Errno) {
            try fileSystem.makeFolder(stagingName, in: parent)
            do { staging = try fileSystem.openFolder(stagingName, in: parent) } catch {
                removeName(stagingName, in: parent, ifItIs: nil)
                throw error
            }
        } catch {
            throw .cannotWriteFile(path: OutputFolder.join(directory, firstName), error)
        }
        defer { fileSystem.close(staging) }
        let stagingIdentity = fileSystem.identity(of: staging)
        if let earlier { fileSystem.setMode(earlier.mode, of: staging) }
        func abandon() {
            removeSet(in: staging, ours: ours, carried: carried)
            removeName(stagingName, in: parent, ifItIs: stagingIdentity)
        }
        do {
            try stage(StagingFolder(descriptor: staging, fallbackPath: stagingPath, fileSystem: fileSystem))
        } catch {
            abandon()
            throw error
        }
        if let target {
            for name in carried {
                do {
                    try fileSystem.link(name, from: target, to: staging)
                } catch {
                    abandon()
                    throw .cannotCarryOver(path: OutputFolder.join(directory, name), error)
                }
            }
        }
        fileSystem.syncFolder(staging)
        stepHook?(.allStaged)

        // Where the earlier set is once the new one is in place.
        var earlierName = stagingName
        do {
            if target != nil {
                do {
                    try fileSystem.exchange(stagingName, base, in: parent)
                } catch  where error.refusesExchange {
                    earlierName = try replaceByRenames(stagingName, base, in: parent, prefix: asidePrefix)
                }
            } else {
                try renameInto(stagingName, base, in: parent)
            }
        } catch {
            abandon()
            throw .cannotReplaceFile(path: directory, error)
        }
        // The name now holds the folder just filled, unless something was swapped in at the
        // staging name meanwhile: then every step is undone and the write refused.
        if !fileSystem.identity(of: base, in: parent).isSame(as: stagingIdentity) {
            throw undo(
                stagingName, base, aside: earlierName == stagingName ? nil : earlierName, exchanged: target != nil,
                in: parent, path: stagingPath, abandon: { removeSet(in: staging, ours: ours, carried: carried) })
        }
        fileSystem.syncFolder(parent)
        stepHook?(.swapped)
        if let target {
            // The earlier set, relative to the earlier folder's descriptor, once its (staging
            // or aside) name is seen to hold that folder; a link there is removed itself.
            let found = fileSystem.identity(of: earlierName, in: parent)
            if found.isSame(as: earlier) {
                for name in earlierFiles + carried { fileSystem.removeFile(name, in: target) }
                fileSystem.removeFolder(earlierName, in: parent)
            } else if found?.isSymbolicLink == true {
                fileSystem.removeFile(earlierName, in: parent)
            }
        }
        stepHook?(.cleaned)
    }

    /// Where `directory` is written: its parent's path and its own name. `report --out` is
    /// resolved (links and `.`/`..`), creating missing parents; a name the tool owns
    /// (`followsLinkAtName` false) is not: only its parent is made if missing.
    private func place(_ directory: String) throws(ReportError) -> (parent: String, base: String) {
        let name = String(directory.split(separator: "/").last ?? "")
        if !followsLinkAtName, !name.isEmpty, name != ".", name != ".." {
            let parent = OutputFolder.parent(of: directory)
            let folder = parent.isEmpty ? "." : parent
            try createDirectory(folder)
            return (folder, name)
        }
        let target = try resolve(directory)
        let parent = OutputFolder.parent(of: target)
        let base = String(target.split(separator: "/").last ?? "")
        guard !base.isEmpty, !parent.isEmpty else {
            throw target == "/" ? .rootFolder(path: directory) : .notADirectory(path: directory)
        }
        return (parent, base)
    }

    /// Why the output folder `name` could not be opened: a link (never followed), not a folder,
    /// or the OS error.
    private func refusal(
        _ error: ReportError.Errno, at name: String, in parent: Int32, path: String, for directory: String
    )
        -> ReportError
    {
        guard let found = fileSystem.identity(of: name, in: parent) else {
            return .cannotCreateDirectory(path: path, error)
        }
        if found.isSymbolicLink { return .symbolicLink(path: directory) }
        if !found.isDirectory { return .notADirectory(path: directory) }
        return .cannotCreateDirectory(path: path, error)
    }

    /// The new folder renamed to the free name `base`. A link someone put at that name
    /// meanwhile is removed itself (never followed) and the rename tried once more.
    private func renameInto(_ staging: String, _ base: String, in parent: Int32) throws(ReportError.Errno) {
        do { try fileSystem.rename(staging, to: base, in: parent) } catch {
            guard fileSystem.identity(of: base, in: parent)?.isSymbolicLink == true else { throw error }
            fileSystem.removeFile(base, in: parent)
            try fileSystem.rename(staging, to: base, in: parent)
        }
    }

    /// The replacement without `RENAME_EXCHANGE`: `base` renamed aside, `staging` renamed in.
    /// Returns the aside name (the earlier set). When the second rename fails, the first is
    /// undone before throwing.
    private func replaceByRenames(_ staging: String, _ base: String, in parent: Int32, prefix: String)
        throws(ReportError.Errno) -> String
    {
        let aside = prefix + "\(ReportProcess.id)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try fileSystem.rename(base, to: aside, in: parent)
        fileSystem.syncFolder(parent)
        stepHook?(.movedAside)
        do {
            try renameInto(staging, base, in: parent)
        } catch {
            try? fileSystem.rename(aside, to: base, in: parent)
            throw error
        }
        return aside
    }

    /// Undoes a swap that put something other than the new folder at `base` (it was swapped in
    /// at the staging name): the exchange made again, or the renames reversed, so that `base`
    /// holds what it held before; what came from the staging name goes back there and is
    /// removed when it is a link (the link itself); the staged files are removed.
    /// - Returns: the refusal, naming the staging name.
    private func undo(
        _ staging: String, _ base: String, aside: String?, exchanged: Bool, in parent: Int32, path: String,
        abandon: () -> Void
    ) -> ReportError {
        if exchanged && aside == nil {
            try? fileSystem.exchange(staging, base, in: parent)
        } else {
            try? fileSystem.rename(base, to: staging, in: parent)
            if let aside { try? fileSystem.rename(aside, to: base, in: parent) }
        }
        fileSystem.syncFolder(parent)
        abandon()
        let found = fileSystem.identity(of: staging, in: parent)
        if found?.isSymbolicLink == true {
            fileSystem.removeFile(staging, in: parent)
            return .symbolicLink(path: path)
        }
        return .replacedWhileWriting(path: path)
    }

    /// Removes the entry `name` of `parent` when it is a symbolic link (the link itself, never
    /// its target) or the folder `identity` (when empty); anything else there is left alone.
    private func removeName(_ name: String, in parent: Int32, ifItIs identity: FileIdentity?) {
        guard let found = fileSystem.identity(of: name, in: parent) else { return }
        if found.isSymbolicLink {
            fileSystem.removeFile(name, in: parent)
        } else if found.isSame(as: identity) {
            fileSystem.removeFolder(name, in: parent)
        }
    }

    /// Removes the staging folder `name` a killed run left in `parent`: the set's files, and
    /// the files that are also in the output folder `base` (the same inode: carried over),
    /// then the folder. Anything else in it is never deleted: the folder then stays.
    private func removeLeftover(_ name: String, in parent: Int32, base: String, ours: (String) -> Bool) {
        guard let folder = try? fileSystem.openFolder(name, in: parent) else { return }
        defer { fileSystem.close(folder) }
        let target = try? fileSystem.openFolder(base, in: parent)
        defer { if let target { fileSystem.close(target) } }
        let carried = ((try? fileSystem.entries(of: folder)) ?? []).map(\.name).filter { name in
            guard let target else { return false }
            return fileSystem.identity(of: name, in: folder).isSame(as: fileSystem.identity(of: name, in: target))
        }
        removeSet(in: folder, ours: ours, carried: carried)
        fileSystem.removeFolder(name, in: parent)
    }

    /// True for `<prefix><pid>-<hex>`, the name `write` gives its staging folders.
    static func isStagingName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isNumber) && !parts[1].isEmpty
            && parts[1].allSatisfy(\.isHexDigit)
    }

    /// Removes the set's files and the carried-over links from the open staging folder
    /// `folder` (relative to its descriptor; a link is removed itself). Anything else in it is
    /// never deleted.
    private func removeSet(in folder: Int32, ours: (String) -> Bool, carried: [String]) {
        let carried = Set(carried)
        for entry in (try? fileSystem.entries(of: folder)) ?? [] where !entry.isDirectory {
            if ours(entry.name) || carried.contains(entry.name) || isOldTemporary(entry.name, ours) {
                fileSystem.removeFile(entry.name, in: folder)
            }
        }
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

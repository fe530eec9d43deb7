import Foundation
import TestSupport
import Testing

@testable import HealthTables

#if canImport(Glibc)
    import Glibc
#endif

/// The real file system, except that `renameat2(RENAME_EXCHANGE)` is refused with EINVAL, as
/// NFS, SMB and FUSE clients refuse it: the write then renames the earlier folder aside
/// (docs/outputs.md §6).
struct NoExchangeFileSystem: ReportFileSystem {
    let real = POSIXFileSystem()

    func exchange(_ first: String, _ second: String, in folder: Int32) throws(ReportError.Errno) {
        throw ReportError.Errno(rawValue: EINVAL)
    }

    func status(of path: String) throws(ReportError.Errno) -> PathStatus { try real.status(of: path) }
    func makeDirectory(_ path: String) throws(ReportError.Errno) { try real.makeDirectory(path) }
    func createFile(_ name: String, in folder: Int32, contents text: String) throws(ReportError.Errno) {
        try real.createFile(name, in: folder, contents: text)
    }
    func rename(_ name: String, to newName: String, in folder: Int32) throws(ReportError.Errno) {
        try real.rename(name, to: newName, in: folder)
    }
    func removeFile(_ name: String, in folder: Int32) { real.removeFile(name, in: folder) }
    func syncFolder(_ folder: Int32) { real.syncFolder(folder) }
}

/// A symbolic link to a canary folder outside the output's parent, swapped in at the output
/// folder's name or its staging (or aside) folder's name at each step of `OutputFolder`'s
/// write, with the exchange and without it (the aside renames), for a name the tool owns and
/// for `report --out`'s resolved name. The canary never changes, and the write refuses with one
/// line (the earlier set intact) or completes with the new set (`LinkSwap.problems`).
@Suite("Output folder: links swapped in while writing")
struct OutputFolderLinkTests {
    static let old = ["daily.csv": "date\n2025-01-01\n", "report.md": "# earlier\n"]
    static let new = ["daily.csv": "date\n2025-02-02\n", "report.md": "# new\n"]

    static func write(
        _ set: [String: String], with fileSystem: any ReportFileSystem, follows: Bool, to folder: URL,
        swapper: LinkSwap.Swapper? = nil
    ) -> String? {
        let files = set.keys.sorted().map { (name: $0, text: set[$0]!) }
        var hook: (@Sendable (OutputStep) -> Void)?
        if let swapper { hook = { @Sendable (step: OutputStep) in swapper.hook(step.name) } }
        do {
            try OutputFolder(fileSystem: fileSystem, stepHook: hook, followsLinkAtName: follows).write(
                files, to: folder.path, owns: { set[$0] != nil })
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [true, false], [true, false])
    func aLinkSwappedInAtAnyStepIsNeverFollowed(exchange: Bool, followsLinkAtName: Bool) throws {
        let root = try TestScratch.folder("output-link-swap")
        let canary = try LinkCanary(in: root)
        let fileSystem: any ReportFileSystem = exchange ? POSIXFileSystem() : NoExchangeFileSystem()
        let earlier = root.appendingPathComponent("earlier")
        #expect(
            Self.write(Self.old, with: fileSystem, follows: followsLinkAtName, to: earlier.appendingPathComponent("p"))
                == nil)
        let data = { (set: [String: String]) in set.mapValues { Data($0.utf8) } }
        #expect(LinkSwap.files(in: earlier.appendingPathComponent("p")) == data(Self.old))
        let before = canary.snapshot()
        var steps: [OutputStep] = [.staged("daily.csv"), .allStaged, .swapped, .cleaned]
        if !exchange { steps.insert(.movedAside, at: 2) }
        for place in LinkSwap.Place.allCases {
            for step in steps {
                let out = root.appendingPathComponent("out-\(place)-\(step.name)")
                try FileManager.default.copyItem(at: earlier, to: out)
                let swapper = LinkSwap.Swapper(at: step.name, place, of: "p", in: out, to: canary.folder)
                let failure = Self.write(
                    Self.new, with: fileSystem, follows: followsLinkAtName, to: out.appendingPathComponent("p"),
                    swapper: swapper)
                let scene = "\(place) at \(step.name): \(failure ?? "written")"
                // Nothing at the staging name at `cleaned`; without the exchange the aside
                // folder (the earlier set) is there from `moved-aside` to `cleaned`, and the
                // output name is free at `moved-aside` (the link is put there).
                #expect(!(swapper.swapped ?? "").isEmpty || (place == .staging && step == .cleaned), "\(scene)")
                #expect(canary.changes(since: before).isEmpty, "\(scene): \(canary.changes(since: before))")
                let problems = LinkSwap.problems(
                    in: out, name: "p", old: data(Self.old), new: data(Self.new), failure: failure)
                #expect(problems.isEmpty, "\(scene): \(problems)")
            }
        }
    }

    /// A link at a name the tool owns is refused before anything is written, with one line;
    /// `report --out` (the user's name) follows it, as before.
    @Test func aLinkAtAnOwnedNameIsRefusedAndTheUsersNameFollowed() throws {
        let root = try TestScratch.folder("output-link-owned")
        let canary = try LinkCanary(in: root)
        let before = canary.snapshot()
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let link = out.appendingPathComponent("p")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: canary.folder.path)
        let refused = Self.write(Self.new, with: POSIXFileSystem(), follows: false, to: link)
        #expect(
            refused == "\(link.path): a symbolic link; the tool never follows links at the names it writes (remove it)")
        #expect(canary.changes(since: before).isEmpty)
        // Only the lock file beside it (made before the folder is looked at), no staging folder.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["p", ".p.lock"])
        // report --out: the link is the user's; the report goes into the folder it points at,
        // the canary's own note carried over.
        #expect(Self.write(Self.new, with: POSIXFileSystem(), follows: true, to: link) == nil)
        let files = LinkSwap.files(in: canary.folder)
        #expect(files["daily.csv"] == Data(Self.new["daily.csv"]!.utf8))
        #expect(files["note.txt"] == Data("not the tool's\n".utf8))
    }
}

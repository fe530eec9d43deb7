import Foundation
import HealthReports
import HealthTables
import SyntheticExport
import TestSupport
import Testing

@testable import HealthBatch

#if canImport(Glibc)
    import Glibc
#endif

/// A symbolic link swapped in at a name the tool owns while it writes there (the person
/// folder, `cohort/`, or their staging folders), pointing at a canary folder outside `--out`
/// (docs/batch.md §6). The check before the write cannot catch it; the write itself works
/// relative to folder descriptors and never follows it. At each step of the write (the step
/// hook): the canary keeps its bytes, its times and gets no new file, and the write either
/// refuses with one line (the earlier set intact) or completes with the new set, never a
/// mixture (`LinkSwap.problems`).
///
/// Before the writer worked relative to descriptors, the swap at the person folder's name
/// while files were staged made the clean-up list the canary through the link and delete its
/// `daily.csv`; a swap at the staging name made every later file go into the canary.
@Suite("Links swapped in while batch and cohort write")
struct LinkSwapTests {
    /// The steps the link is swapped in at (the report's first staged file stands for every
    /// staged file).
    static let steps: [OutputStep] = [.staged("daily.csv"), .allStaged, .swapped, .cleaned]

    /// Person `p`'s folder: an earlier report (export a, 3 days) and a new one (export b, 4
    /// days) forced over it, with a link to the canary swapped in at the folder's name or its
    /// staging folder's at each step.
    @Test func aLinkSwappedInAtAPersonFolderIsNeverFollowed() throws {
        let root = try TestScratch.folder("link-swap-batch")
        let canary = try LinkCanary(in: root)
        let inputs = root.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for (name, days) in [("a", 3), ("b", 4)] {
            let config = SyntheticExportConfiguration(
                firstDay: "2025-06-02", days: days, seed: 21, ownerName: "Quillon", extendedHealthData: true)
            try Data(SyntheticExport.makeExport(config).bytes).write(to: inputs.appendingPathComponent(name + ".xml"))
        }
        let options = BatchOptions(jobs: 1, threadsPerJob: 1, force: true)
        func batch(_ out: URL, _ export: String, hook: (@Sendable (String, OutputStep) -> Void)? = nil) throws
            -> PersonOutcome
        {
            var batch = Batch(output: out.path, options: options, renderer: ReportWriter())
            batch.stepHook = hook
            let person = BatchPerson(id: "p", export: inputs.appendingPathComponent(export).path)
            return try batch.run([person]).people[0].outcome
        }
        let earlier = root.appendingPathComponent("earlier")
        let reference = root.appendingPathComponent("reference")
        #expect(try batch(earlier, "a.xml") == .done)
        #expect(try batch(reference, "b.xml") == .done)
        let old = LinkSwap.files(in: earlier.appendingPathComponent("person=p"))
        let new = LinkSwap.files(in: reference.appendingPathComponent("person=p"))
        #expect(old["daily.csv"] != nil && new["daily.csv"] != nil && old["daily.csv"] != new["daily.csv"])
        let before = canary.snapshot()

        for place in LinkSwap.Place.allCases {
            for step in Self.steps {
                let out = root.appendingPathComponent("out-\(place)-\(step.name)")
                try FileManager.default.copyItem(at: earlier, to: out)
                let swapper = LinkSwap.Swapper(at: step.name, place, of: "person=p", in: out, to: canary.folder)
                let outcome = try batch(out, "b.xml") { _, step in swapper.hook(step.name) }
                let scene = "\(place) at \(step.name): \(outcome)"
                let swapped = swapper.swapped ?? ""
                // At `cleaned` the staging folder is gone: nothing to swap there.
                #expect(!swapped.isEmpty || (place == .staging && step == .cleaned), "\(scene)")
                #expect(canary.changes(since: before).isEmpty, "\(scene): \(canary.changes(since: before))")
                var failure: String?
                if case .failed(let reason) = outcome { failure = reason }
                let problems = LinkSwap.problems(in: out, name: "person=p", old: old, new: new, failure: failure)
                #expect(problems.isEmpty, "\(scene): \(problems)")
            }
        }
    }

    /// `cohort/` as batch and cohort write it (`FileSetWriter`, every file streamed into the
    /// staging folder by path): a link to the canary swapped in at `cohort` or its staging
    /// folder's name between two files, and at each step after.
    @Test func aLinkSwappedInAtTheCohortFolderIsNeverFollowed() throws {
        let root = try TestScratch.folder("link-swap-cohort")
        let canary = try LinkCanary(in: root)
        let old = ["people.csv": Data("person\na\n".utf8), "days.csv": Data("date\n2025-01-01\n".utf8)]
        let new = ["people.csv": Data("person\nb\n".utf8), "days.csv": Data("date\n2025-02-02\n".utf8)]
        let names = ["days.csv", "people.csv"]
        /// Writes `set` as the cohort does: each file created by path under the staging path,
        /// `O_CREAT | O_EXCL | O_NOFOLLOW`; `between` runs after the first file.
        func write(_ set: [String: Data], into out: URL, swapper: LinkSwap.Swapper?, between: () -> Void = {})
            -> String?
        {
            var writer = FileSetWriter(owns: { _ in true })
            if let swapper { writer.stepHook = { swapper.hook($0.name) } }
            do {
                try writer.write(names: names, to: out.appendingPathComponent("cohort").path) {
                    (staging: String) throws(ReportError) in
                    for (k, name) in names.enumerated() {
                        let fd = open(staging + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                        guard fd >= 0 else { throw .cannotWriteFile(path: name, .current) }
                        let bytes = [UInt8](set[name]!)
                        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                        close(fd)
                        guard written == bytes.count else { throw .cannotWriteFile(path: name, .current) }
                        if k == 0 { between() }
                    }
                }
                return nil
            } catch {
                return error.description
            }
        }
        let earlier = root.appendingPathComponent("earlier")
        try FileManager.default.createDirectory(at: earlier, withIntermediateDirectories: true)
        #expect(write(old, into: earlier, swapper: nil) == nil)
        #expect(LinkSwap.files(in: earlier.appendingPathComponent("cohort")) == old)
        let before = canary.snapshot()

        // `staged:days.csv` stands for the swap between two files (the streamed write has no
        // hook of its own there).
        for place in LinkSwap.Place.allCases {
            for step in [OutputStep.staged("days.csv"), .allStaged, .swapped, .cleaned] {
                let out = root.appendingPathComponent("out-\(place)-\(step.name)")
                try FileManager.default.copyItem(at: earlier, to: out)
                let swapper = LinkSwap.Swapper(at: step.name, place, of: "cohort", in: out, to: canary.folder)
                let failure = write(new, into: out, swapper: swapper) { swapper.hook("staged:days.csv") }
                let scene = "\(place) at \(step.name): \(failure ?? "written")"
                let swapped = swapper.swapped ?? ""
                #expect(!swapped.isEmpty || (place == .staging && step == .cleaned), "\(scene)")
                #expect(canary.changes(since: before).isEmpty, "\(scene): \(canary.changes(since: before))")
                let problems = LinkSwap.problems(in: out, name: "cohort", old: old, new: new, failure: failure)
                #expect(problems.isEmpty, "\(scene): \(problems)")
            }
        }
    }
}

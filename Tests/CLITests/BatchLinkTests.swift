import Foundation
import TestSupport
import Testing

/// A symbolic link planted at a name `batch` and `cohort` own inside `--out` (a person folder,
/// `cohort`, `.status`, `.listings`) is refused with one line and exit 1, never followed
/// (docs/batch.md §6). Each test points the link at a canary folder outside `--out` that holds a
/// `daily.csv` and a note, and checks that nothing there changed: the same files, bytes and
/// modification times, and nothing new (no lock file beside it, no staging folder, no record).
@Suite("Batch: links at the tool's own names")
struct BatchLinkTests {
    /// A study of three good people (BatchCLITests.Study without the damaged ones) and a canary
    /// beside it.
    static func setUp() throws -> (BatchCLITests.Study, LinkCanary) {
        let study = try BatchCLITests.Study(damaged: false)
        return (study, try LinkCanary(in: study.root))
    }

    static func link(_ out: URL, _ name: String, to target: URL) throws {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent(name).path, withDestinationPath: target.path)
    }

    /// The refusal: one line on standard error naming the link, exit 1 (could not start).
    static func expectRefused(_ r: Run, _ out: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(
            lines.first?.hasPrefix("error: \(out.path)/\(name): a symbolic link; ") == true, "\(r.stderr)",
            sourceLocation: sourceLocation)
    }

    /// `person=p-0` → canary folder: before, the batch resolved the link, wrote p-0's report into
    /// the canary (its daily.csv replaced) and made `.victim.lock` and a staging folder beside it.
    @Test func aPersonFolderLinkIsRefusedAndItsTargetUntouched() throws {
        let (study, canary) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: study.root) }
        try Self.link(study.out, "person=p-0", to: canary.folder)
        let before = canary.snapshot()
        #expect(before.count == 4)  // victim/, its two files, victim.json
        let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        Self.expectRefused(r, study.out, "person=p-0")
        #expect(canary.snapshot() == before)
        // Refused before any person: no report and no record for anyone.
        #expect(!FileManager.default.fileExists(atPath: study.person("p-1").path))
        let c = try run(["cohort", study.out.path])
        Self.expectRefused(c, study.out, "person=p-0")
        #expect(canary.snapshot() == before)
    }

    /// `.status` → canary folder: before, every person's record was written into it.
    @Test func aStatusFolderLinkIsRefused() throws {
        let (study, canary) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: study.root) }
        try Self.link(study.out, ".status", to: canary.folder)
        let before = canary.snapshot()
        let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        Self.expectRefused(r, study.out, ".status")
        #expect(canary.snapshot() == before)
    }

    /// `cohort` and `.listings` → canary folder, for `batch` and for `cohort` alone.
    @Test func cohortAndListingLinksAreRefused() throws {
        let (study, canary) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: study.root) }
        let first = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = canary.snapshot()
        let cohort = study.out.appendingPathComponent("cohort")
        try FileManager.default.removeItem(at: cohort)
        try Self.link(study.out, "cohort", to: canary.folder)
        let c = try run(["cohort", study.out.path])
        Self.expectRefused(c, study.out, "cohort")
        let b = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1", "--force"])
        Self.expectRefused(b, study.out, "cohort")
        #expect(canary.snapshot() == before)
        try FileManager.default.removeItem(at: cohort)
        let listings = study.out.appendingPathComponent(".listings")
        try FileManager.default.removeItem(at: listings)
        try Self.link(study.out, ".listings", to: canary.folder)
        let l = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        Self.expectRefused(l, study.out, ".listings")
        #expect(canary.snapshot() == before)
    }

    /// `--prune` with a withdrawn person whose folder is a link to the canary, and a status
    /// record that is a link to the canary's file: refused, nothing removed through the link.
    /// A status record link alone (no link at a top-level name) is not read and, on prune,
    /// removed as a link: its target stays.
    @Test func pruneNeverRemovesThroughALink() throws {
        let (study, canary) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: study.root) }
        let first = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = canary.snapshot()
        try Self.link(study.out, "person=withdrawn", to: canary.folder)
        try FileManager.default.createSymbolicLink(
            atPath: study.out.appendingPathComponent(".status/withdrawn.json").path,
            withDestinationPath: canary.file.path)
        let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--prune"])
        Self.expectRefused(r, study.out, "person=withdrawn")
        #expect(canary.snapshot() == before)
        try FileManager.default.removeItem(at: study.out.appendingPathComponent("person=withdrawn"))
        // The record link alone: the cohort does not read it (no `withdrawn` row), prune removes the link.
        let c = try run(["cohort", study.out.path])
        #expect(c.status == 0, "\(c.stderr)")
        let people = try String(contentsOf: study.out.appendingPathComponent("cohort/people.csv"), encoding: .utf8)
        #expect(!people.contains("withdrawn"))
        let p = try run(["batch", study.manifest.path, "--out", study.out.path, "--prune"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stdout.contains("removed \(study.out.path)/.status/withdrawn.json"))
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: study.out.path + "/.status/withdrawn.json"))
                == nil)
        #expect(canary.snapshot() == before)
    }
}

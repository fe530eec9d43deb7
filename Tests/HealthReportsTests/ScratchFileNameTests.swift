import Foundation
import TestSupport
import Testing

@testable import HealthReports
@testable import HealthTables

/// The scratch file has no name from the start where the file system allows (`O_TMPFILE`), and
/// named scratch files that killed runs left are removed by the next one.
@Suite("Scratch file names")
struct ScratchFileNameTests {
    /// What `/proc/self/fd/<fd>` says about the descriptor's file: for an `O_TMPFILE` file
    /// `<dir>/#<inode> (deleted)`, for a file created with a name and unlinked
    /// `<dir>/health-analyzer-scratch-XXXXXX (deleted)`.
    static func link(of descriptor: Int32) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// On main the file was made by `mkstemp` (a name for a moment: a kill then left it). The
    /// test's folder is on the same file system as `$TMPDIR`; when that file system has no
    /// `O_TMPFILE` the test says so and checks only that the file has no name.
    @Test func theScratchFileNeverHasAName() throws {
        let dir = try TestScratch.folder("ha-scratch")
        let file = try TemporaryScratchFile(directory: dir.path)
        let target = try Self.link(of: file.descriptor)
        #expect(target.hasSuffix(" (deleted)"), "\(target)")
        #expect(!target.contains("health-analyzer-scratch-"), "made with a name: \(target)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir.path)) == [])
    }

    /// Three files named like a scratch file: one of ours 2 hours old (a killed run's: removed),
    /// one of ours 5 seconds old (within `staleAge` = 60 s: kept) and a link of that name to
    /// an old file outside (never followed: kept, and its target too); plus an old file with a
    /// longer name (not a `mkstemp` name: kept).
    @Test func staleNamedScratchFilesOfOursAreRemoved() throws {
        let dir = try TestScratch.folder("ha-scratch")
        let fm = FileManager.default
        func make(_ name: String, age: TimeInterval) throws -> URL {
            let url = dir.appendingPathComponent(name)
            try Data([1, 2, 3]).write(to: url)
            try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
            return url
        }
        let stale = try make("health-analyzer-scratch-Ab12Cd", age: 7200)
        let fresh = try make("health-analyzer-scratch-Ef34Gh", age: 5)
        let longer = try make("health-analyzer-scratch-Ab12Cd.keep", age: 7200)
        let outside = try TestScratch.folder("ha-scratch-outside").appendingPathComponent("target")
        try Data([9]).write(to: outside)
        try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: outside.path)
        let link = dir.appendingPathComponent("health-analyzer-scratch-Ij56Kl")
        try fm.createSymbolicLink(at: link, withDestinationURL: outside)

        _ = try TemporaryScratchFile(directory: dir.path)
        #expect(!fm.fileExists(atPath: stale.path))
        #expect(fm.fileExists(atPath: fresh.path) && fm.fileExists(atPath: longer.path))
        #expect((try? fm.destinationOfSymbolicLink(atPath: link.path)) == outside.path)
        #expect(fm.fileExists(atPath: outside.path))
    }
}

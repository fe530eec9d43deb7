import Foundation
import Testing

/// What `scripts/setup` and `scripts/install` ask of a person's machine (docs/install.md §2).
@Suite("Setup and install scripts")
struct SetupScriptTests {
    static func packages(_ arguments: [String]) throws -> [String] {
        let r = try runTool(packageRoot.appendingPathComponent("scripts/setup").path, arguments + ["--print"])
        try #require(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// The default installs the build's own packages (and tzdata, which the zone candidates are
    /// read from at run time) and nothing the tests use: no shells, no Slurm or munge (whose
    /// daemons Debian enables at boot), no browser, no mmdebstrap.
    @Test func setupInstallsOnlyTheBuildsPackagesUnlessAskedForTheTests() throws {
        #expect(
            try Self.packages([]) == ["libarchive-dev", "libsqlite3-dev", "libxml2-dev", "pkg-config", "tzdata"])
        let test = try Self.packages(["--test"])
        for p in ["zsh", "fish", "slurm-wlm", "munge", "chromium", "mmdebstrap", "sqlite3", "python3-venv"] {
            #expect(test.contains(p), "\(p) missing from scripts/setup --test")
        }
        #expect(try Self.packages(["--package"]).contains("dpkg-dev"))
    }

    /// Without `swift` on the PATH, install stops before building with one line that says where
    /// to get Swift and that the release packages need none.
    @Test func installWithoutSwiftSaysWhereToGetItInOneLine() throws {
        let r = try runTool(
            "env",
            ["PATH=/usr/bin:/bin", "bash", packageRoot.appendingPathComponent("scripts/install").path, "/nonexistent"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("https://www.swift.org/install/linux/") && r.stderr.contains("need none"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
    }
}

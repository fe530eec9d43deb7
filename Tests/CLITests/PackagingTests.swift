import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The release packages as a person without Swift gets them: `scripts/package` builds the
/// tarball, the .deb and the wheel into dist/ (or dist/ already holds them for this commit), and
/// `scripts/check-packages` installs each into its own fresh minimal Debian 12 root (mmdebstrap,
/// no Swift, no -dev package; cached in ~/.cache/health-analyzer, see docs/install.md §4) and
/// runs each on this machine with the toolchain's folder hidden. Every one of the six must write
/// the committed sample report byte for byte and print the source build's `--version`.
@Suite("Packages", .serialized)
struct PackagingTests {
    /// Why the packages cannot be tried here, or nil. Debian's mirror is needed (mmdebstrap, and
    /// apt installing the .deb's Depends), and root (chroot, mount namespaces).
    static let unavailableReason: String? = {
        if geteuid() != 0 && !SlurmCluster.isCI {
            return "the fresh-root packaging test needs root (chroot, mount namespaces)"
        }
        let probe = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ha-mirror-\(getpid())")
        defer { try? FileManager.default.removeItem(at: probe) }
        let url = "http://deb.debian.org/debian/dists/bookworm/InRelease"
        let r = try? runTool("timeout", ["30", "/usr/lib/apt/apt-helper", "download-file", url, probe.path])
        if r?.status != 0 { return "Debian's package mirror cannot be reached (\(url)): \(r?.stderr ?? "")" }
        return nil
    }()

    /// The six places a package ran: three fresh Debian 12 roots, three runs with /opt/swift hidden.
    static let roots = ["deb", "tar", "wheel"]
    static let hidden = ["host-deb", "host-tar", "host-wheel"]

    @Test(
        .enabled(
            if: unavailableReason == nil,
            Comment(rawValue: "Packaging test skipped: \(unavailableReason ?? "")")),
        .timeLimit(.minutes(40)))
    func eachPackageWritesTheSampleReportOnAFreshDebianWithoutSwift() throws {
        let source = try run(["--version"])
        try #require(source.status == 0)
        let dist = packageRoot.appendingPathComponent("dist")
        let built = try? String(contentsOf: dist.appendingPathComponent("version.txt"), encoding: .utf8)
        // dist/ is reused only for a clean commit it was built at ("+changes" always rebuilds).
        if built != source.stdout || source.stdout.contains("+changes") {
            let start = Date()
            let package = try runTool(packageRoot.appendingPathComponent("scripts/package").path, [])
            try #require(package.status == 0, "scripts/package failed:\n\(package.stderr.suffix(3000))")
            print("scripts/package: \(Int(Date().timeIntervalSince(start))) s\n\(package.stdout)")
        }
        let stamped = try String(contentsOf: dist.appendingPathComponent("version.txt"), encoding: .utf8)
        #expect(stamped == source.stdout)

        // Each package names its licence and the third-party notices (docs/install.md).
        let names = files(in: dist)
        let tarball = try #require(names.first { $0.hasSuffix(".tar.gz") })
        let deb = try #require(names.first { $0.hasSuffix(".deb") })
        let wheelFile = try #require(names.first { $0.hasSuffix(".whl") })
        let tarList = try runTool("tar", ["-tzf", dist.appendingPathComponent(tarball).path]).stdout
        #expect(tarList.contains("share/doc/health-analyzer/LICENSE\n"))
        #expect(tarList.contains("share/doc/health-analyzer/THIRD-PARTY-NOTICES\n"))
        let debList = try runTool("dpkg-deb", ["-c", dist.appendingPathComponent(deb).path]).stdout
        #expect(debList.contains("./usr/share/doc/health-analyzer/copyright\n"))
        #expect(debList.contains("./usr/share/doc/health-analyzer/THIRD-PARTY-NOTICES\n"))
        let wheelList = try runTool("python3", ["-m", "zipfile", "-l", dist.appendingPathComponent(wheelFile).path])
            .stdout
        #expect(wheelList.contains(".dist-info/licenses/LICENSE "))
        #expect(wheelList.contains(".dist-info/licenses/THIRD-PARTY-NOTICES "))

        let out = try temporaryFolder()
        let start = Date()
        let check = try runTool(packageRoot.appendingPathComponent("scripts/check-packages").path, [out.path])
        try #require(
            check.status == 0, "scripts/check-packages failed (\(check.status)):\n\(check.stdout)\(check.stderr)")
        print("scripts/check-packages: \(Int(Date().timeIntervalSince(start))) s")

        let committed = packageRoot.appendingPathComponent("reports")
        let expected = files(in: committed)
        #expect(expected.contains("daily.csv"))
        for name in Self.roots + Self.hidden {
            let dir = out.appendingPathComponent(name)
            let version = try String(contentsOf: dir.appendingPathComponent("version.txt"), encoding: .utf8)
            #expect(version == source.stdout, "\(name): --version")
            let reports = dir.appendingPathComponent("reports")
            #expect(files(in: reports) == expected, "\(name): the report's files")
            for file in expected {
                let a = try Data(contentsOf: committed.appendingPathComponent(file))
                let b = try? Data(contentsOf: reports.appendingPathComponent(file))
                #expect(a == b, "\(name): \(file) differs from reports/\(file)")
            }
        }

        func facts(_ name: String) throws -> [String] {
            try String(contentsOf: out.appendingPathComponent("\(name)/facts.txt"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        // Each root: no Swift anywhere, not one -dev package, no toolchain folder.
        for name in Self.roots {
            let f = try facts(name)
            #expect(f.starts(with: ["swift: none", "dev packages: 0", "/opt/swift: absent"]), "\(name): \(f)")
        }
        #expect(try facts("deb").contains("binary: /usr/bin/health-analyzer"))
        #expect(try facts("tar").contains("binary: /usr/local/bin/health-analyzer"))
        let wheel = try facts("wheel")
        // The wheel runs on the libraries it carries: Debian's libxml2 and libarchive13 are absent.
        #expect(wheel.contains("libxml2: not installed"), "\(wheel)")
        #expect(wheel.contains("libarchive13: not installed"), "\(wheel)")
        #expect(wheel.contains("binary: /opt/venv/bin/health-analyzer"), "\(wheel)")
        // The entry point is the binary itself (os.execv): a missing input fails with the binary's
        // own exit code, stdout and stderr, and ^C (SIGINT, 2) ends it with 128 + 2 = 130 and
        // leaves --out absent, as the binary does when run directly.
        #expect(wheel.contains("entry point process runs: the binary"), "\(wheel)")
        #expect(wheel.contains("after SIGINT: exit 130, --out absent"), "\(wheel)")
        #expect(wheel.contains("missing input: same stdout and stderr: yes"), "\(wheel)")
        let missing = try #require(wheel.first { $0.hasPrefix("missing input: entry point exit") })
        let codes = missing.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(codes.count == 2 && codes[0] == codes[1] && codes[0] != 0, "\(missing)")
        // On this machine: the toolchain's folder was really hidden (empty, `swift` fails).
        for name in Self.hidden {
            let f = try facts(name)
            #expect(f.contains("toolchain folder entries: 0") && f.contains("swift --version: fails"), "\(name): \(f)")
        }
    }
}

import CHealthSAX
import CLibArchive

/// What a bug report needs about the build: the commit the binary was built from and the
/// versions of the C libraries it runs with (their run-time functions, not the headers it was
/// compiled against).
public enum LinkedLibraries {
    /// libxml2's `xmlParserVersion`, e.g. `2.9.14`.
    public static var libxml2: String { String(cString: hsax_libxml2_version()) }

    /// libarchive's `archive_version_number()`, e.g. `3.6.2`.
    public static var libarchive: String {
        let v = Int(archive_version_number())
        return "\(v / 1_000_000).\(v / 1000 % 1000).\(v % 1000)"
    }

    /// The commit (12 hex digits, `+changes` when the tree differed) that scripts/stamp-commit
    /// recorded before the build, or nil for a build without it (`swift build` alone).
    public static var buildCommit: String? { hsax_build_commit().map { String(cString: $0) } }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tests put the files they write: one folder per test process,
/// `health-analyzer-tests-<pid>` in the system's temporary directory (`$TMPDIR`, else `/tmp`),
/// removed when the process exits. A test run leaves nothing behind; a run that crashed leaves
/// its folder until the next run, which removes the folders of processes no longer alive.
public enum TestScratch {
    /// The process's folder, made (and its removal at exit arranged) on first use.
    public static let root: URL = {
        let base = FileManager.default.temporaryDirectory
        removeFoldersOfDeadProcesses(in: base)
        let url = base.appendingPathComponent("\(rootPrefix)\(getpid())")
        try? FileManager.default.removeItem(at: url)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the tests' scratch folder \(url.path): \(error)")
        }
        atexit { TestScratch.removeRoot() }
        return url
    }()

    /// A fresh empty folder `<prefix>-<UUID>` in `root`.
    /// - Throws: the error of `FileManager.createDirectory`.
    public static func folder(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The path of a new file `<prefix>-<UUID><suffix>` in `root` (not created).
    public static func file(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    private static let rootPrefix = "health-analyzer-tests-"

    private static func removeRoot() {
        let path = root.path
        // Tests make folders read-only (to provoke write errors); give write permission back
        // so that everything can be removed.
        if let walker = FileManager.default.enumerator(atPath: path) {
            for case let name as String in walker { _ = chmod(path + "/" + name, 0o700) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func removeFoldersOfDeadProcesses(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix(rootPrefix) {
            guard let pid = Int32(name.dropFirst(rootPrefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno != ESRCH { continue }
            try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
        }
    }
}

import HealthReports
import HealthTables
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Small POSIX file helpers for the tests (no Foundation needed).

/// A fresh empty directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() {
        var template = Array("/tmp/health-reports-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed: errno \(errno)")
        path = String(cString: created!)
    }

    func appending(_ component: String) -> String { path + "/" + component }

    deinit {
        removeTree(path)
        _ = unlink(OutputFolder.lockFile(of: path))
    }
}

/// Removes a file or a directory tree (`rm -rf`), restoring write permission first.
func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR {
        _ = chmod(path, 0o700)
        for name in directoryEntries(path) { removeTree(path + "/" + name) }
        _ = rmdir(path)
    } else {
        _ = unlink(path)
    }
}

/// The names in a directory (without `.` and `..`), sorted.
func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// The contents of a file as UTF-8 text, or nil when it cannot be read.
func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to `path`, replacing it; fails the test on error.
func writeFile(_ path: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let file = fopen(path, "wb") else {
        Issue.record("cannot open \(path) for writing: errno \(errno)", sourceLocation: sourceLocation)
        return
    }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    if fwrite(bytes, 1, bytes.count, file) != bytes.count {
        Issue.record("cannot write \(path)", sourceLocation: sourceLocation)
    }
}

func makeDirectory(_ path: String) {
    precondition(mkdir(path, 0o755) == 0, "mkdir \(path) failed: errno \(errno)")
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// The golden file `Golden/<name>` next to this test target's sources.
///
/// Golden files are located relative to `#filePath` rather than declared as resources (which
/// would need Package.swift). A test run never rewrites them: `scripts/update-goldens` runs the
/// golden tests with `HEALTH_ANALYZER_GOLDEN_OUT=<folder>`, where each test writes its output
/// (and compares nothing), then copies that folder over `Golden/` and fails when a golden changed
/// without being committed. `UPDATE_GOLDEN`, the old way to rewrite them in place, fails the test.
func expectMatchesGolden(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    // filePath is …/Tests/HealthReportsTests/<File>.swift
    let testsDirectory = String(filePath[..<filePath.lastIndex(of: "/")!])
    let golden = testsDirectory + "/Golden/" + name
    if getenv("UPDATE_GOLDEN") != nil {
        Issue.record(
            "UPDATE_GOLDEN is set: tests no longer rewrite golden files; run scripts/update-goldens instead",
            sourceLocation: sourceLocation)
        return
    }
    if let out = getenv("HEALTH_ANALYZER_GOLDEN_OUT").map({ String(cString: $0) }), !out.isEmpty {
        writeFile(out + "/" + name, actual, sourceLocation: sourceLocation)
        return
    }
    guard let expected = readFile(golden) else {
        Issue.record(
            "missing golden file \(golden); run scripts/update-goldens to record it", sourceLocation: sourceLocation)
        return
    }
    if actual != expected {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
        let line = firstDifference?.offset ?? min(actualLines.count, expectedLines.count)
        Issue.record(
            """
            \(name) differs from its golden file at line \(line + 1):
              expected: \(line < expectedLines.count ? String(expectedLines[line]) : "<end of file>")
              actual:   \(line < actualLines.count ? String(actualLines[line]) : "<end of file>")
            (run scripts/update-goldens, review the diff and commit it to accept the new output)
            """, sourceLocation: sourceLocation)
    }
}

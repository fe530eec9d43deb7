import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Python virtual environment that the tests make for the real clients people read our files
/// with (DuckDB from PyPI): `.build/test-venv` in the package, made on first use and kept for
/// later runs. Test processes that ask at once wait for each other (a lock file beside it).
public enum PythonPackages {
    /// The folder of the environment.
    public static let environment: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/test-venv")

    /// The environment's `python`, with `package` installed from PyPI (`pip install`) if it is not
    /// there yet.
    ///
    /// - Throws: `PythonPackagesError` when the environment cannot be made or the package cannot
    ///   be installed (no `python3 -m venv`, no network to PyPI): the test that needs it fails.
    public static func python(with package: String) throws -> URL {
        let python = environment.appendingPathComponent("bin/python")
        let lockPath = environment.path + ".lock"
        try FileManager.default.createDirectory(
            at: environment.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard lock >= 0 else { throw PythonPackagesError(message: "cannot open \(lockPath)") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        if !FileManager.default.isExecutableFile(atPath: python.path) {
            try run("/usr/bin/env", ["python3", "-m", "venv", environment.path])
        }
        let module = package.replacingOccurrences(of: "-", with: "_")
        if (try? run(python.path, ["-c", "import \(module)"])) == nil {
            try run(python.path, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", package])
        }
        return python
    }

    /// Runs `python` on `script` with `arguments`, in `directory`; its standard output.
    /// - Throws: `PythonPackagesError` with the script's standard error when it exits non-zero.
    public static func runScript(_ python: URL, _ script: String, arguments: [String] = [], in directory: URL? = nil)
        throws -> String
    {
        try run(python.path, ["-c", script] + arguments, in: directory)
    }

    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw PythonPackagesError(
                message: "\(([executable] + arguments).joined(separator: " ")) exited \(p.terminationStatus): "
                    + String(decoding: e, as: UTF8.self))
        }
        return String(decoding: o, as: UTF8.self)
    }
}

/// Why the tests' Python environment could not be had.
public struct PythonPackagesError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

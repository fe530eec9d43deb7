import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// generate-export's calls into the C library (the output files and the process), in one file:
// the only file of this tool that imports it (docs/architecture.md).

/// A file the generator writes, or standard output for `-`: buffered writes, each checked.
final class OutputFile {
    let path: String
    private let file: UnsafeMutablePointer<FILE>

    /// Opens (creates or truncates) `path` for writing; `-` is standard output.
    /// - Throws: `OutputFileError` with the C library's reason.
    init(_ path: String) throws {
        self.path = path
        if path == "-" {
            guard let f = fdopen(1, "wb") else { throw OutputFileError(path: path, reason: Self.reason()) }
            file = f
        } else {
            guard let f = fopen(path, "wb") else { throw OutputFileError(path: path, reason: Self.reason()) }
            file = f
        }
    }

    /// Writes all of `bytes`. - Throws: `OutputFileError` when the C library writes fewer.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if fwrite(base, 1, bytes.count, file) != bytes.count {
            throw OutputFileError(path: path, reason: Self.reason())
        }
    }

    /// Flushes and (unless it is standard output) closes the file.
    /// - Throws: `OutputFileError` when the flush or the close fails.
    func close() throws {
        if fflush(file) != 0 { throw OutputFileError(path: path, reason: Self.reason()) }
        if path != "-" && fclose(file) != 0 { throw OutputFileError(path: path, reason: Self.reason()) }
    }

    private static func reason() -> String { Errno.current.text }
}

/// Why an output file could not be written: its path and the C library's `strerror` text.
struct OutputFileError: Error {
    var path: String
    var reason: String
}

/// Ends the process with `code`.
func exitProcess(_ code: Int32) -> Never { exit(code) }

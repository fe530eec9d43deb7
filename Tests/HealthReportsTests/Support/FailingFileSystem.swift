@testable import HealthReports
@testable import HealthTables

/// The real file system, except that one chosen operation on one report file fails with a
/// chosen `errno`, the way a full disk or a revoked permission would.
struct FailingFileSystem: ReportFileSystem {
    enum Failure: Sendable {
        /// Creating the temporary file for the report file fails before anything is written.
        case create
        /// The temporary file is created and half of its contents written, then writing fails.
        case writeHalfway
        /// Swapping the complete staging folder with the output folder fails (`fileName` is
        /// not looked at).
        case swap
        /// Nothing may be created in any folder (`access(2)` fails, as on a read-only file
        /// system; `fileName` is not looked at).
        case noEntries
    }

    let fileName: String
    let failure: Failure
    let errno: Int32
    let real = POSIXFileSystem()

    private func isTarget(_ name: String) -> Bool { name == fileName }

    func status(of path: String) throws(ReportError.Errno) -> PathStatus { try real.status(of: path) }
    func makeDirectory(_ path: String) throws(ReportError.Errno) { try real.makeDirectory(path) }

    func createFile(_ name: String, in folder: Int32, contents text: String) throws(ReportError.Errno) {
        guard isTarget(name) else { return try real.createFile(name, in: folder, contents: text) }
        switch failure {
        case .create:
            throw ReportError.Errno(rawValue: errno)
        case .writeHalfway:
            try real.createFile(name, in: folder, contents: String(text.prefix(text.count / 2)))
            throw ReportError.Errno(rawValue: errno)
        case .swap, .noEntries:
            try real.createFile(name, in: folder, contents: text)
        }
    }

    func rename(_ name: String, to newName: String, in folder: Int32) throws(ReportError.Errno) {
        if failure == .swap { throw ReportError.Errno(rawValue: errno) }
        try real.rename(name, to: newName, in: folder)
    }

    func exchange(_ first: String, _ second: String, in folder: Int32) throws(ReportError.Errno) {
        if failure == .swap { throw ReportError.Errno(rawValue: errno) }
        try real.exchange(first, second, in: folder)
    }

    func checkCanCreateEntries(in path: String) throws(ReportError.Errno) {
        if failure == .noEntries { throw ReportError.Errno(rawValue: errno) }
        try real.checkCanCreateEntries(in: path)
    }

    func removeFile(_ name: String, in folder: Int32) { real.removeFile(name, in: folder) }
    func syncFolder(_ folder: Int32) { real.syncFolder(folder) }
}

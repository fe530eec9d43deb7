import HealthAnalysis
import HealthExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a report shows beyond the analysis result itself.
public struct ReportOptions: Hashable, Sendable {
    /// How many of the last weeks `report.md` shows in its weekly table (all weeks are in
    /// `weekly.csv`).
    public var weeksInReport: Int
    /// How many days with an ActivitySummary disagreement `report.md` lists before it cuts the
    /// table short (all days are in `daily.csv`'s `summary_*` columns).
    public var maxDisagreementRows: Int

    public init(weeksInReport: Int = 8, maxDisagreementRows: Int = 50) {
        self.weeksInReport = weeksInReport
        self.maxDisagreementRows = maxDisagreementRows
    }
}

/// The files a report consists of, in the order they are written.
public enum ReportFile: String, CaseIterable, Hashable, Sendable {
    case daily = "daily.csv"
    case weekly = "weekly.csv"
    case monthly = "monthly.csv"
    case standHours = "stand_hours.csv"
    case sources = "sources.csv"
    case sleep = "sleep.csv"
    case workouts = "workouts.csv"
    case report = "report.md"
    case schema = "schema.sql"
    case json = "report.json"

    /// The file's name in the output directory.
    public var fileName: String { rawValue }
}

/// Renders an `AnalysisResult` as CSV files and a Markdown report, and writes them into a
/// directory without ever leaving a half-written file behind.
///
/// The text of every file is a pure function of the result, the context and the options: the
/// same input gives byte-identical files (nothing depends on the current time, the locale or
/// the machine). The CSV conventions are described in `CSVTable.swift`: LF line endings,
/// `true`/`false`, `.` decimals, empty cells for missing values.
public struct ReportWriter: Sendable {
    public var options: ReportOptions
    let fileSystem: any ReportFileSystem

    public init(options: ReportOptions = .init()) {
        self.init(options: options, fileSystem: POSIXFileSystem())
    }

    /// A writer using `fileSystem` for every file operation (tests inject failures with it).
    init(options: ReportOptions, fileSystem: any ReportFileSystem) {
        self.options = options
        self.fileSystem = fileSystem
    }

    /// The text of one report file.
    public func text(of file: ReportFile, for result: AnalysisResult, context: ReportContext) -> String {
        switch file {
        case .daily: return dailyCSV(result)
        case .weekly: return weeklyCSV(result)
        case .monthly: return monthlyCSV(result)
        case .standHours: return standHoursCSV(result)
        case .sources: return sourcesCSV(result)
        case .sleep: return sleepCSV(result)
        case .workouts: return workoutsCSV(result, routes: context.routes)
        case .report: return markdownReport(result, context: context)
        case .schema: return schemaSQL()
        case .json: return reportJSON(result, context: context)
        }
    }

    /// Writes every `ReportFile` (the CSV files, `report.md`, `schema.sql`, `report.json`) and the
    /// charts that have data (`chart_*.svg`, linked from `report.md`) into `directory`, creating it
    /// (and missing parents) first.
    ///
    /// All files are first written completely, each to a hidden temporary file in
    /// `directory` (`.daily.csv.tmp-…`) and flushed to disk; only when all are complete are
    /// they renamed over the existing files, one by one. So a failed write replaces nothing and
    /// removes its temporary files: an earlier report in `directory` stays as it was. Only an
    /// interruption between the renames (or a rename failing, which needs e.g. a directory
    /// in the way) can leave a mix of new and old complete files; a process killed while writing
    /// can leave a hidden temporary file, never a partial report file.
    ///
    /// - Parameters:
    ///   - result: The analysis to render.
    ///   - context: The input and generator named in `report.md`.
    ///   - directory: The output directory; `""` is the current directory.
    /// - Returns: The paths written, in `ReportFile.allCases` order.
    /// - Throws: `ReportError`, naming the path and the OS error.
    @discardableResult
    public func write(_ result: AnalysisResult, context: ReportContext, to directory: String) throws(ReportError)
        -> [String]
    {
        // Render first: nothing touches the disk until every text exists.
        let texts =
            ReportFile.allCases.map { ($0.fileName, text(of: $0, for: result, context: context)) }
            + charts(result).map { ($0.fileName, $0.svg) }
        let directory = directory.isEmpty ? "." : directory
        try createDirectory(directory)

        var written: [(temporary: String, final: String)] = []
        for (fileName, text) in texts {
            let final = Self.join(directory, fileName)
            do {
                let temporary = try writeTemporaryFile(named: fileName, in: directory, contents: text)
                written.append((temporary, final))
            } catch {
                for file in written { fileSystem.removeFile(file.temporary) }
                throw .cannotWriteFile(path: final, error)
            }
        }
        for (index, file) in written.enumerated() {
            do {
                try fileSystem.rename(file.temporary, to: file.final)
            } catch {
                for rest in written[index...] { fileSystem.removeFile(rest.temporary) }
                fileSystem.syncDirectory(directory)
                throw .cannotReplaceFile(path: file.final, error)
            }
        }
        fileSystem.syncDirectory(directory)
        return written.map(\.final)
    }

    /// Creates a new hidden temporary file for `name` in `directory` with `contents`, and returns
    /// its path. On failure nothing is left behind.
    private func writeTemporaryFile(named name: String, in directory: String, contents: String)
        throws(ReportError.Errno) -> String
    {
        var attempts = 0
        while true {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = Self.join(directory, ".\(name).tmp-\(getpid())-\(suffix)")
            do {
                try fileSystem.createFile(path, contents: contents)
                return path
            } catch {
                attempts += 1
                // EEXIST: the name is taken (by a file we did not create): try another one.
                if error.rawValue == EEXIST, attempts < 8 { continue }
                if error.rawValue != EEXIST { fileSystem.removeFile(path) }
                throw error
            }
        }
    }

    /// Creates `directory` and its missing parents, like `mkdir -p`.
    private func createDirectory(_ directory: String) throws(ReportError) {
        let status: PathStatus
        do {
            status = try fileSystem.status(of: directory)
        } catch {
            throw .cannotCreateDirectory(path: directory, error)
        }
        switch status {
        case .directory:
            return
        case .notDirectory:
            throw .notADirectory(path: directory)
        case .missing:
            let parent = Self.parent(of: directory)
            if !parent.isEmpty, parent != directory { try createDirectory(parent) }
            do {
                try fileSystem.makeDirectory(directory)
            } catch {
                // Someone else created it in the meantime: fine if it is a directory.
                if error.rawValue == EEXIST, (try? fileSystem.status(of: directory)) == .directory { return }
                throw .cannotCreateDirectory(path: directory, error)
            }
        }
    }

    /// `directory/name`, without doubling a trailing slash.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The parent of `path` (`a/b/` → `a`, `/a` → `/`, `a` → ``).
    static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        return String(parent)
    }
}

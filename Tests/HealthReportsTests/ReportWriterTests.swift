import HealthExport
import Testing

@testable import HealthAnalysis
@testable import HealthReports
@testable import HealthTables

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of the sample result's report: the thirteen text files and the charts that have data
/// (steps, rings, stand hours, heart: the sample result has no sleep and no workout rows).
private let writtenFileNames =
    [
        "daily.csv", "weekly.csv", "monthly.csv", "stand_hours.csv", "sources.csv", "sleep.csv", "workouts.csv",
        "trends.csv", "report.md", "report.html", "schema.sql", "load-sqlite.sql", "load-duckdb.sql", "report.json",
    ] + ["chart_steps.svg", "chart_rings.svg", "chart_stand_hours.svg", "chart_heart.svg"]
private let reportFileNames = writtenFileNames.sorted()

/// Writes an "earlier report" into `directory`: one line per file naming it.
private func writeEarlierReport(into directory: String) {
    for name in reportFileNames { writeFile(directory + "/" + name, "earlier \(name)\n") }
}

private func expectEarlierReportUntouched(in directory: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(directoryEntries(directory) == reportFileNames, sourceLocation: sourceLocation)
    for name in reportFileNames {
        #expect(readFile(directory + "/" + name) == "earlier \(name)\n", sourceLocation: sourceLocation)
    }
}

@Suite("Writing a report")
struct ReportWriterTests {
    let result = makeSampleResult()
    let context = makeSampleContext()

    @Test func writesTheFiveFilesWithTheRenderedTexts() throws {
        let directory = TemporaryDirectory()
        let writer = ReportWriter()
        let paths = try writer.write(result, context: context, to: directory.path)
        #expect(
            paths
                == writtenFileNames.map { directory.path + "/" + $0 })
        #expect(directoryEntries(directory.path) == reportFileNames)
        #expect(readFile(directory.appending("daily.csv")) == writer.dailyCSV(result))
        #expect(readFile(directory.appending("weekly.csv")) == writer.weeklyCSV(result))
        #expect(readFile(directory.appending("stand_hours.csv")) == writer.standHoursCSV(result))
        #expect(readFile(directory.appending("sources.csv")) == writer.sourcesCSV(result))
        #expect(readFile(directory.appending("report.md")) == writer.markdownReport(result, context: context))
    }

    @Test func createsAMissingOutputDirectoryAndItsParents() throws {
        let directory = TemporaryDirectory()
        let output = directory.appending("reports/2025/january")
        let paths = try ReportWriter().write(result, context: context, to: output + "/")
        #expect(isDirectory(output))
        #expect(directoryEntries(output) == reportFileNames)
        #expect(paths.first == output + "/daily.csv")
    }

    @Test func replacesAnEarlierReportCompletely() throws {
        let directory = TemporaryDirectory()
        writeEarlierReport(into: directory.path)
        writeFile(directory.appending("notes.txt"), "mine\n")
        try ReportWriter().write(result, context: context, to: directory.path)
        #expect(directoryEntries(directory.path) == (reportFileNames + ["notes.txt"]).sorted())
        #expect(readFile(directory.appending("daily.csv")) == ReportWriter().dailyCSV(result))
        #expect(readFile(directory.appending("notes.txt")) == "mine\n")
    }

    @Test func regeneratingFromTheSameInputGivesByteIdenticalFiles() throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        try ReportWriter().write(makeSampleResult(), context: makeSampleContext(), to: first.path)
        try ReportWriter().write(makeSampleResult(), context: makeSampleContext(), to: second.path)
        // Each file holds what the writer renders for it (report.md and report.html with their
        // charts, as `write` renders them), in both folders.
        let writer = ReportWriter()
        let result = makeSampleResult()
        let context = makeSampleContext()
        let charts = writer.charts(result)
        let document = writer.reportDocument(result, context: context, charts: charts)
        for name in reportFileNames {
            let expected =
                name == ReportFile.report.fileName
                ? MarkdownRenderer.render(document)
                : name == ReportFile.html.fileName
                    ? HTMLRenderer.render(document)
                    : ReportFile(rawValue: name).map { writer.text(of: $0, for: result, context: context) }
                        ?? charts.first { $0.fileName == name }?.svg
            #expect(expected != nil, "\(name): not a file the writer renders")
            #expect(readFile(first.path + "/" + name) == expected, "\(name)")
            #expect(readFile(second.path + "/" + name) == expected, "\(name)")
        }
    }
}

@Suite("Atomic writing")
struct AtomicWritingTests {
    let result = makeSampleResult()
    let context = makeSampleContext()

    @Test(arguments: ["daily.csv", "weekly.csv", "report.md"])
    func aWriteFailingHalfwayLeavesTheEarlierReportAndNoTemporaryFile(fileName: String) {
        let directory = TemporaryDirectory()
        writeEarlierReport(into: directory.path)
        let writer = ReportWriter(
            options: .init(), fileSystem: FailingFileSystem(fileName: fileName, failure: .writeHalfway, errno: ENOSPC))
        #expect(throws: ReportError.cannotWriteFile(path: directory.appending(fileName), .init(rawValue: ENOSPC))) {
            try writer.write(result, context: context, to: directory.path)
        }
        expectEarlierReportUntouched(in: directory.path)
    }

    /// `checkDestination` (run before the export is read) names what `write` would stumble on,
    /// and creates nothing: a folder in which nothing can be created, for an existing output
    /// folder its parent, for a missing one (two levels deep) the nearest existing ancestor.
    @Test func theDestinationCheckNamesTheFolderThatCannotTakeEntries() {
        let directory = TemporaryDirectory()
        let writer = ReportWriter(
            options: .init(), fileSystem: FailingFileSystem(fileName: "", failure: .noEntries, errno: EROFS))
        let missing = directory.appending("new/out")
        #expect(throws: ReportError.cannotWriteInto(path: missing, folder: directory.path, .init(rawValue: EROFS))) {
            try writer.checkDestination(missing)
        }
        #expect(
            throws: ReportError.cannotWriteInto(
                path: directory.path, folder: OutputFolder.parent(of: directory.path), .init(rawValue: EROFS))
        ) {
            try writer.checkDestination(directory.path)
        }
        #expect(directoryEntries(directory.path) == [])
        // The real file system: a missing folder under a writable one is fine.
        #expect(throws: Never.self) { try ReportWriter().checkDestination(missing) }
        #expect(directoryEntries(directory.path) == [])
    }

    /// The lock file is `.<name>.lock` in the folder's parent, for absolute, trailing-slash and
    /// relative paths; a write leaves it there.
    @Test func theLockFileStandsBesideTheFolder() throws {
        #expect(OutputFolder.lockFile(of: "/a/b/out") == "/a/b/.out.lock")
        #expect(OutputFolder.lockFile(of: "/a/out/") == "/a/.out.lock")
        #expect(OutputFolder.lockFile(of: "out") == ".out.lock")
        let directory = TemporaryDirectory()
        try ReportWriter().write(result, context: context, to: directory.path)
        var info = stat()
        #expect(lstat(OutputFolder.lockFile(of: directory.path), &info) == 0)
    }

    @Test func aFailureInAnEmptyDirectoryLeavesItEmpty() {
        let directory = TemporaryDirectory()
        let writer = ReportWriter(
            options: .init(), fileSystem: FailingFileSystem(fileName: "sources.csv", failure: .create, errno: EDQUOT))
        #expect(throws: ReportError.cannotWriteFile(path: directory.appending("sources.csv"), .init(rawValue: EDQUOT)))
        {
            try writer.write(result, context: context, to: directory.path)
        }
        #expect(directoryEntries(directory.path) == [])
    }

    /// The swap is the one step that changes the output folder: when it fails, the earlier set
    /// is whole and the staging folder (in the parent) is gone.
    @Test func aFailedSwapLeavesTheEarlierReportAndNoStagingFolder() {
        let directory = TemporaryDirectory()
        writeEarlierReport(into: directory.path)
        let parent = OutputFolder.parent(of: directory.path)
        let staging = "." + directory.path.split(separator: "/").last! + ".tmp-"
        let writer = ReportWriter(
            options: .init(), fileSystem: FailingFileSystem(fileName: "", failure: .swap, errno: EIO))
        #expect(throws: ReportError.cannotReplaceFile(path: directory.path, .init(rawValue: EIO))) {
            try writer.write(result, context: context, to: directory.path)
        }
        expectEarlierReportUntouched(in: directory.path)
        #expect(directoryEntries(parent).filter { $0.hasPrefix(staging) } == [])
    }

    /// A folder in the output folder cannot be carried into the new one: the write stops before
    /// anything changes, and the folder and its contents stay.
    @Test func aFolderInTheOutputFolderStopsTheWriteBeforeAnythingChanges() throws {
        let directory = TemporaryDirectory()
        makeDirectory(directory.appending("report.md"))
        writeFile(directory.appending("report.md/keep.txt"), "keep\n")
        #expect(throws: ReportError.folderInTheWay(path: directory.appending("report.md"))) {
            try ReportWriter().write(result, context: context, to: directory.path)
        }
        #expect(directoryEntries(directory.path) == ["report.md"])
        #expect(readFile(directory.appending("report.md/keep.txt")) == "keep\n")
    }
}

@Suite("Write errors")
struct WriteErrorTests {
    let result = makeSampleResult()
    let context = makeSampleContext()

    @Test func anOutputPathThatIsAFileIsNotADirectory() {
        let directory = TemporaryDirectory()
        let file = directory.appending("report")
        writeFile(file, "a file\n")
        #expect(throws: ReportError.notADirectory(path: file)) {
            try ReportWriter().write(result, context: context, to: file)
        }
        #expect(readFile(file) == "a file\n")
        #expect(
            ReportError.notADirectory(path: file).description
                == "cannot write the report into '\(file)': it exists and is not a directory")
    }

    @Test func aDirectoryThatCannotBeCreatedNamesThePathAndTheOSError() throws {
        let directory = TemporaryDirectory()
        writeFile(directory.appending("file"), "")
        let output = directory.appending("file/reports")
        let error = try #require(throws: ReportError.self) {
            try ReportWriter().write(result, context: context, to: output)
        }
        #expect(error == .cannotCreateDirectory(path: output, .init(rawValue: ENOTDIR)))
        #expect(error.description == "cannot create the output directory '\(output)': Not a directory (errno 20)")
    }

    @Test func aFileThatCannotBeCreatedNamesThePathAndTheOSError() throws {
        let directory = TemporaryDirectory()
        let writer = ReportWriter(
            options: .init(), fileSystem: FailingFileSystem(fileName: "daily.csv", failure: .create, errno: EACCES))
        let error = try #require(throws: ReportError.self) {
            try writer.write(result, context: context, to: directory.path)
        }
        #expect(
            error.description == "cannot write '\(directory.appending("daily.csv"))': Permission denied (errno 13)")
    }

    /// Permission bits do not stop root, so this runs only for other users.
    @Test(.enabled(if: geteuid() != 0, "root ignores directory permissions"))
    func anUnwritableDirectoryGivesPermissionDenied() throws {
        let directory = TemporaryDirectory()
        writeEarlierReport(into: directory.path)
        #expect(chmod(directory.path, 0o555) == 0)
        defer { _ = chmod(directory.path, 0o755) }
        #expect(throws: ReportError.cannotWriteFile(path: directory.appending("daily.csv"), .init(rawValue: EACCES))) {
            try ReportWriter().write(result, context: context, to: directory.path)
        }
        expectEarlierReportUntouched(in: directory.path)
    }

    @Test func errnoDescriptionsKeepUnknownCodes() {
        #expect(ReportError.Errno(rawValue: ENOSPC).description == "No space left on device (errno 28)")
        #expect(ReportError.Errno(rawValue: 99_999).description.hasSuffix("(errno 99999)"))
    }
}

@Suite("Paths")
struct PathTests {
    @Test(arguments: [
        ("a/b/c", "a/b"), ("a/b/", "a"), ("a", ""), ("/a", "/"), ("/", "/"), ("a//b", "a"), ("./out", "."),
    ])
    func parentOfAPath(path: String, parent: String) {
        #expect(OutputFolder.parent(of: path) == parent)
    }

    @Test func joinDoesNotDoubleASlash() {
        #expect(OutputFolder.join("out", "daily.csv") == "out/daily.csv")
        #expect(OutputFolder.join("out/", "daily.csv") == "out/daily.csv")
    }
}

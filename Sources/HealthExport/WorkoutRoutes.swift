import CHealthSAX
import CLibArchive
import SystemCalls

/// What one GPX route file (`workout-routes/route_….gpx`, docs/export-format.md §14) holds, read with
/// libxml2 (through CHealthSAX's `hsax_gpx_summarize`).
public struct RouteSummary: Hashable, Sendable {
    /// `<trkpt>` elements with a valid latitude and longitude.
    public var pointCount: Int
    /// Great-circle (haversine) distance along the points of each `<trkseg>`, in km.
    public var distanceKm: Double
    /// Sum of the rises between consecutive points with an `<ele>` (raw GPS elevation, no
    /// smoothing), in metres; nil when no point has an elevation.
    public var elevationGainM: Double?

    public init(pointCount: Int, distanceKm: Double, elevationGainM: Double?) {
        self.pointCount = pointCount
        self.distanceKm = distanceKm
        self.elevationGainM = elevationGainM
    }

    /// Summarizes GPX bytes.
    /// - Throws: `RouteFileError.notWellFormed` (with the line) when the bytes are not XML;
    ///   `RouteFileError.implausible` (with the line) for an elevation beyond ±3.4e38 m, the
    ///   bound a record's value has (one `<ele>1e301</ele>` made a 302-digit gain).
    public static func read(gpx bytes: [UInt8], name: String) throws(RouteFileError) -> RouteSummary {
        guard !bytes.isEmpty else { throw .notWellFormed(file: name, line: 1, message: "the file is empty") }
        var out = hsax_gpx_summary()
        let rc = bytes.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(b.count, 1)) {
                hsax_gpx_summarize($0, b.count, &out)
            }
        }
        if rc == -3 {
            let message = withUnsafeBytes(of: &out.error_message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .implausible(file: name, line: Int(out.error_line), message: message)
        }
        if rc != 0 {
            let message = withUnsafeBytes(of: &out.error_message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .notWellFormed(file: name, line: Int(out.error_line), message: rc == -2 ? "out of memory" : message)
        }
        return RouteSummary(
            pointCount: Int(out.point_count), distanceKm: out.distance_m / 1000,
            elevationGainM: out.elevation_point_count > 0 ? out.elevation_gain_m : nil)
    }
}

/// Why a route file could not be summarized (a warning for the report, never a failed read).
public enum RouteFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case notWellFormed(file: String, line: Int, message: String)
    /// A value no route can have (an elevation beyond ±3.4e38 m): the file is not used.
    case implausible(file: String, line: Int, message: String)
    case unreadable(file: String, reason: String)

    public var description: String {
        switch self {
        case .notWellFormed(let file, let line, let message):
            return "\(file): line \(line): not well-formed GPX: \(message)"
        case .implausible(let file, let line, let message):
            return "\(file): line \(line): implausible value: \(message)"
        case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
        }
    }
}

/// The route files of an export, keyed as workouts reference them
/// (`<FileReference path="/workout-routes/route_2025-10-01_6.15pm.gpx"/>`: a leading slash,
/// relative to `apple_health_export/`).
///
/// Built from the zip (entries `…/workout-routes/*.gpx`, read in place with libarchive, one
/// entry in memory at a time, at most 64 MiB each), from the unzipped folder, or from the folder
/// beside a bare `export.xml`. Standard input has none.
public struct RouteFileIndex: Hashable, Sendable {
    /// Per referenced path, the summary or why it could not be read.
    public var files: [String: Result<RouteSummary, RouteFileError>] = [:]
    /// Where the routes were looked for (the zip or folder), for messages.
    public var location: String?

    public init(files: [String: Result<RouteSummary, RouteFileError>] = [:], location: String? = nil) {
        self.files = files
        self.location = location
    }

    static let maxEntryBytes = 64 << 20

    /// The route files of `input`, or nil when there is nowhere to look: standard input, or an
    /// `export.xml` (or unzipped folder) without a `workout-routes` folder beside it. Never
    /// throws: a zip that cannot be read gives an empty index, so that every referenced route is
    /// reported missing (a warning).
    public static func read(_ input: ExportInput) -> RouteFileIndex? {
        guard case .path(let path) = input else { return nil }
        guard let status = try? Platform.status(path) else { return nil }
        func folder(_ candidate: String, root: String) -> RouteFileIndex? {
            guard (try? Platform.status(candidate))?.kind == .directory else { return nil }
            return readFolder(candidate, root: root)
        }
        if status.kind == .directory {
            // The unzipped folder: `apple_health_export/` itself or the folder holding it.
            return folder(path + "/workout-routes", root: path)
                ?? folder(path + "/apple_health_export/workout-routes", root: path)
        }
        if isZip(path) { return readZip(path) }
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return folder(parent + "/workout-routes", root: parent)
    }

    /// `/workout-routes/<name>` for an entry path whose last folder is `workout-routes`.
    static func key(forEntry name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[parts.count - 2] == "workout-routes", !parts.contains("__MACOSX"),
            let base = parts.last, !base.hasPrefix("._"), base.lowercased().hasSuffix(".gpx")
        else { return nil }
        return "/workout-routes/" + base
    }

    static func isZip(_ path: String) -> Bool {
        guard let magic = Platform.prefix(of: path, count: 4) else { return false }
        return magic.count == 4 && magic[0] == 0x50 && magic[1] == 0x4B
    }

    /// The route files of `folder`, taken only where they are, after resolving links, inside
    /// `root` (the export folder): a link to a file elsewhere is not read.
    static func readFolder(_ folder: String, root: String) -> RouteFileIndex {
        var index = RouteFileIndex(location: folder)
        guard let rootPath = try? Platform.resolvedPath(root), let names = try? Platform.folderEntries(folder) else {
            return index
        }
        let inside = rootPath == "/" ? "/" : rootPath + "/"
        for name in names {
            guard let key = key(forEntry: "workout-routes/" + name) else { continue }
            let file = folder + "/" + name
            index.files[key] = Result { () throws(RouteFileError) -> RouteSummary in
                let target: String
                do throws(Errno) { target = try Platform.resolvedPath(file) } catch {
                    throw .unreadable(file: file, reason: error.text)
                }
                guard target.hasPrefix(inside) else {
                    throw .unreadable(file: file, reason: "a link to \(target), outside the export folder \(rootPath)")
                }
                return try RouteSummary.read(gpx: try readWhole(target, name: file), name: file)
            }
        }
        return index
    }

    /// The bytes of the regular file at `file` (link-free: `O_NOFOLLOW`), named `name` in
    /// messages. Opened with `O_NONBLOCK` and checked with `fstat` before any read, so that a FIFO
    /// or device named `*.gpx` is refused instead of blocking the report forever.
    static func readWhole(_ file: String, name: String? = nil) throws(RouteFileError) -> [UInt8] {
        let label = name ?? file
        func unreadable(_ e: Errno) -> RouteFileError { .unreadable(file: label, reason: e.text) }
        let fd: Int32
        do throws(Errno) { fd = try Platform.open(file, [.nonBlocking, .noFollow, .closeOnExec]) } catch {
            throw unreadable(error)
        }
        defer { Platform.close(fd) }
        let kind: FileStatus.Kind
        do throws(Errno) { kind = try Platform.status(of: fd).kind } catch { throw unreadable(error) }
        guard kind == .regular else { throw .unreadable(file: label, reason: "not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { b in
                Result { () throws(Errno) -> Int in try Platform.read(fd, into: b) }
            }
            let n: Int
            switch read {
            case .success(let count): n = count
            case .failure(let error): throw unreadable(error)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxEntryBytes { throw .unreadable(file: label, reason: "larger than 64 MiB") }
        }
    }

    static func readZip(_ path: String) -> RouteFileIndex {
        var index = RouteFileIndex(location: path)
        guard let a = archive_read_new() else { return index }
        defer { archive_read_free(a) }
        archive_read_support_format_zip(a)
        archive_read_support_filter_none(a)
        guard archive_read_open_filename(a, path, 1 << 20) == ARCHIVE_OK else { return index }
        var entry: OpaquePointer?
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let (rc, entryName) = Platform.withUTF8CharacterType {
                let rc = archive_read_next_header(a, &entry)
                return (rc, entry.flatMap { ZipEntrySource.entryName($0) })
            }
            guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, let entry else { break }
            guard let name = entryName, archive_entry_filetype(entry) == S_IFREG else { continue }
            guard let key = key(forEntry: name) else { continue }
            let label = "\(path):\(name)"
            var bytes: [UInt8] = []
            var failure: RouteFileError?
            while true {
                let n = chunk.withUnsafeMutableBytes { archive_read_data(a, $0.baseAddress, $0.count) }
                if n < 0 {
                    failure = .unreadable(file: label, reason: zipErrorText(a))
                    break
                }
                if n == 0 { break }
                bytes.append(contentsOf: chunk[0..<n])
                if bytes.count > maxEntryBytes {
                    failure = .unreadable(file: label, reason: "larger than 64 MiB")
                    break
                }
            }
            if let failure {
                index.files[key] = .failure(failure)
                if case .unreadable(_, let reason) = failure, reason != "larger than 64 MiB" { break }
                continue
            }
            index.files[key] = Result { () throws(RouteFileError) -> RouteSummary in
                try RouteSummary.read(gpx: bytes, name: label)
            }
        }
        return index
    }
}

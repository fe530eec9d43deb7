import CHealthSAX
import CLibArchive
import SystemCalls

/// Where an export comes from.
public enum ExportInput: Sendable, Hashable {
    /// A path to `export.xml` (any name), to `export.zip` (read in place, never extracted), or to
    /// an unzipped `apple_health_export` folder. Zips are recognized by content, not by name.
    case path(String)
    /// An XML stream on standard input (`-` on the command line).
    case standardInput

    /// `-` means standard input; anything else is a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .path(argument)
    }
}

/// Options of a read.
public struct ReaderOptions: Sendable {
    /// Elements per batch handed to the consumer (at most; see `ExportBatch`).
    public var batchSize: Int
    /// Bytes read and fed to the parser at a time (tests use tiny chunks; default 512 KiB). A
    /// parallel read reads at most this many, fewer where a segment is about to be cut (it reads
    /// into the segment's buffer up to about 16 KiB past the cut).
    public var chunkSize: Int
    /// Called after every chunk with the bytes of the input consumed so far (compressed bytes
    /// for a zip) and the input's size when known. Called on the reading thread.
    public var progress: (@Sendable (_ consumed: Int64, _ total: Int64?) -> Void)?
    /// Parallel reads only (`read(_:threads:makeConsumer:)`): bytes of pre-filtered XML per
    /// segment handed to one parser thread (default 512 KiB; a segment ends at the first boundary
    /// between two children of `<HealthData>` after this many bytes; tests use tiny values).
    public var segmentSize: Int
    /// Parallel reads only: each batch says its segment (`ExportBatch.segment`) and each
    /// segment ends with a batch marked `endsSegment` (an empty one when nothing is left), so
    /// that a consumer needing document order can restore it. Off by default.
    public var marksSegments: Bool

    public init(
        batchSize: Int = 4096, chunkSize: Int = 512 * 1024,
        progress: (@Sendable (_ consumed: Int64, _ total: Int64?) -> Void)? = nil, segmentSize: Int = 512 * 1024,
        marksSegments: Bool = false
    ) {
        self.batchSize = batchSize
        self.chunkSize = chunkSize
        self.progress = progress
        self.segmentSize = segmentSize
        self.marksSegments = marksSegments
    }
}

/// Streams an Apple Health export through libxml2's SAX2 push parser into typed batches.
///
/// Memory stays bounded by one chunk, one batch and the interned strings (type identifiers,
/// source names, units, devices), whatever the size of the export. The reader applies the
/// pre-filter of docs/export-format.md §6 (drops the DOCTYPE, deletes forbidden control characters),
/// decodes dates and numbers from bytes, converts units (docs/export-format.md §11), and parses `device`
/// strings (docs/export-format.md §10).
///
/// A record with a bad date, a non-numeric value or an unknown unit is skipped and counted in
/// `ExportSummary.diagnostics`; it does not stop the read. So is a date outside 1900 ... a day
/// after `ExportDate` and a number beyond ±3.4e38 (one such value must neither widen
/// the report to millennia nor become infinity). Input that is UTF-16, or holds more control
/// characters than 4096 + 1/64 of its bytes, stops with `ExportReadError.notHealthExport`. A document that is not well-formed
/// stops the read with `ExportReadError.notWellFormed` (`.truncated` when it ends inside
/// markup), whatever was delivered before it.
public struct ExportReader: Sendable {
    public var options: ReaderOptions

    public init(options: ReaderOptions = ReaderOptions()) {
        self.options = options
    }

    /// Reads `input` and calls `consume` with each batch, in document order.
    ///
    /// - Returns: the header, counts and diagnostics of the complete export.
    /// - Throws: `ExportReadError`. If `consume` throws, the read stops and that error is rethrown.
    public func read(_ input: ExportInput, consume: (ExportBatch) throws -> Void) throws -> ExportSummary {
        switch input {
        case .standardInput:
            var source = FileDescriptorSource(fd: 0, closeWhenDone: false, total: nil)
            return try parse(&source, name: "<stdin>", consume: consume)
        case .path(let path):
            return try readPath(path, consume: consume)
        }
    }

    private func readPath(_ path: String, consume: (ExportBatch) throws -> Void) throws -> ExportSummary {
        switch try resolve(path) {
        case .xml(let file, let fd, let size):
            var source = FileDescriptorSource(fd: fd, closeWhenDone: true, total: size)
            defer { source.close() }
            return try parse(&source, name: file, consume: consume)
        case .zip(let zip):
            return try readZip(zip, consume: consume)
        }
    }

    /// What a path holds: an XML file (opened) or a zip; a folder is searched for the export.
    enum ResolvedPath {
        case xml(path: String, fd: Int32, size: Int64)
        case zip(path: String)
    }

    func resolve(_ path: String) throws -> ResolvedPath {
        let status: FileStatus
        do { status = try Platform.status(path) } catch {
            throw ExportReadError.cannotOpen(path: path, reason: error.text)
        }
        if status.kind == .directory {
            guard let file = findExportFile(inDirectory: path) else {
                throw ExportReadError.notHealthExport(
                    input: path,
                    reason: "the folder holds no XML file with a <HealthData> root (looked two levels deep)")
            }
            return try resolve(file)
        }
        let fd: Int32
        do { fd = try Platform.open(path) } catch {
            throw ExportReadError.cannotOpen(path: path, reason: error.text)
        }
        var magic = [UInt8](repeating: 0, count: 4)
        let n =
            (try? magic.withUnsafeMutableBytes { b throws(Errno) in try Platform.read(fd, at: 0, into: b) }) ?? 0
        if n == 4, magic[0] == 0x50, magic[1] == 0x4B,
            (magic[2] == 3 && magic[3] == 4) || (magic[2] == 5 && magic[3] == 6)
        {
            Platform.close(fd)
            return .zip(path: path)
        }
        return .xml(path: path, fd: fd, size: status.size)
    }

    private func readZip(_ path: String, consume: (ExportBatch) throws -> Void) throws -> ExportSummary {
        var zip = try ZipEntrySource(path: path)
        defer { zip.close() }
        let entry = try zip.selectExportEntry()
        return try parse(&zip, name: "\(path):\(entry)", consume: consume)
    }

    /// Feeds `source` to the parser chunk by chunk.
    func parse<S: ChunkSource>(_ source: inout S, name: String, consume: (ExportBatch) throws -> Void) throws
        -> ExportSummary
    {
        try withoutActuallyEscaping(consume) { consume in
            let session = ReaderSession(inputName: name, batchSize: options.batchSize, deliver: consume)
            let context = Unmanaged.passUnretained(session).toOpaque()
            // The session outlives the parser: both end with this scope (withExtendedLifetime),
            // so the callbacks may use the unretained pointer.
            return try withExtendedLifetime(session) { () throws -> ExportSummary in
                guard let parser = hsax_parser_create(context, onStart, onEnd) else {
                    throw ExportReadError.cannotOpen(path: name, reason: "out of memory")
                }
                defer { hsax_parser_free(parser) }
                session.parser = parser
                let chunk = max(1, options.chunkSize)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
                defer { buffer.deallocate() }
                var total: Int64 = 0
                var rc: Int32 = 0
                var atEnd = false  // the failing feed was the last one, which says no more bytes come
                while true {
                    let n = try source.read(into: buffer)
                    if n == 0 {
                        if total == 0 { throw ExportReadError.empty(input: name) }
                        rc = hsax_parser_feed(parser, nil, 0, 1)
                        atEnd = true
                        break
                    }
                    if total == 0, name == "<stdin>", n >= 2, buffer[0] == 0x50, buffer[1] == 0x4B {
                        throw ExportReadError.notHealthExport(
                            input: name,
                            reason: "standard input holds a zip archive; give export.zip as a path instead"
                                + " (zips are read in place from a file, not from a pipe)")
                    }
                    total += Int64(n)
                    rc = hsax_parser_feed(parser, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), n, 0)
                    if rc != 0 { break }
                    options.progress?(source.consumed, source.total)
                }
                if let failure = session.failure { throw failure }
                if let error = feedFailure(
                    rc, parser: parser, session: session, name: name, bytesRead: total, atEnd: atEnd,
                    nothingMoreComes: { (try? source.read(into: buffer)) == 0 })
                {
                    throw error
                }
                guard session.sawRoot else {
                    throw ExportReadError.notHealthExport(input: name, reason: "no <HealthData> element")
                }
                session.flush()
                if let failure = session.failure { throw failure }
                return session.makeSummary(bytesRead: total)
            }
        }
    }

    /// The error that the feed's result code `rc` stands for, or nil for 0 (the input read to
    /// its end): the reader's own limits (no root after a DOCTYPE, control characters, UTF-16)
    /// first, then libxml2's error, named by where the parser stood (before the root, after it,
    /// an over-long comment or text, the input's end inside markup). `atEnd`: the failing feed
    /// was the last; `nothingMoreComes` reads on to tell whether the input has more bytes.
    private func feedFailure(
        _ rc: Int32, parser: OpaquePointer, session: ReaderSession, name: String, bytesRead: Int64, atEnd: Bool,
        nothingMoreComes: () -> Bool
    ) -> ExportReadError? {
        switch rc {
        case 0:
            return nil
        case Int32(HSAX_ERR_NO_ROOT):
            // At the last feed: the input ended before the limit, with no root after its DOCTYPE.
            if atEnd {
                return ExportReadError.notHealthExport(
                    input: name,
                    reason: "no <HealthData> element follows its DOCTYPE before the file ends (after \(bytesRead)"
                        + " bytes): it is truncated, or not an Apple Health export; export again from the"
                        + " Health app")
            }
            return ExportReadError.notHealthExport(
                input: name, reason: "a DOCTYPE is not followed by a <HealthData> element within 1 MiB")
        case Int32(HSAX_ERR_CONTROLS):
            return ExportReadError.notHealthExport(
                input: name,
                reason: "it holds more control characters than an export can (more than 4096 + 1/64 of"
                    + " the bytes read are 0x00-0x1F other than tab, LF and CR, or 0x7F; a NUL flood"
                    + " or a binary file)")
        case Int32(HSAX_ERR_UTF16):
            return ExportReadError.notHealthExport(
                input: name,
                reason: "it is encoded in UTF-16; Apple Health exports are UTF-8"
                    + " (convert it first, e.g. iconv -f UTF-16 -t UTF-8)")
        default:
            if !session.sawRoot {
                return ExportReadError.notXML(
                    input: name, line: Int(hsax_parser_error_line(parser)),
                    column: Int(hsax_parser_error_column(parser)),
                    message: String(cString: hsax_parser_error_message(parser)))
            }
            let line = Int(hsax_parser_error_line(parser))
            let column = Int(hsax_parser_error_column(parser))
            let message = String(cString: hsax_parser_error_message(parser))
            if hsax_parser_error_is_lookup_limit(parser) != 0 {
                // Where the parser stood at the end of what it had, and nothing more comes,
                // its line is one past the file's last (after the final newline).
                let atFileEnd = hsax_parser_error_at_end(parser) != 0 && (atEnd || nothingMoreComes())
                return ExportReadError.tooLong(
                    input: name, line: atFileEnd ? nil : line, elementsRead: session.elementsRead)
            }
            if session.rootEnded {
                return ExportReadError.contentAfterRoot(
                    input: name, line: line, column: column,
                    found: String(
                        decoding: Array(String(cString: hsax_parser_error_context(parser)).utf8), as: UTF8.self),
                    message: message)
            }
            // libxml2 waits for the rest of an unfinished tag or value: an error found
            // once it learns that nothing more comes, at the end of its bytes, is the
            // input's end inside markup (not broken markup before it).
            if atEnd && hsax_parser_error_at_end(parser) != 0 {
                return ExportReadError.truncated(
                    input: name, line: line, column: column, message: message,
                    elementsRead: session.elementsRead)
            }
            return ExportReadError.notWellFormed(
                input: name, line: line, column: column, message: message, elementsRead: session.elementsRead)
        }
    }
}

// Non-capturing C callbacks. The context is the session, unretained (see `parse`).
private let onStart: hsax_start_fn = { context, start in
    Unmanaged<ReaderSession>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.start(start!) }
}
private let onEnd: hsax_end_fn = { context, element, depth in
    Unmanaged<ReaderSession>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.end(element, depth: Int(depth)) }
}

/// Looks for the export file in an unzipped folder: the first `.xml` file within two levels
/// (in name order, skipping `__MACOSX` and `._*`) whose first `exportSniffLength` bytes pass
/// `prefixIsHealthExport`, so localized names such as `Exportar.xml` are found.
func findExportFile(inDirectory dir: String) -> String? {
    var candidates: [String] = []
    func scan(_ d: String, depth: Int) {
        guard let entries = try? Platform.folderEntries(d) else { return }
        let names = entries.filter { !$0.hasPrefix("._") && $0 != "__MACOSX" }
        for name in names.sorted() {
            let p = d + "/" + name
            guard let status = try? Platform.status(p) else { continue }
            if status.kind == .directory {
                if depth < 2 { scan(p, depth: depth + 1) }
            } else if status.kind == .regular, name.lowercased().hasSuffix(".xml") {
                // (A FIFO, socket or device named *.xml is no candidate: reading one can block.)
                candidates.append(p)
            }
        }
    }
    scan(dir, depth: 1)
    for path in candidates where looksLikeHealthExport(path) { return path }
    // An export saved as UTF-16 is still the file the user means: reading it gives the advice
    // to convert it, where "no export in the folder" would not.
    return candidates.first { path in
        Platform.prefix(of: path, count: exportSniffLength).map { prefixIsUTF16HealthExport($0[...]) } ?? false
    }
}

private func looksLikeHealthExport(_ path: String) -> Bool {
    guard let bytes = Platform.prefix(of: path, count: exportSniffLength), !bytes.isEmpty else { return false }
    return prefixIsHealthExport(bytes[...])
}

/// How much of a candidate file (or zip entry) is read to tell whether it is the export: the
/// XML declaration and `<!DOCTYPE HealthData` stand in its first hundred bytes (docs/export-format.md §4),
/// so a few KiB are plenty, and a zip with many entries is not read a MiB per entry.
let exportSniffLength = 8 * 1024

/// True when `bytes` (the start of a file) contain `<!DOCTYPE HealthData` or `<HealthData`, and no
/// `<ClinicalDocument` before it (`export_cda.xml` is the CDA rendering, not the export).
func prefixIsHealthExport(_ bytes: ArraySlice<UInt8>) -> Bool {
    let root = firstIndex(of: Array("<HealthData".utf8), in: bytes)
    let doctype = firstIndex(of: Array("<!DOCTYPE HealthData".utf8), in: bytes)
    guard let h = [root, doctype].compactMap({ $0 }).min() else { return false }
    if let c = firstIndex(of: Array("<ClinicalDocument".utf8), in: bytes), c < h { return false }
    return true
}

/// True when `bytes` (the start of a file) look like UTF-16 (a quarter or more of them NUL, as
/// every ASCII character has a NUL beside it) and read as `prefixIsHealthExport` with the NULs
/// left out: an export saved as UTF-16, which the reader refuses with the advice to convert it.
func prefixIsUTF16HealthExport(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard bytes.count >= 4 else { return false }
    var zeros = 0
    for b in bytes where b == 0 { zeros += 1 }
    guard zeros * 4 >= bytes.count else { return false }
    return prefixIsHealthExport(bytes.filter { $0 != 0 }[...])
}

private func firstIndex(of needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
    guard hay.count >= needle.count else { return nil }
    var i = hay.startIndex
    let last = hay.endIndex - needle.count
    while i <= last {
        if hay[i] == needle[0] {
            var j = 1
            while j < needle.count, hay[i + j] == needle[j] { j += 1 }
            if j == needle.count { return i }
        }
        i += 1
    }
    return nil
}

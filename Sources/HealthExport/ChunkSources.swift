import CLibArchive
import SystemCalls

/// A stream of bytes the reader feeds to the parser.
protocol ChunkSource {
    /// Reads up to `buffer.count` bytes; 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes of the underlying input consumed so far (for progress).
    var consumed: Int64 { get }
    /// The underlying input's size, when known.
    var total: Int64? { get }
}

/// A plain file or standard input.
struct FileDescriptorSource: ChunkSource {
    var fd: Int32
    var closeWhenDone: Bool
    var total: Int64?
    var consumed: Int64 = 0

    init(fd: Int32, closeWhenDone: Bool, total: Int64?) {
        self.fd = fd
        self.closeWhenDone = closeWhenDone
        self.total = total
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            let n = try Platform.read(fd, into: buffer)
            consumed += Int64(n)
            return n
        } catch {
            throw ExportReadError.cannotOpen(path: fd == 0 ? "<stdin>" : "input", reason: error.text)
        }
    }

    mutating func close() {
        if closeWhenDone, fd >= 0 { Platform.close(fd) }
        fd = -1
    }
}

/// The export's XML entry inside a zip, streamed by libarchive (zip64 included; nothing is
/// extracted to disk). The entry is chosen by content, not by name (docs/export-format.md §2): the
/// first `.xml` entry at most two folders deep, outside `__MACOSX/` and not an AppleDouble
/// `._` file, whose first `exportSniffLength` bytes pass `prefixIsHealthExport`.
struct ZipEntrySource: ChunkSource {
    let path: String
    var archive: OpaquePointer?
    var prefix: [UInt8] = []
    /// The entry being read (for messages).
    var entry = ""
    var prefixOffset = 0
    /// Bytes read from entries to tell whether they are the export (at most
    /// `exportSniffLength` per candidate entry).
    var sniffedBytes = 0
    var total: Int64?
    var consumed: Int64 { archive.map { archive_filter_bytes($0, -1) } ?? 0 }

    init(path: String) throws {
        self.path = path
        guard let a = archive_read_new() else { throw ExportReadError.zip(path: path, message: "out of memory") }
        archive_read_support_format_zip(a)
        archive_read_support_filter_none(a)
        archive = a
        if archive_read_open_filename(a, path, 1 << 20) != ARCHIVE_OK {
            let message = zipErrorText(a)
            archive_read_free(a)
            archive = nil
            throw ExportReadError.zip(path: path, message: message)
        }
        total = try? Platform.status(path).size
    }

    /// Moves to the export entry and returns its name.
    mutating func selectExportEntry() throws -> String {
        guard let a = archive else { throw ExportReadError.zip(path: path, message: "not open") }
        var entry: OpaquePointer?
        var seen: [String] = []
        var utf16Entry: String?  // the first entry that is an export saved as UTF-16
        while true {
            // Names are decoded as UTF-8 whatever the process's locale (docs/export-format.md §2).
            let (rc, name) = Platform.withUTF8CharacterType {
                let rc = archive_read_next_header(a, &entry)
                return (rc, entry.flatMap { Self.entryName($0) })
            }
            if rc == ARCHIVE_EOF { break }
            guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, let entry else {
                throw ExportReadError.zip(path: path, message: zipErrorText(a))
            }
            let shown = name ?? "(entry \(seen.count + 1): a name that is not UTF-8)"
            seen.append(shown)
            // An entry whose name cannot be decoded is still tested by its content.
            guard archive_entry_filetype(entry) == S_IFREG, name.map(isCandidate) ?? true else { continue }
            // Read the first few KiB and test them; if it is the export, keep those bytes to replay.
            var head = [UInt8]()
            head.reserveCapacity(exportSniffLength)
            var chunk = [UInt8](repeating: 0, count: exportSniffLength)
            while head.count < exportSniffLength {
                let n = chunk.withUnsafeMutableBytes {
                    archive_read_data(a, $0.baseAddress, min($0.count, exportSniffLength - head.count))
                }
                if n < 0 {
                    throw ExportReadError.zip(
                        path: path,
                        message: zipErrorText(a, fallback: "read failed")
                            + " while reading \(shown); the archive is damaged or truncated")
                }
                if n == 0 { break }
                sniffedBytes += n
                head.append(contentsOf: chunk[0..<n])
            }
            if prefixIsHealthExport(head[...]) {
                prefix = head
                self.entry = shown
                return shown
            }
            if utf16Entry == nil && prefixIsUTF16HealthExport(head[...]) { utf16Entry = shown }
        }
        if let utf16Entry {
            throw ExportReadError.notHealthExport(
                input: path,
                reason: "its entry \(utf16Entry) is encoded in UTF-16; Apple Health exports are UTF-8 (unzip it and"
                    + " convert it first, e.g. iconv -f UTF-16 -t UTF-8)")
        }
        throw ExportReadError.notHealthExport(
            input: path,
            reason: "no XML entry with a <HealthData> root in the archive (entries: "
                + seen.prefix(8).joined(separator: ", ") + (seen.count > 8 ? ", …" : "") + ")")
    }

    /// The entry's name as UTF-8 (bytes in another charset, a zip without the UTF-8 flag
    /// written in CP437 or Shift-JIS, read with U+FFFD for what is not UTF-8), or nil when
    /// libarchive gives no name. Call within `Platform.withUTF8CharacterType`.
    static func entryName(_ entry: OpaquePointer) -> String? {
        if let u = archive_entry_pathname_utf8(entry) { return String(cString: u) }
        if let p = archive_entry_pathname(entry) { return String(cString: p) }
        return nil
    }

    private func isCandidate(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true)
        guard let base = parts.last, parts.count <= 3 else { return false }
        if parts.contains("__MACOSX") || base.hasPrefix("._") { return false }
        return base.lowercased().hasSuffix(".xml")
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if prefixOffset < prefix.count {
            let n = min(buffer.count, prefix.count - prefixOffset)
            prefix.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + prefixOffset, byteCount: n)
            }
            prefixOffset += n
            if prefixOffset == prefix.count {
                prefix = []
                prefixOffset = 0
            }
            return n
        }
        guard let a = archive else { return 0 }
        let n = archive_read_data(a, buffer.baseAddress, buffer.count)
        if n < 0 {
            throw ExportReadError.zip(
                path: path,
                message: zipErrorText(a, fallback: "read failed")
                    + " while reading \(entry); the archive is damaged or truncated")
        }
        return n
    }

    mutating func close() {
        if let a = archive { archive_read_free(a) }
        archive = nil
    }
}

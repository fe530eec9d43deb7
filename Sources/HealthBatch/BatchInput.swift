import HealthTables

/// One person of a batch: the id that names their folders and the export to read.
public struct BatchPerson: Hashable, Sendable {
    /// 1 to 64 characters of `A-Za-z0-9._-`, not starting with a dot (`PersonID.isValid`).
    public var id: String
    /// The export as `report` takes it (a zip, an XML file or an unzipped folder); relative
    /// paths are relative to the current directory (a manifest's are resolved against its
    /// folder when it is read).
    public var export: String

    public init(id: String, export: String) {
        self.id = id
        self.export = export
    }
}

/// The rule for person ids: they name folders (`person=<id>`), archive files and status
/// records, so they are short, portable file-name characters, and never hidden files.
public enum PersonID {
    /// The longest id, in characters.
    public static let maximumLength = 64

    /// True for 1 to 64 characters of `A-Za-z0-9._-` that do not start with `.`.
    public static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
        }
    }

    /// Why `id` is not valid, for a message ("" when it is).
    static func problem(_ id: String) -> String {
        if id.isEmpty { return "the person id is empty" }
        if id.utf8.count > maximumLength { return "the person id '\(id)' is longer than 64 characters" }
        if id.hasPrefix(".") { return "the person id '\(id)' starts with a dot" }
        return "the person id '\(id)' has characters other than A-Z, a-z, 0-9, '.', '_' and '-'"
    }
}

/// Why a batch's input was refused before any work: every case names the file and, for a
/// manifest, the line (1 is the header).
public enum BatchInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The manifest or folder cannot be read (`errno` text).
    case cannotRead(path: String, reason: String)
    /// The manifest has no header line.
    case emptyManifest(path: String)
    /// The header lacks `person` or `export` (`missing` is the column's name).
    case missingColumn(path: String, missing: String)
    /// A line of the manifest is wrong: a bad id, a repeated id, an empty export, a wrong
    /// number of fields.
    case badLine(path: String, line: Int, reason: String)
    /// A folder entry whose name is not a valid id, or two entries with one id.
    case badEntry(path: String, entry: String, reason: String)
    /// Neither a manifest nor a folder.
    case notAnInput(path: String)
    /// A manifest with a header but no person, or a folder without any export.
    case noPeople(path: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(path): cannot read: \(reason)"
        case .emptyManifest(let path): return "\(path): line 1: empty manifest (expected the header 'person,export')"
        case .missingColumn(let path, let missing):
            return "\(path): line 1: the header has no '\(missing)' column (expected 'person,export')"
        case .badLine(let path, let line, let reason): return "\(path): line \(line): \(reason)"
        case .badEntry(let path, let entry, let reason): return "\(path): entry '\(entry)': \(reason)"
        case .noPeople(let path):
            return
                "\(path): no people (a manifest needs a line per person; a folder, <id>.zip, <id>.xml or <id>/ entries)"
        case .notAnInput(let path):
            return "\(path): neither a manifest (.csv with the header 'person,export') nor a folder of exports"
        }
    }
}

/// The people of a batch, from a manifest or a folder (`health-analyzer batch <input>`).
public enum BatchInput {
    /// The people of `path`: a folder (`folder(_:)`) or a CSV manifest (`manifest(_:)`), in the
    /// order listed (the order does not change what is written).
    /// Export paths are absolute and resolved (`realpath`; a missing export's folder resolved),
    /// so that they are written one way whatever the current folder or the spelling of `path`.
    /// - Throws: `BatchInputError`, before any person is processed; `.noPeople` when `path`
    ///   lists nobody.
    public static func people(_ path: String) throws(BatchInputError) -> [BatchPerson] {
        let people: [BatchPerson]
        switch BatchPlatform.kind(of: path) {
        case .directory: people = try folder(path)
        case .file: people = try manifest(path)
        case .missing: throw .cannotRead(path: path, reason: "no such file or folder")
        case .other: throw .notAnInput(path: path)
        }
        guard !people.isEmpty else { throw .noPeople(path: path) }
        return people.map { BatchPerson(id: $0.id, export: BatchPlatform.resolved($0.export)) }
    }

    /// A CSV manifest with the header `person,export` (in any column order, other columns
    /// ignored; RFC 4180 quoting): one person per line; an export path is relative to the
    /// manifest's folder unless absolute. Empty lines are skipped.
    /// - Throws: `BatchInputError` naming the line of the first problem: an empty file, a
    ///   missing column, a bad or repeated id, an empty export, a line with too few fields.
    public static func manifest(_ path: String) throws(BatchInputError) -> [BatchPerson] {
        let text: String
        do { text = try BatchPlatform.readText(path, anyKind: true) } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        // Excel's "CSV UTF-8" starts the file with a byte-order mark, which is not part of the header.
        let lines = CSV.parse(text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text)
        guard let header = lines.first, header != [""] else { throw .emptyManifest(path: path) }
        let names = header.map { $0.trimmingSpaces }
        guard let personColumn = names.firstIndex(of: "person") else {
            throw .missingColumn(path: path, missing: "person")
        }
        guard let exportColumn = names.firstIndex(of: "export") else {
            throw .missingColumn(path: path, missing: "export")
        }
        let base = BatchPlatform.parent(of: path)
        var seen: [String: Int] = [:]
        var people: [BatchPerson] = []
        // Line numbers count physical lines; a quoted field with a line break is rare in a
        // manifest, so records are numbered as lines.
        for (index, fields) in lines.enumerated().dropFirst() {
            let line = index + 1
            if fields.allSatisfy({ $0.trimmingSpaces.isEmpty }) { continue }
            guard fields.count > max(personColumn, exportColumn) else {
                throw .badLine(
                    path: path, line: line,
                    reason: "\(fields.count) field\(fields.count == 1 ? "" : "s"), expected \(header.count)")
            }
            let id = fields[personColumn].trimmingSpaces
            guard PersonID.isValid(id) else { throw .badLine(path: path, line: line, reason: PersonID.problem(id)) }
            if let first = seen[id] {
                throw .badLine(
                    path: path, line: line, reason: "the person id '\(id)' is repeated (first on line \(first))")
            }
            seen[id] = line
            let export = fields[exportColumn]
            guard !export.isEmpty else { throw .badLine(path: path, line: line, reason: "the export is empty") }
            let resolved = export.hasPrefix("/") || base.isEmpty ? export : base + "/" + export
            people.append(BatchPerson(id: id, export: resolved))
        }
        return people
    }

    /// A folder whose entries each hold one person's export: `<id>.zip`, `<id>.xml` or a
    /// folder `<id>/` (an unzipped export); the id is the entry's name without the extension.
    /// Hidden entries and other files are ignored.
    /// - Throws: `BatchInputError.badEntry` for an export entry whose name is not a valid id,
    ///   or for two entries with one id (`a.zip` and `a/`).
    public static func folder(_ path: String) throws(BatchInputError) -> [BatchPerson] {
        let entries: [BatchPlatform.Entry]
        do { entries = try BatchPlatform.entries(of: path) } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        var seen: [String: String] = [:]
        var people: [BatchPerson] = []
        for entry in entries.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) {
            if entry.name.hasPrefix(".") { continue }
            let id: String
            if entry.isDirectory {
                id = entry.name
            } else if entry.name.lowercased().hasSuffix(".zip") || entry.name.lowercased().hasSuffix(".xml") {
                id = String(entry.name.dropLast(4))
            } else {
                continue
            }
            guard PersonID.isValid(id) else {
                throw .badEntry(path: path, entry: entry.name, reason: PersonID.problem(id))
            }
            if let other = seen[id] {
                throw .badEntry(path: path, entry: entry.name, reason: "the person id '\(id)' is also '\(other)'")
            }
            seen[id] = entry.name
            people.append(
                BatchPerson(id: id, export: path.hasSuffix("/") ? path + entry.name : path + "/" + entry.name))
        }
        return people
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}

import HealthExport

/// One lookup table (`types`, `sources`, …): text → id, with ids added on first use.
struct TextLookup {
    let table: String
    let column: String
    var ids: [String: Int64] = [:]

    init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    mutating func load(_ db: Connection) throws {
        ids = [:]
        let s = try db.prepare("SELECT id, \(column) FROM \(table)")
        while try s.step() { ids[s.text(1)] = s.int64(0) }
    }

    /// The id of `text`, inserting it when new (inside the caller's write transaction).
    mutating func id(_ text: String, _ db: Connection, insert: Statement) throws -> Int64 {
        if let id = ids[text] { return id }
        insert.bind(1, text)
        try insert.run()
        let id = db.lastInsertRowID
        ids[text] = id
        return id
    }
}

/// The archive's lookup tables as the importer sees them, loaded at the start of every write
/// transaction (another process may have added rows since).
struct Lookups {
    var types = TextLookup(table: "types", column: "identifier")
    var sources = TextLookup(table: "sources", column: "name")
    var versions = TextLookup(table: "source_versions", column: "version")
    var units = TextLookup(table: "units", column: "unit")
    var valueTexts = TextLookup(table: "value_texts", column: "text")
    var metadataKeys = TextLookup(table: "metadata_keys", column: "key")
    var devices: [Device: Int64] = [:]

    mutating func load(_ db: Connection) throws {
        try types.load(db)
        try sources.load(db)
        try versions.load(db)
        try units.load(db)
        try valueTexts.load(db)
        try metadataKeys.load(db)
        devices = [:]
        let s = try db.prepare(
            "SELECT id, name, manufacturer, model, hardware, software, creation_date, other_fields FROM devices")
        while try s.step() { devices[Self.device(s, from: 1)] = s.int64(0) }
    }

    /// A `Device` from the 7 columns starting at `c` (name … other_fields).
    static func device(_ s: Statement, from c: Int32) -> Device {
        Device(
            name: s.textOrNil(c), manufacturer: s.textOrNil(c + 1), model: s.textOrNil(c + 2),
            hardware: s.textOrNil(c + 3), software: s.textOrNil(c + 4), creationDate: s.textOrNil(c + 5),
            otherFields: decodeFields(s.textOrNil(c + 6)))
    }

    /// `other_fields` is `key:value` pairs, one per line (as the device string names them).
    static func encodeFields(_ fields: [MetadataEntry]) -> String? {
        fields.isEmpty ? nil : fields.map { "\($0.key):\($0.value)" }.joined(separator: "\n")
    }

    static func decodeFields(_ text: String?) -> [MetadataEntry] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let colon = line.firstIndex(of: ":") else { return MetadataEntry(key: String(line), value: "") }
            return MetadataEntry(key: String(line[..<colon]), value: String(line[line.index(after: colon)...]))
        }
    }
}

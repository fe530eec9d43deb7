import HealthExport

/// The lookup rows (types, sources, versions, units, value texts, metadata keys, devices) and the
/// metadata rows every part of an import writes, with the per-read caches of the reader's symbols.
final class ImportLookups {
    let archive: Archive
    let db: Connection

    // Per-read caches: the reader's symbols are only valid within one read, and with parser
    // threads within one worker: these are the current worker's, the others' wait in
    // `otherWorkers` (swapped, not copied).
    var typeBySymbol: [Int64] = []
    var sourceBySymbol: [Int64] = []
    var currentWorker = 0
    var otherWorkers: [Int: (types: [Int64], sources: [Int64])] = [:]
    var deviceByObject: [ObjectIdentifier: Int64] = [:]
    /// The last version and unit looked up, with their ids: consecutive records mostly share
    /// both, and comparing a string with itself (the reader interns them) costs no hashing.
    var lastVersion: (String, Int64)?
    var lastUnit: (String, Int64)?
    /// The last device looked up (the reader hands on one object per distinct device, kept
    /// alive by `retainedDevices`).
    var lastDevice: (ObjectIdentifier, Int64)?
    var retainedDevices: [Device] = []

    let insertMetadata: Statement
    let insertDevice: Statement
    let insertType, insertSource, insertVersion, insertUnit, insertValueText, insertKey: Statement

    init(archive: Archive) throws {
        self.archive = archive
        db = archive.db
        insertMetadata = try db.prepare(
            "INSERT INTO metadata (owner_kind, owner_id, position, key_id, value) VALUES (?,?,?,?,?)")
        insertDevice = try db.prepare(
            """
            INSERT INTO devices (name, manufacturer, model, hardware, software, creation_date, other_fields)
            VALUES (?,?,?,?,?,?,?)
            """)
        insertType = try db.prepare("INSERT INTO types (identifier) VALUES (?)")
        insertSource = try db.prepare("INSERT INTO sources (name) VALUES (?)")
        insertVersion = try db.prepare("INSERT INTO source_versions (version) VALUES (?)")
        insertUnit = try db.prepare("INSERT INTO units (unit, canonical_unit) VALUES (?, ?)")
        insertValueText = try db.prepare("INSERT INTO value_texts (text) VALUES (?)")
        insertKey = try db.prepare("INSERT INTO metadata_keys (key) VALUES (?)")
    }

    /// Makes `worker`'s symbol caches the current ones (a batch's symbols are its worker's).
    func select(worker: Int) {
        if worker != currentWorker {
            otherWorkers[currentWorker] = (typeBySymbol, sourceBySymbol)
            (typeBySymbol, sourceBySymbol) = otherWorkers.removeValue(forKey: worker) ?? ([], [])
            currentWorker = worker
        }
    }

    func typeID(_ identifier: String) throws -> Int64 {
        try archive.lookups.types.id(identifier, db, insert: insertType)
    }

    func sourceID(_ name: String) throws -> Int64 {
        try archive.lookups.sources.id(name, db, insert: insertSource)
    }

    func versionID(_ version: String?) throws -> Int64? {
        guard let version else { return nil }
        if let last = lastVersion, last.0 == version { return last.1 }
        let id = try archive.lookups.versions.id(version, db, insert: insertVersion)
        lastVersion = (version, id)
        return id
    }

    func unitID(_ unit: String?) throws -> Int64? {
        guard let unit else { return nil }
        if let last = lastUnit, last.0 == unit { return last.1 }
        if let id = archive.lookups.units.ids[unit] {
            lastUnit = (unit, id)
            return id
        }
        insertUnit.bind(1, unit)
        insertUnit.bind(2, UnitConversion.forUnit(unit)?.unit.rawValue)
        try insertUnit.run()
        let id = db.lastInsertRowID
        archive.lookups.units.ids[unit] = id
        return id
    }

    func valueTextID(_ text: String?) throws -> Int64? {
        guard let text else { return nil }
        return try archive.lookups.valueTexts.id(text, db, insert: insertValueText)
    }

    func deviceID(_ device: Device?) throws -> Int64? {
        guard let device else { return nil }
        let object = ObjectIdentifier(device)
        if let last = lastDevice, last.0 == object { return last.1 }
        if let id = deviceByObject[object] {
            lastDevice = (object, id)
            return id
        }
        let id: Int64
        if let known = archive.lookups.devices[device] {
            id = known
        } else {
            let s = insertDevice
            s.bind(1, device.name)
            s.bind(2, device.manufacturer)
            s.bind(3, device.model)
            s.bind(4, device.hardware)
            s.bind(5, device.software)
            s.bind(6, device.creationDate)
            s.bind(7, Lookups.encodeFields(device.otherFields))
            try s.run()
            id = db.lastInsertRowID
            archive.lookups.devices[device] = id
        }
        deviceByObject[object] = id
        retainedDevices.append(device)  // keeps the object identifier unique for this read
        return id
    }

    func recordTypeID(_ r: borrowing Record) throws -> Int64 {
        if let id = Self.known(r.typeSymbol, typeBySymbol) { return id }
        let id = try typeID(r.type)
        Self.remember(id, r.typeSymbol, &typeBySymbol)
        return id
    }

    func recordSourceID(_ r: borrowing Record) throws -> Int64 {
        if let id = Self.known(r.sourceSymbol, sourceBySymbol) { return id }
        let id = try sourceID(r.sourceName)
        Self.remember(id, r.sourceSymbol, &sourceBySymbol)
        return id
    }

    /// The id remembered for a read's `symbol` (`Record.typeSymbol`, `.sourceSymbol`) in
    /// `table`, indexed by symbol, 0 where none is; nil for none or a record not from a read (-1).
    @inline(__always)
    private static func known(_ symbol: Int32, _ table: [Int64]) -> Int64? {
        let k = Int(symbol)
        return k >= 0 && k < table.count && table[k] > 0 ? table[k] : nil
    }

    @inline(__always)
    private static func remember(_ id: Int64, _ symbol: Int32, _ table: inout [Int64]) {
        let k = Int(symbol)
        guard k >= 0 else { return }
        if k >= table.count { table.append(contentsOf: repeatElement(0, count: k + 1 - table.count)) }
        table[k] = id
    }

    /// The stored columns of a record's value: value, unit id, original value, value text id.
    func valueColumns(_ r: borrowing Record) throws -> (Double?, Int64?, Double?, Int64?) {
        switch r.value {
        case .quantity(let q):
            let original: Double? =
                q.originalValue == q.value || (q.originalValue.isNaN && q.value.isNaN) ? nil : q.originalValue
            return (q.value, try unitID(q.originalUnit), original, nil)
        case .category(let c):
            return (nil, nil, nil, try valueTextID(c.exportText))
        case .none(let text):
            return (nil, nil, nil, try valueTextID(text))
        }
    }

    /// Binds `a` to the parameters from `p` on of a correlation, correlation record, workout or
    /// route: source id, version id, device id, start, end, creation, printed offset (the order
    /// `Archive+Read`'s `sampleAttributes` reads them back in).
    func bindSampleAttributes(_ s: Statement, from p: Int32, _ a: SampleAttributes) throws {
        s.bind(p, try sourceID(a.sourceName))
        s.bind(p + 1, try versionID(a.sourceVersion))
        s.bind(p + 2, try deviceID(a.device))
        s.bind(p + 3, a.startDate.secondsSince1970)
        s.bind(p + 4, a.endDate.secondsSince1970)
        s.bind(p + 5, a.creationDate?.secondsSince1970)
        s.bind(p + 6, Int64(a.startDate.printedOffsetSeconds / 60))
    }

    /// The entries of a top-level record as its block stores them (key ids, inserting new keys).
    func storedMetadata(_ entries: [MetadataEntry]) throws -> [StoredMetadataEntry] {
        try entries.map {
            StoredMetadataEntry(
                key: try archive.lookups.metadataKeys.id($0.key, db, insert: insertKey), value: $0.value)
        }
    }

    /// Inserts the `metadata` rows of an element other than a top-level record (those are in
    /// their blocks: `storedMetadata`).
    func insertMetadata(_ entries: [MetadataEntry], kind: Schema.OwnerKind, owner: Int64) throws {
        for (n, entry) in entries.enumerated() {
            let s = insertMetadata
            s.bind(1, kind.rawValue)
            s.bind(2, owner)
            s.bind(3, n)
            s.bind(4, try archive.lookups.metadataKeys.id(entry.key, db, insert: insertKey))
            s.bind(5, entry.value)
            try s.run()
        }
    }
}

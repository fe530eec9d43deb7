import HealthExport

/// The sources one analyzer has seen, with what it learned about each (docs/export-format.md §8), indexed
/// in order of first sight and cached by the reader's source symbol.
///
/// Not thread-safe: it belongs to one analyzer.
struct SourceTable {
    private(set) var facts: [SourceFacts] = []
    private var bySymbol: [Int32] = []
    private var byName: [String: Int] = [:]

    var count: Int { facts.count }

    /// The most sources the table holds: a cumulative sample stores its source's priority
    /// position in 16 bits. Samples of further sources are dropped and counted
    /// (`tooManySources`; a note of the report says how many).
    static let limit = Int(UInt16.max) + 1

    /// The index of the record's source (registering it on first sight), after noting its
    /// creation date and device class; nil for a new source once the table holds `limit`.
    @inline(__always)
    mutating func index(of r: UnsafePointer<Record>) -> Int? {
        let symbol = Int(r.pointee.sourceSymbol)
        let s: Int
        if symbol >= 0 && symbol < bySymbol.count && bySymbol[symbol] >= 0 {
            s = Int(bySymbol[symbol])
        } else {
            guard let new = index(named: r.pointee.sourceName, symbol: symbol) else { return nil }
            s = new
        }
        observe(creation: r.pointee.creationDate, device: r.pointee.device, source: s)
        return s
    }

    /// The index of the source named `name`, registering it on first sight; `symbol` (the
    /// reader's interned id, or -1) is cached for later lookups. Nil for a new source once the
    /// table holds `limit`.
    mutating func index(named name: String, symbol: Int = -1) -> Int? {
        let s: Int
        if let known = byName[name] {
            s = known
        } else {
            guard facts.count < Self.limit else { return nil }
            s = facts.count
            facts.append(SourceFacts(name: name))
            byName[name] = s
        }
        if symbol >= 0 {
            if symbol >= bySymbol.count {
                bySymbol.append(contentsOf: repeatElement(-1, count: symbol + 1 - bySymbol.count))
            }
            bySymbol[symbol] = Int32(s)
        }
        return s
    }

    /// Notes a creation date and a device string seen on a sample of source `s`.
    @inline(__always)
    mutating func observe(creation: Timestamp?, device: Device?, source s: Int) {
        if let c = creation?.secondsSince1970, c < facts[s].earliestCreation {
            facts[s].earliestCreation = c
        }
        if !facts[s].sawWatchDevice, let device {
            let id = ObjectIdentifier(device)
            guard facts[s].lastDevice != id else { return }
            facts[s].lastDevice = id
            if device.isAppleWatch {
                facts[s].sawWatchDevice = true
            } else if device.isIPhone {
                facts[s].sawPhoneDevice = true
            }
        }
    }

    /// Only Apple Watch writes `AppleStandHour` records (see `SourceFacts.writesStandHours`).
    mutating func noteWritesStandHours(_ s: Int) { facts[s].writesStandHours = true }

    /// Adds `other`'s sources by name, combining what both learned about each.
    /// - Returns: for each index of `other`, the index of the same source here, or -1 for a
    ///   source past `limit` (its samples are dropped and counted).
    mutating func merge(_ other: SourceTable) -> [Int] {
        other.facts.map { f in
            guard let s = index(named: f.name) else { return -1 }
            facts[s].sawWatchDevice = facts[s].sawWatchDevice || f.sawWatchDevice
            facts[s].sawPhoneDevice = facts[s].sawPhoneDevice || f.sawPhoneDevice
            facts[s].writesStandHours = facts[s].writesStandHours || f.writesStandHours
            facts[s].earliestCreation = min(facts[s].earliestCreation, f.earliestCreation)
            return s
        }
    }
}

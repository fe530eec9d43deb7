import Foundation
import HealthExport

/// What the analyzer learns about one source while streaming (reference §2.6).
struct SourceFacts: Sendable {
    var name: String
    var sawWatchDevice = false
    var sawPhoneDevice = false
    /// Only Apple Watch writes `AppleStandHour` records, so writing one identifies a watch even
    /// when the device string is missing and the name is localized.
    var writesStandHours = false
    /// The earliest `creationDate` seen (`Int64.max` when none).
    var earliestCreation = Int64.max
    /// The last `Device` object looked at, to skip re-checking a shared instance.
    var lastDevice: ObjectIdentifier?

    init(name: String) { self.name = name }

    /// The class for the default order: `Health` is manual; then, strongest evidence first:
    /// a Watch device (`model:Watch`/`hardware:Watch…`) or a name ending in "Apple Watch";
    /// an iPhone device; stand-hour records (a localized Watch name without device strings);
    /// "iPhone" in the name; else other.
    var sourceClass: SourceClass {
        if name == "Health" { return .manual }
        if sawWatchDevice || spacesNormalized.hasSuffix("Apple Watch") { return .watch }
        if sawPhoneDevice { return .phone }
        if writesStandHours { return .watch }
        if name.contains("iPhone") { return .phone }
        return .other
    }

    /// The name with no-break spaces (U+00A0, U+202F), which real exports put in "Apple Watch",
    /// turned into plain spaces.
    var spacesNormalized: String {
        String(name.unicodeScalars.map { $0 == "\u{00A0}" || $0 == "\u{202F}" ? " " : Character($0) })
    }
}

/// The priority order of sources and the rank of every sample (reference §5.4 "Default ranks").
///
/// Sources are ordered by the `--source-order` names first (in the given order), then by class
/// (manual, watch, phone, other), within a class newest-first by earliest `creationDate`
/// (a new source is placed above older ones, as the Health app does for third-party sources;
/// sources without a creation date after those with one), ties by name.
///
/// A sample's rank (0 = highest) depends on its source and on `HKWasUserEntered`: manual
/// samples of a source not named in `--source-order` rank above every unnamed source's normal
/// samples (the Health app puts manual entries first); a named source keeps all its samples at
/// its named place (its manual ones just above its others). So there are two rank keys per
/// source, and every key belongs to exactly one source, which lets the sweep attribute what it
/// counts.
struct SourcePriority: Sendable {
    /// Source-table indices, highest priority first.
    let order: [Int]
    /// Position in `order` for each source-table index.
    let position: [Int]
    let classes: [SourceClass]  // by position
    let names: [String]  // by position
    /// Rank key of a manual / normal sample, by source position.
    let manualRank: [Int32]
    let normalRank: [Int32]
    /// Source position of each rank key.
    let positionOfRank: [Int32]
    /// Names from `--source-order` that match no source.
    let unmatchedNames: [String]

    var rankCount: Int { positionOfRank.count }

    init(sources: [SourceFacts], preferred: [String]?) {
        let classes = sources.map(\.sourceClass)
        var byDefault = Array(sources.indices)
        byDefault.sort { a, b in
            let ca = classes[a]
            let cb = classes[b]
            if ca != cb { return ca < cb }
            let ea = sources[a].earliestCreation
            let eb = sources[b].earliestCreation
            if ea != eb {
                // Newest first; a source without a creation date after those with one.
                if ea == .max { return false }
                if eb == .max { return true }
                return ea > eb
            }
            return sources[a].name < sources[b].name
        }
        var named: [Int] = []
        var unmatched: [String] = []
        for raw in preferred ?? [] {
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            if let i = sources.firstIndex(where: { $0.name == name }) {
                if !named.contains(i) { named.append(i) }
            } else if !unmatched.contains(name) {
                unmatched.append(name)
            }
        }
        let rest = byDefault.filter { !named.contains($0) }
        let order = named + rest
        var position = [Int](repeating: 0, count: sources.count)
        for (p, i) in order.enumerated() { position[i] = p }

        let n = order.count
        let k = named.count
        var manualRank = [Int32](repeating: 0, count: n)
        var normalRank = [Int32](repeating: 0, count: n)
        for p in 0..<n {
            if p < k {
                manualRank[p] = Int32(2 * p)
                normalRank[p] = Int32(2 * p + 1)
            } else {
                manualRank[p] = Int32(2 * k + (p - k))
                normalRank[p] = Int32(2 * k + (n - k) + (p - k))
            }
        }
        var positionOfRank = [Int32](repeating: 0, count: 2 * n)
        for p in 0..<n {
            positionOfRank[Int(manualRank[p])] = Int32(p)
            positionOfRank[Int(normalRank[p])] = Int32(p)
        }
        self.order = order
        self.position = position
        self.classes = order.map { classes[$0] }
        self.names = order.map { sources[$0].name }
        self.manualRank = manualRank
        self.normalRank = normalRank
        self.positionOfRank = positionOfRank
        self.unmatchedNames = unmatched
    }

    /// The rank key of a sample of the source at `position`.
    @inline(__always)
    func rank(position p: Int, manual: Bool) -> Int { Int(manual ? manualRank[p] : normalRank[p]) }

    /// The order as the result reports it.
    var rankedSources: [RankedSource] {
        names.indices.map { RankedSource(name: names[$0], sourceClass: classes[$0], rank: $0) }
    }
}

import HealthExport

/// Cumulative quantity types (steps, distances, active and basal energy, flights, exercise,
/// stand and move time, dietary, …): cumulative sums per local day, de-duplicated across sources
/// by priority coverage with time proration (reference §5.4), plus the Apple Watch-only sums the
/// Move and Exercise rings use (reference §4.1) and the raw per-source totals of `sources.csv`.
///
/// Memory: every sample is kept as a 16-byte `CumulativeSample` until `finish`.
final class CumulativeTypes: DomainAccumulator {
    private let options: AnalysisOptions
    /// Slot by slot: the fixed slots of `CumulativeSlot` first, then other types in order of first sight.
    private(set) var types: [CumulativeType] = TypeCatalog.fixed
    private var stores: [ChunkedStore<CumulativeSample>] = Array(
        repeating: ChunkedStore(), count: TypeCatalog.fixed.count)
    private var slotByIdentifier: [String: Int] = [:]

    init(options: AnalysisOptions) {
        self.options = options
        for (slot, type) in TypeCatalog.fixed.enumerated() { slotByIdentifier[type.identifier] = slot }
    }

    func route(type: String) -> Int32? {
        guard case .cumulative = TypeCatalog.classify(type).role else { return nil }
        return Int32(slot(for: type))
    }

    /// The slot of cumulative type `identifier`, created on first sight.
    private func slot(for identifier: String) -> Int {
        if let slot = slotByIdentifier[identifier] { return slot }
        guard let newType = TypeCatalog.classify(identifier).newCumulative else {
            preconditionFailure("not a cumulative type: \(identifier)")
        }
        let slot = types.count
        types.append(newType)
        stores.append(ChunkedStore())
        slotByIdentifier[identifier] = slot
        return slot
    }

    @inline(__always)
    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        let slot = Int(route)
        guard case .quantity(let q) = r.pointee.value, q.unit == types[slot].unit else {
            context.counters.countUnexpectedUnit(line: r.pointee.line)
            return
        }
        let start = r.pointee.startDate.secondsSince1970
        let end = r.pointee.endDate.secondsSince1970
        guard end >= start else {
            context.counters.countEndBeforeStart(line: r.pointee.line)
            return
        }
        guard q.value >= 0 else {  // also false for NaN
            context.counters.countNegativeValue(line: r.pointee.line)
            return
        }
        guard start >= 0, end <= Int64(UInt32.max), q.value.isFinite else {
            context.counters.outOfRange += 1
            return
        }
        let s = context.sources.index(of: r)
        guard s <= Int(UInt16.max) else {
            context.counters.tooManySources += 1
            return
        }
        let manual = !r.pointee.metadata.isEmpty && r.pointee.wasUserEntered
        stores[slot].append(
            CumulativeSample(
                start: UInt32(start), duration: UInt32(end - start), value: Float(q.value),
                source: UInt16(s), flags: manual ? CumulativeSample.manual : 0))
        context.cover(start, end > start ? end - 1 : end)
    }

    func merge(_ other: any DomainAccumulator, sourceMap: [Int], context: StreamContext) {
        let other = other as! CumulativeTypes
        for otherSlot in other.types.indices {
            let slot = slot(for: other.types[otherSlot].identifier)
            var samples = other.stores[otherSlot].drain()
            for var sample in samples {
                // The merged table can pass the 16-bit source index that each part stayed under.
                let s = sourceMap[Int(sample.source)]
                guard s <= Int(UInt16.max) else {
                    context.counters.tooManySources += 1
                    continue
                }
                sample.source = UInt16(s)
                stores[slot].append(sample)
            }
        }
    }

    func finish(_ context: inout FinishContext) {
        let priority = context.priority
        let span = context.span
        let report = context.report
        let calendar = context.calendar
        let positions = priority.order.count
        let watchOnly = priority.classes.map { $0 == .watch }
        let fillerEligible = priority.classes.map { $0 == .other }
        var exactDuplicates = Array(repeating: 0, count: stores.count)
        // Fixed slots first, then the others by identifier (their slot order is input order).
        let slots =
            Array(0..<CumulativeSlot.fixedCount)
            + (CumulativeSlot.fixedCount..<stores.count).sorted { types[$0].identifier < types[$1].identifier }
        for slot in slots {
            var samples = stores[slot].drain()
            guard !samples.isEmpty else { continue }
            for k in samples.indices {
                samples[k].source = UInt16(priority.position[Int(samples[k].source)])
            }
            samples.sort(by: CumulativeSample.order)
            if options.removeExactDuplicates {
                exactDuplicates[slot] = Self.removeExactDuplicates(&samples)
            }
            let type = types[slot]
            let tracksFiller = options.deduplicate && slot <= CumulativeSlot.basalEnergy
            samples.withUnsafeBufferPointer { buffer in
                // Raw per-source totals: plain sums prorated into days.
                var raw = MergeAccumulator(
                    firstDay: span.first, dayCount: span.count, window: report, positions: positions)
                prorate(buffer, priority: priority, include: nil, calendar: calendar, into: &raw)
                var merged = raw
                if options.deduplicate {
                    merged = MergeAccumulator(
                        firstDay: span.first, dayCount: span.count, window: report, positions: positions,
                        fillerEligible: tracksFiller ? fillerEligible : nil)
                    mergeByPriority(buffer, priority: priority, include: nil, calendar: calendar, into: &merged)
                }
                context.daily.setAll(slot: slot, merged)
                for p in 0..<positions where raw.samples[p] > 0 {
                    context.result.sources.append(
                        SourceContribution(
                            type: type.identifier, sourceName: priority.names[p], sourceClass: priority.classes[p],
                            samples: raw.samples[p], rawTotal: raw.counted[p], countedTotal: merged.counted[p],
                            unit: type.unit))
                }
                context.notes.append(contentsOf: Self.fillerNotes(merged.fillers, type: type, priority: priority))
                // The rings count Apple Watch samples only (reference §4.1).
                if slot == CumulativeSlot.activeEnergy || slot == CumulativeSlot.exerciseTime
                    || slot == CumulativeSlot.moveTime
                {
                    var watch = MergeAccumulator(
                        firstDay: span.first, dayCount: span.count, window: report, positions: positions)
                    if options.deduplicate {
                        mergeByPriority(
                            buffer, priority: priority, include: watchOnly, calendar: calendar, into: &watch)
                    } else {
                        prorate(buffer, priority: priority, include: watchOnly, calendar: calendar, into: &watch)
                    }
                    context.daily.setWatch(slot: slot, watch)
                }
            }
        }
        let duplicates = exactDuplicates.reduce(0, +)
        if duplicates > 0 {
            let perType = exactDuplicates.indices.filter { exactDuplicates[$0] > 0 }.map {
                "\(TypeCatalog.shortName(types[$0].identifier)) \(exactDuplicates[$0])"
            }
            context.notes.append(
                "Removed \(duplicates) exact duplicate sample(s) (\(perType.joined(separator: ", "))).")
        }
    }

    /// Removes samples equal to their predecessor in type, source, start, end and value (the
    /// type is the array's); a manual flag on either copy survives. Returns how many went.
    static func removeExactDuplicates(_ samples: inout [CumulativeSample]) -> Int {
        guard samples.count > 1 else { return 0 }
        var kept = 0
        for k in 1..<samples.count {
            let s = samples[k]
            let last = samples[kept]
            if s.start == last.start && s.duration == last.duration && s.source == last.source && s.value == last.value
            {
                samples[kept].flags |= s.flags
            } else {
                kept += 1
                samples[kept] = s
            }
        }
        let removed = samples.count - (kept + 1)
        samples.removeLast(removed)
        return removed
    }

    static func fillerNotes(
        _ fillers: [(day: Int, position: Int, share: Double)], type: CumulativeType, priority: SourcePriority
    ) -> [String] {
        guard !fillers.isEmpty else { return [] }
        let name = TypeCatalog.shortName(type.identifier)
        var byPosition: [Int: [(day: Int, share: Double)]] = [:]
        for f in fillers { byPosition[f.position, default: []].append((f.day, f.share)) }
        return byPosition.keys.sorted().map { p in
            let days = byPosition[p]!
            let top = days.max { a, b in a.share != b.share ? a.share < b.share : a.day > b.day }!
            let pct = Int((top.share * 100).rounded())
            return "\(name): the low-priority source \"\(priority.names[p])\" filled gaps for "
                + "\(Int((MergeAccumulator.fillerShare * 100).rounded())) % or more of the day's total on \(days.count) day(s) "
                + "(most: \(pct) % on \(CivilDate(daysSince1970: top.day))). A coarse source filling hours that "
                + "better sources left empty can inflate totals; --source-order or --no-dedup show the alternatives."
        }
    }
}

extension CumulativeSample {
    /// Sort order of samples: by start (the sweep needs it), then by every other field, so that
    /// exact duplicates are adjacent and the order never depends on the input order.
    static func order(_ a: CumulativeSample, _ b: CumulativeSample) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.duration != b.duration { return a.duration < b.duration }
        if a.source != b.source { return a.source < b.source }
        if a.value != b.value { return a.value < b.value }
        return a.flags < b.flags
    }
}

import HealthExport

/// Cumulative quantity types (steps, distances, active and basal energy, flights, exercise,
/// stand and move time, dietary, …): cumulative sums per local day, de-duplicated across sources
/// by priority coverage with time proration (docs/deduplication.md §4), plus the Apple Watch-only sums the
/// Move and Exercise rings use (docs/rings.md §1) and the raw per-source totals of `sources.csv`.
///
/// Memory: bounded. Every sample is kept as a 16-byte `CumulativeSample` in a `CumulativeStore`
/// (an external sort: at most `bufferLimit` samples in memory, sorted runs in the scratch space);
/// `finish` streams each type's samples in order through incremental sweeps that keep only the
/// samples active at the current instant.
final class CumulativeTypes: DomainAccumulator {
    private let options: AnalysisOptions
    /// Slot by slot: the fixed slots of `CumulativeSlot` first, then other types in order of first sight.
    @exclusivity(unchecked) private(set) var types: [CumulativeType] = TypeCatalog.fixed
    @exclusivity(unchecked) private(set) var store: CumulativeStore
    private var slotByIdentifier: [String: Int] = [:]

    init(options: AnalysisOptions, scratch: any ScratchSpace, bufferLimit: Int) {
        self.options = options
        store = CumulativeStore(slots: TypeCatalog.fixed.count, scratch: scratch, bufferLimit: bufferLimit)
        for (slot, type) in TypeCatalog.fixed.enumerated() { slotByIdentifier[type.identifier] = slot }
    }

    /// The longest cumulative sample kept: 31 days. A sample is prorated over every local day it
    /// covers (docs/deduplication.md §4), so one sample over decades would cost a row per day of them; a
    /// longer one is dropped and counted, with its line, in the report's notes.
    /// Real samples last seconds to a day.
    static let maxDurationSeconds: Int64 = 31 * 86_400

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
        _ = store.addSlot()
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
        guard start >= 0, end <= Int64(UInt32.max) else {
            context.counters.outOfRange += 1
            return
        }
        guard PlausibleMetric.cumulative.admits(q.value) else {  // kept as a Float: 10^9 is far inside
            context.counters.implausible.count(.cumulative, line: r.pointee.line)
            return
        }
        guard end - start <= Self.maxDurationSeconds else {
            context.counters.countTooLong(line: r.pointee.line)
            return
        }
        guard let s = context.sources.index(of: r), s <= Int(UInt16.max) else {
            context.counters.tooManySources += 1
            return
        }
        let manual = !r.pointee.metadata.isEmpty && r.pointee.wasUserEntered
        store.append(
            CumulativeSample(
                start: UInt32(start), duration: UInt32(end - start), value: Float(q.value),
                source: UInt16(s), flags: manual ? CumulativeSample.manual : 0),
            slot: slot)
        context.cover(start, end > start ? end - 1 : end)
    }

    func merge(_ other: CumulativeTypes, sourceMap: [Int], context: StreamContext) {
        let slotMap = other.types.map { slot(for: $0.identifier) }
        // The merged table can pass the 16-bit source index that each part stayed under.
        context.counters.tooManySources += store.merge(other.store, slotMap: slotMap, sourceMap: sourceMap)
        // A merged analyzer is done: free its buffer now (its runs are referenced here).
        other.store = CumulativeStore(slots: other.store.slotCount, scratch: other.store.scratch, bufferLimit: 1)
    }

    /// What one type's pass over its sorted samples gives (see `finish`).
    struct SlotOutcome {
        var exactDuplicates: Int
        var raw: MergeAccumulator
        var counted: MergeAccumulator
        var watch: MergeAccumulator?
        var phoneMove: MergeAccumulator?
    }

    /// The slots with samples, in the order their outcomes are written: the fixed slots first,
    /// then the others by identifier (their slot order is input order).
    private func finishedSlots() -> [Int] {
        (Array(0..<CumulativeSlot.fixedCount)
            + (CumulativeSlot.fixedCount..<store.slotCount).sorted { types[$0].identifier < types[$1].identifier })
            .filter { store.counts[$0] > 0 }
    }

    /// One part per type with samples: its pass over the sorted samples (`pass`), which reads
    /// the store only. The parts' outcomes are written in `finish(_:prepared:)`.
    func finishParts(_ context: FinishContext) -> [FinishPart<SlotOutcome>] {
        store.prepareForStreaming()
        let store = self.store
        let options = self.options
        let priority = context.priority
        let report = context.report
        let calendar = context.calendar
        let slots = finishedSlots()
        let streams = max(1, min(context.threads, slots.count))
        return slots.map { slot in
            FinishPart(cost: store.counts[slot]) {
                try Self.pass(
                    slot: slot, store: store, concurrentStreams: streams, options: options, priority: priority,
                    report: report, calendar: calendar)
            }
        }
    }

    func finish(_ context: inout FinishContext) throws {
        try finish(&context, prepared: finishParts(context).map { try $0.run() })
    }

    func finish(_ context: inout FinishContext, prepared outcomes: [SlotOutcome]) throws {
        let priority = context.priority
        let slots = finishedSlots()
        precondition(outcomes.count == slots.count, "CumulativeTypes.finish: one outcome per type with samples")
        var exactDuplicates = Array(repeating: 0, count: store.slotCount)
        for (slot, outcome) in zip(slots, outcomes) {
            let type = types[slot]
            exactDuplicates[slot] = outcome.exactDuplicates
            let counted = outcome.counted
            context.daily.setAll(slot: slot, counted)
            for p in 0..<priority.order.count where outcome.raw.samples[p] > 0 {
                context.result.sources.append(
                    SourceContribution(
                        type: type.identifier, sourceName: priority.names[p], sourceClass: priority.classes[p],
                        samples: outcome.raw.samples[p], rawTotal: outcome.raw.counted[p],
                        countedTotal: counted.counted[p], unit: type.unit))
            }
            context.notes.append(contentsOf: Self.fillerNotes(counted.fillers, type: type, priority: priority))
            if let watch = outcome.watch { context.daily.setWatch(slot: slot, watch) }
            if let phone = outcome.phoneMove { context.daily.setPhoneMove(phone) }
        }
        let duplicates = exactDuplicates.reduce(0, +)
        if duplicates > 0 {
            let perType = exactDuplicates.indices.filter { exactDuplicates[$0] > 0 }.map {
                "\(TypeCatalog.shortName(types[$0].identifier)) \(grouped(exactDuplicates[$0]))"
            }
            context.notes.append(
                .info("Removed \(counted(duplicates, "exact duplicate sample")) (\(perType.joined(separator: ", ")))."))
        }
    }

    /// One pass over the sorted samples of `slot` feeds every sweep: the raw per-source totals
    /// (plain sums prorated into days), the merge (docs/deduplication.md §4), and for the rings (which count
    /// Apple Watch samples only, docs/rings.md §1) the Watch-only merge; for active energy also
    /// the iPhone-only merge (the Move ring estimated on the phone, iOS 16+, docs/rings.md §1).
    /// Reads `store` only, so passes over different slots may run at once.
    private static func pass(
        slot: Int, store: CumulativeStore, concurrentStreams: Int, options: AnalysisOptions,
        priority: SourcePriority, report: ClosedRange<Int>, calendar: LocalCalendar
    ) throws -> SlotOutcome {
        let positions = priority.order.count
        let tracksFiller = options.deduplicate && slot <= CumulativeSlot.basalEnergy
        let cursor = DayCursor(calendar)
        func accumulator(fillerEligible: [Bool]? = nil) -> MergeAccumulator {
            MergeAccumulator(window: report, positions: positions, fillerEligible: fillerEligible)
        }
        let watchOnly = priority.classes.map { $0 == .watch }
        let fillerEligible = priority.classes.map { $0 == .other }
        var raw = ProrationSweep(priority: priority, include: nil, buckets: cursor, into: accumulator())
        var merged =
            options.deduplicate
            ? PriorityMergeSweep(
                priority: priority, include: nil, buckets: cursor,
                into: accumulator(fillerEligible: tracksFiller ? fillerEligible : nil)) : nil
        // The sources of one class only: merged by priority, or prorated with --no-dedup.
        func restricted(to include: [Bool]) -> (PriorityMergeSweep<DayCursor>?, ProrationSweep<DayCursor>?) {
            options.deduplicate
                ? (PriorityMergeSweep(priority: priority, include: include, buckets: cursor, into: accumulator()), nil)
                : (nil, ProrationSweep(priority: priority, include: include, buckets: cursor, into: accumulator()))
        }
        let ring =
            slot == CumulativeSlot.activeEnergy || slot == CumulativeSlot.exerciseTime
            || slot == CumulativeSlot.moveTime
        var (watchMerged, watchProrated) = ring ? restricted(to: watchOnly) : (nil, nil)
        let move = slot == CumulativeSlot.activeEnergy
        var (phoneMerged, phoneProrated) = move ? restricted(to: priority.classes.map { $0 == .phone }) : (nil, nil)
        let duplicates = try store.streamSorted(
            slot: slot, positions: priority.position, removingDuplicates: options.removeExactDuplicates,
            concurrentStreams: concurrentStreams
        ) { s in
            raw.add(s)
            merged?.add(s)
            watchMerged?.add(s)
            watchProrated?.add(s)
            phoneMerged?.add(s)
            phoneProrated?.add(s)
        }
        raw.finish()
        merged?.finish()
        watchMerged?.finish()
        watchProrated?.finish()
        phoneMerged?.finish()
        phoneProrated?.finish()
        return SlotOutcome(
            exactDuplicates: duplicates, raw: raw.acc, counted: merged?.acc ?? raw.acc,
            watch: watchMerged?.acc ?? watchProrated?.acc, phoneMove: phoneMerged?.acc ?? phoneProrated?.acc)
    }

    static func fillerNotes(
        _ fillers: [(day: Int, position: Int, share: Double)], type: CumulativeType, priority: SourcePriority
    ) -> [AnalysisNote] {
        guard !fillers.isEmpty else { return [] }
        let name = TypeCatalog.shortName(type.identifier)
        var byPosition: [Int: [(day: Int, share: Double)]] = [:]
        for f in fillers { byPosition[f.position, default: []].append((f.day, f.share)) }
        return byPosition.keys.sorted().map { p in
            let days = byPosition[p]!
            let top = days.max { a, b in a.share != b.share ? a.share < b.share : a.day > b.day }!
            let pct = Int((top.share * 100).rounded())
            return .info(
                "\(name): the low-priority source \"\(priority.names[p])\" filled gaps for "
                    + "\(Int((MergeAccumulator.fillerShare * 100).rounded())) % or more of the day's total on \(counted(days.count, "day")) "
                    + "(most: \(pct) % on \(CivilDate(daysSince1970: top.day))). A coarse source filling hours that "
                    + "better sources left empty can inflate totals; --source-order or --no-dedup show the alternatives."
            )
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

extension SyntheticExportConfiguration {
    /// The order of the `Record` elements in the document. The records themselves, the
    /// correlations, workouts and activity summaries after them, and the truth are the same
    /// for both orders; only device addresses (`<<HKDevice: 0x…>>`) differ, as they are handed
    /// out in writing order.
    public enum RecordOrder: String, Sendable, CaseIterable {
        /// Type by type (every `StepCount`, then every `DistanceWalkingRunning`, …), each type
        /// in time order: what the Health app writes.
        case byType
        /// Day by day, and within a day type by type: what tools that merge or re-export data
        /// write.
        case byDay
    }
}

extension Generator {
    /// The `Record` elements in `RecordOrder.byType` order, with the truth of every type.
    mutating func writeRecordsByType(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var samples: [Sample] = []
        samples.reserveCapacity(4096)
        for kind in RecordKind.allCases {
            var pieces: [PriorityCoverage.Piece] = []
            for plan in plans { try writeRecords(kind, plan, &samples, pieces: &pieces, sink) }
            if kind.isCumulative { accumulateCumulative(kind, pieces) }
        }
    }

    /// The `Record` elements in `RecordOrder.byDay` order, with the truth of every type.
    mutating func writeRecordsByDay(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var samples: [Sample] = []
        samples.reserveCapacity(4096)
        var pieces: [[PriorityCoverage.Piece]] = Array(repeating: [], count: RecordKind.allCases.count)
        for plan in plans {
            for (k, kind) in RecordKind.allCases.enumerated() {
                try writeRecords(kind, plan, &samples, pieces: &pieces[k], sink)
            }
        }
        for (k, kind) in RecordKind.allCases.enumerated() where kind.isCumulative {
            accumulateCumulative(kind, pieces[k])
        }
    }

    /// The records of `kind` on one day's plan, in time order (then by source), counted; a
    /// cumulative type's pieces are appended to `pieces` for its truth, a discrete type's truth
    /// is added at once. `samples` is scratch space.
    private mutating func writeRecords(
        _ kind: RecordKind, _ plan: DayPlan, _ samples: inout [Sample], pieces: inout [PriorityCoverage.Piece],
        _ sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        samples.removeAll(keepingCapacity: true)
        makeSamples(kind, plan, into: &samples)
        samples.sort { ($0.start, $0.source.rawValue) < ($1.start, $1.source.rawValue) }
        for s in samples {
            writeRecord(kind, s, indent: 1)
            if out.count >= OutputBuffer.flushThreshold { try flush(sink) }
        }
        if !samples.isEmpty { recordCounts[kind.typeIdentifier, default: 0] += samples.count }
        if kind.isCumulative {
            for s in samples {
                pieces.append(.init(start: s.start, end: s.end, value: s.value, rank: UInt8(s.source.rank)))
            }
        } else {
            accumulateDiscrete(kind, plan, samples)
        }
    }
}

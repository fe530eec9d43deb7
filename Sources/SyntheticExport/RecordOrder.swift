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
    /// The `Record` elements in `RecordOrder.byDay` order, with the truth of every type.
    mutating func writeRecordsByDay(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var samples: [Sample] = []
        samples.reserveCapacity(4096)
        var pieces: [[PriorityCoverage.Piece]] = Array(repeating: [], count: RecordKind.allCases.count)
        for plan in plans {
            for (k, kind) in RecordKind.allCases.enumerated() {
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
                        pieces[k].append(.init(start: s.start, end: s.end, value: s.value, rank: UInt8(s.source.rank)))
                    }
                } else {
                    accumulateDiscrete(kind, plan, samples)
                }
            }
        }
        for (k, kind) in RecordKind.allCases.enumerated() where kind.isCumulative {
            accumulateCumulative(kind, pieces[k])
        }
    }
}

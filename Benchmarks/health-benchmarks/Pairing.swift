/// Two phases measured back to back in every round, on the same warm input: `measured` then
/// `baseline` in odd rounds, `baseline` then `measured` in even ones, so that a drift in the
/// machine's speed falls on both alike. A target on the pair is judged on the median of the
/// per-round ratios, never on the best time of one phase over the best of another.
///
/// A new benchmark mode (say `--batch`, in a file of its own) adds its phases and its pairs
/// with their targets, and gets the rounds, the ratios and the busy-machine rule from here.
struct PhasePair {
    var measured: Phase
    var baseline: Phase
    /// The targets on this pair's ratio; empty for a pair shown for information.
    var targets: [PairTarget] = []

    /// The order of the two runs in round `round` (1-based): A B, then B A, alternating.
    func order(inRound round: Int) -> [Phase] {
        round % 2 == 1 ? [measured, baseline] : [baseline, measured]
    }

    /// The pairs of one benchmark run: every phase with a target next to the phase its target
    /// names; the others next to the bare pass, for information. Order matters: the import
    /// pair comes before the pairs that need its archive (re-import, report --db).
    static func standard(zip: Bool) -> [PhasePair] {
        var out = [
            PhasePair(
                measured: .reader, baseline: .bare,
                targets: [PairTarget(kind: .throughputAtLeast, limit: 0.7)]),
            PhasePair(measured: .readerThreads, baseline: .bare),
            PhasePair(measured: .report, baseline: .bare),
            PhasePair(
                measured: .reportThreads, baseline: .bare,
                targets: [PairTarget(kind: .wallAtMost, limit: 0.6)]),
        ]
        if zip {
            out.append(PhasePair(measured: .readerZipThreads, baseline: .bare))
            out.append(
                PhasePair(
                    measured: .reportZipThreads, baseline: .bare,
                    targets: [PairTarget(kind: .wallAtMost, limit: 1.0)]))
        }
        out += [
            PhasePair(
                measured: .importFirst, baseline: .reportThreads,
                targets: [
                    PairTarget(kind: .wallAtMost, limit: 2.0)
                ]),
            PhasePair(
                measured: .reimport, baseline: .importFirst,
                targets: [PairTarget(kind: .wallAtMost, limit: 1.0)]),
            PhasePair(
                measured: .reportDB, baseline: .reportThreads,
                targets: [PairTarget(kind: .wallAtMost, limit: 0.5)]),
        ]
        return out
    }
}

/// A limit on a pair's ratio.
struct PairTarget {
    enum Kind {
        /// measured wall time / baseline wall time <= limit
        case wallAtMost
        /// measured throughput / baseline throughput (bytes per wall second) >= limit
        case throughputAtLeast
    }
    var kind: Kind
    var limit: Double

    func met(by value: Double) -> Bool { kind == .wallAtMost ? value <= limit : value >= limit }
}

/// One round of a pair: the two runs, adjacent.
struct PairRound {
    var measured: RunResult
    var baseline: RunResult

    var wallRatio: Double { measured.seconds / baseline.seconds }
    var throughputRatio: Double {
        (Double(measured.bytes) / measured.seconds) / (Double(baseline.bytes) / baseline.seconds)
    }
    func value(_ kind: PairTarget.Kind) -> Double { kind == .wallAtMost ? wallRatio : throughputRatio }
}

/// The per-round ratios of one pair and what is judged on them.
struct PairSummary {
    var pair: PhasePair
    var rounds: [PairRound]

    /// The per-round values of `kind`, their median, lowest and highest (nan without rounds).
    func ratios(_ kind: PairTarget.Kind) -> (median: Double, min: Double, max: Double, values: [Double]) {
        let values = rounds.map { $0.value(kind) }
        return (median(values), values.min() ?? .nan, values.max() ?? .nan, values)
    }

    var name: String { "\(pair.measured.title) / \(pair.baseline.title)" }
}

/// Why a target is not judged, if it is not: the machine was busy, or too few rounds ran.
enum Judging {
    static let minimumRounds = 5

    case judged
    case machineBusy
    case tooFewRounds

    init(machine: MachineLoad?, rounds: Int) {
        if machine?.isBusy ?? true {
            self = .machineBusy
        } else if rounds < Judging.minimumRounds {
            self = .tooFewRounds
        } else {
            self = .judged
        }
    }

    /// The verdict of a target that `met` or not, under this judging.
    func verdict(_ met: Bool) -> Target.Verdict {
        switch self {
        case .judged: return met ? .pass : .fail
        case .machineBusy: return .notJudgedBusy
        case .tooFewRounds: return .notJudgedRounds
        }
    }
}

/// What `runPairedRounds` measured: every run per phase, the rounds of each pair, the phases
/// that skipped, and the machine's counters just before the first run and after the last.
struct PairedRuns {
    var runs: [Phase: [RunResult]] = [:]
    var skipped: [Phase: String] = [:]
    var pairs: [PairSummary]
    var start: MachineLoad.Sample
    var end: MachineLoad.Sample
}

/// Runs `rounds` rounds of `pairs`, each pair's two phases back to back in the order
/// `PhasePair.order(inRound:)` gives, through `run` (one run of one phase, in a child).
///
/// - Throws: `PhaseError` when a run fails; a phase that skips is not run again.
func runPairedRounds(_ pairs: [PhasePair], rounds: Int, run: (Phase) throws -> RunResult) throws -> PairedRuns {
    var result = PairedRuns(
        pairs: pairs.map { PairSummary(pair: $0, rounds: []) }, start: .now(), end: .now())
    for round in 1...max(1, rounds) {
        for (k, pair) in pairs.enumerated() {
            var got: [Phase: RunResult] = [:]
            for phase in pair.order(inRound: round) where result.skipped[phase] == nil {
                let r = try run(phase)
                switch r.status {
                case .error:
                    throw PhaseError(description: "\(phase.title) failed: \(r.message ?? "unknown error")")
                case .skipped:
                    result.skipped[phase] = r.message ?? "skipped"
                    printError("[\(round)/\(rounds)] \(phase.title): skipped (\(result.skipped[phase]!))")
                case .ok:
                    result.runs[phase, default: []].append(r)
                    got[phase] = r
                    printError(
                        "[\(round)/\(rounds)] \(phase.title): \(fixed(r.seconds, 3)) s, "
                            + "peak RSS \(fixed(Double(r.peakRSSKiB) * 1024 / 1e6, 1)) MB")
                }
            }
            if let m = got[pair.measured], let b = got[pair.baseline] {
                result.pairs[k].rounds.append(PairRound(measured: m, baseline: b))
            }
        }
    }
    result.end = .now()
    return result
}

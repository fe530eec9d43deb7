/// How far a ring value derived from records may be from the day's ActivitySummary value and
/// still agree with it (docs/rings.md §4). The one statement of the tolerances: the cross-check
/// of the report (`Analyzer.crossCheck`) and the ranking of zone candidates by how well their
/// days match the summaries (`RingAgreement`, TimeZones/RingQuarterHours.swift) both use it.
enum RingTolerance: Sendable {
    /// Move in energy: ±max(1 kcal, 1 % of the summary's value).
    case energy
    /// Exercise minutes and Move minutes (time mode): ±1 min.
    case minutes
    /// Stand hours: exact.
    case standHours

    /// The largest difference that agrees, for a summary value of `summary`.
    func allowed(_ summary: Double) -> Double {
        switch self {
        case .energy: return max(1, abs(summary) * 0.01)
        case .minutes: return 1
        case .standHours: return 0
        }
    }

    /// True when `value` agrees with `summary` (a 1e-9 slack absorbs floating-point rounding).
    func agrees(_ value: Double, _ summary: Double) -> Bool {
        abs(value - summary) <= allowed(summary) + 1e-9
    }

    /// How far `value` is from `summary`, in tolerances (an exact ring counts whole units):
    /// |value − summary| ÷ max(1, allowed).
    func deviation(_ value: Double, _ summary: Double) -> Double {
        abs(value - summary) / max(1, allowed(summary))
    }
}

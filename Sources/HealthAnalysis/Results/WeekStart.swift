import HealthExport

/// Which weeks the weekly trends use (reference §6.1).
public enum WeekStart: String, Hashable, Sendable {
    /// ISO 8601: Monday start, labelled `2025-W01` by week-year and week number.
    case iso8601 = "monday"
    /// US-style: Sunday start, labelled by the first day (`week of 2025-01-05`).
    case sunday
}

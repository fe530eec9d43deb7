import HealthExport

/// Where a ring's record-derived value comes from (reference §4.1).
public enum RingSourceModel: String, Hashable, Sendable {
    /// Apple Watch samples (active energy, exercise minutes, stand hours): the Watch's rings.
    case appleWatch = "Apple Watch"
    /// iPhone active energy: the Move ring the Fitness app estimates on the phone for iPhone-only
    /// users (iOS 16+), used on days without Watch energy.
    case iPhone = "iPhone"
}

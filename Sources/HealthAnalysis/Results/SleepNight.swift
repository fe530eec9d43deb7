import HealthExport

/// One night (or the day's naps) of `sleep.csv`, by the rule of reference §3.3: the samples of
/// the highest-priority source that has asleep samples that night, the union of its asleep
/// intervals; sources are never summed. Minutes are of unions (identical or overlapping rows
/// count once).
public struct SleepNight: Hashable, Sendable {
    /// The local date on which the night ends (the wake-up day); for naps, their day.
    public var night: CivilDate
    /// A daytime nap (asleep from 10:00 and awake by 20:00 local): reported apart.
    public var isNap: Bool
    /// The source whose samples the row shows; nil when no source has asleep samples.
    public var source: String?
    /// The first asleep instant and the last one of that source.
    public var bedtime: LocalTime?
    public var wakeTime: LocalTime?
    public var asleepMinutes: Double?
    /// Stages: nil when the source records none (legacy `Asleep` / `AsleepUnspecified` only).
    public var coreMinutes: Double?
    public var deepMinutes: Double?
    public var remMinutes: Double?
    /// `AsleepUnspecified` (and the legacy `Asleep`, the same value); nil when the source has none.
    public var unspecifiedMinutes: Double?
    /// `Awake` inside the night; nil where the source records no stages and no awake samples.
    public var awakeMinutes: Double?
    /// `InBed` of the highest-priority source with InBed samples (often the iPhone); not sleep.
    public var inBedMinutes: Double?
    /// Sources with sleep samples that night (all but `source` are left out, never added).
    public var sourceCount: Int

    public init(night: CivilDate, isNap: Bool) {
        self.night = night
        self.isNap = isNap
        self.sourceCount = 0
    }
}

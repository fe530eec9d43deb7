import HealthExport

/// The nights of `sleep.csv` summed up the one way report.md, report.html, report.json and
/// `--summary` give them (docs/sleep-and-workouts.md §6): two kinds of night, each counted and
/// averaged over its own nights, never over the other's.
///
/// - **Asleep nights**: nights (not naps) with asleep minutes, from a source that records sleep
///   (a Watch, a sleep tracker).
/// - **In-bed nights**: nights (not naps) with in-bed minutes (an iPhone's sleep schedule, or a
///   tracker that records time in bed); `inBedOnlyNights` of them have no asleep minutes, the
///   nights of an iPhone without a Watch.
///
/// Minutes are per night; a mean is nil when its kind has no night.
public struct SleepSummary: Hashable, Sendable {
    public var asleepNights = 0
    public var asleepMeanMinutes: Double?
    public var inBedNights = 0
    public var inBedMeanMinutes: Double?
    public var inBedOnlyNights = 0
    /// Days with naps (asleep from 10:00, awake by 20:00), and their mean asleep minutes.
    public var napDays = 0
    public var napMeanMinutes: Double?

    /// Counts and means of `nights` (the rows of `sleep.csv`, naps included).
    public init(_ nights: [SleepNight]) {
        func mean(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        let whole = nights.filter { !$0.isNap }
        let asleep = whole.compactMap(\.asleepMinutes)
        let inBed = whole.compactMap(\.inBedMinutes)
        asleepNights = asleep.count
        asleepMeanMinutes = mean(asleep)
        inBedNights = inBed.count
        inBedMeanMinutes = mean(inBed)
        inBedOnlyNights = whole.filter { $0.asleepMinutes == nil && $0.inBedMinutes != nil }.count
        let naps = nights.filter(\.isNap).compactMap(\.asleepMinutes)
        napDays = naps.count
        napMeanMinutes = mean(naps)
    }

    /// True when no night has asleep or in-bed minutes.
    public var isEmpty: Bool { asleepNights == 0 && inBedNights == 0 }
}

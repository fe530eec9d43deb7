import HealthExport

/// One stored cumulative sample: 16 bytes.
///
/// Times are whole seconds (exports have 1-second resolution), so `UInt32` seconds since 1970
/// cover 1970–2106 exactly; samples outside are dropped and counted. The value is the canonical
/// unit's value as a `Float` (24 significant bits: exact for integer step counts below 16.7 M,
/// relative error ≤ 6·10⁻⁸ otherwise — far below the cross-check tolerances).
struct CumulativeSample: Sendable {
    var start: UInt32
    var duration: UInt32
    var value: Float
    /// The source: its index in the analyzer's source table while streaming, its position in the
    /// priority order after `finish` remaps it.
    var source: UInt16
    var flags: UInt16

    /// `HKWasUserEntered = 1` (reference §5.4: manual samples rank first).
    static let manual: UInt16 = 1

    var end: Int64 { Int64(start) + Int64(duration) }
    var isManual: Bool { flags & Self.manual != 0 }
}

/// Heart-rate statistics of one 15-minute UTC bucket (every zone offset is a multiple of
/// 15 minutes, so a bucket lies inside one local day in any zone).
///
/// The sum is kept in thousandths of a bpm as an integer, so that it is exact and therefore
/// independent of the order the samples arrive in.
struct HeartRateBucket: Sendable {
    var sumMilli: Int64 = 0
    var min: Double = .infinity
    var max: Double = -.infinity
    var count: UInt32 = 0
}

/// A sample of a once-a-day type (resting heart rate, VO2 max, body mass; reference §5.6).
struct OncePerDaySample: Sendable {
    var start: Int64
    var value: Double
    var source: Int32
    var manual: Bool
    var type: OncePerDayType
}

/// An `AppleStandHour` record.
struct StandRecord: Sendable {
    var start: Int64
    var source: Int32
    var stood: Bool
}

/// A workout, reduced to what the daily metrics need.
struct WorkoutSpan: Sendable {
    var start: Int64
    var end: Int64
    var minutes: Double
    var source: Int32
}

import Foundation
import HealthExport

/// Local days and hours of one zone over a range of instants, from a precomputed table of UTC
/// offset transitions (reference §2.7, §5.4 "Buckets").
///
/// A local day is `[local midnight D, local midnight D+1)`: 23 or 25 hours on DST change days,
/// never `86 400` s by assumption. Day numbers are days since 1970-01-01 in the local calendar
/// (so `CivilDate(daysSince1970:)` names them).
struct LocalCalendar: Sendable {
    /// Start instants (UTC seconds) of the offset segments, ascending; the first is `Int64.min`.
    private let segmentStarts: [Int64]
    /// The UTC offset (seconds east) in force from the matching start.
    private let segmentOffsets: [Int64]
    private let maxOffset: Int64

    /// A zone's offsets, exact for instants in `range` (transitions outside it are not tabled).
    init(timeZone: TimeZone, covering range: ClosedRange<Int64>) {
        var starts: [Int64] = [Int64.min]
        var offsets: [Int64] = [
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(range.lowerBound))))
        ]
        var cursor = Date(timeIntervalSince1970: Double(range.lowerBound))
        let end = Date(timeIntervalSince1970: Double(range.upperBound))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next <= end {
            let t = Int64(next.timeIntervalSince1970.rounded(.down))
            let off = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
            if off != offsets[offsets.count - 1] {
                starts.append(t)
                offsets.append(off)
            }
            // Foundation reports transitions to the second; step past it.
            cursor = Date(timeIntervalSince1970: Double(t) + 1)
        }
        self.segmentStarts = starts
        self.segmentOffsets = offsets
        self.maxOffset = offsets.max() ?? 0
    }

    /// A table of offset segments: `starts` ascending, the first `Int64.min`; `offsets[i]` (seconds
    /// east of UTC) is in force from `starts[i]`. A zone timeline (`ZoneTimeline`) is such a table.
    init(segmentStarts starts: [Int64], offsets: [Int64]) {
        precondition(!starts.isEmpty && starts.count == offsets.count && starts[0] == Int64.min)
        self.segmentStarts = starts
        self.segmentOffsets = offsets
        self.maxOffset = offsets.max() ?? 0
    }

    /// The offset segments (start instant, offset), for building a table from pieces of others.
    var segments: [(start: Int64, offset: Int64)] {
        zip(segmentStarts, segmentOffsets).map { (start: $0, offset: $1) }
    }

    /// A fixed offset (the `ExportDate` fallback): no DST.
    init(fixedOffsetSeconds: Int64) {
        self.segmentStarts = [Int64.min]
        self.segmentOffsets = [fixedOffsetSeconds]
        self.maxOffset = fixedOffsetSeconds
    }

    /// Index of the segment containing `t`.
    @inline(__always)
    private func segment(_ t: Int64) -> Int {
        if segmentStarts.count == 1 { return 0 }
        var lo = 0
        var hi = segmentStarts.count - 1  // invariant: starts[lo] <= t
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segmentStarts[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// UTC offset in seconds at instant `t`.
    func offset(at t: Int64) -> Int64 { segmentOffsets[segment(t)] }

    /// Seconds since 1970-01-01 00:00 of the local wall clock at `t`.
    func localSeconds(_ t: Int64) -> Int64 { t + offset(at: t) }

    /// The local day (days since 1970-01-01) containing instant `t`.
    func dayNumber(_ t: Int64) -> Int { Int(floorDiv(localSeconds(t), 86_400)) }

    /// The first instant of local day `day`: the first instant whose local wall clock is at or
    /// after that day's midnight (so a day whose midnight falls into a DST gap starts at the
    /// transition).
    func startOfDay(_ day: Int) -> Int64 {
        let midnight = Int64(day) * 86_400
        // x + offset(x) >= midnight needs x >= midnight - maxOffset: start scanning there.
        var i = segment(midnight - maxOffset - 1)
        while true {
            let start = segmentStarts[i]
            let candidate = max(start, midnight - segmentOffsets[i])
            let end = i + 1 < segmentStarts.count ? segmentStarts[i + 1] : Int64.max
            if candidate < end { return candidate }
            i += 1
        }
    }

    /// The instant the local clock hour containing `t` began (clamped to the offset change when
    /// the hour started before a transition, e.g. a 30-minute DST shift).
    func startOfHour(_ t: Int64) -> Int64 {
        let i = segment(t)
        let local = t + segmentOffsets[i]
        let hourStart = local - floorMod(local, 3600) - segmentOffsets[i]
        return max(hourStart, segmentStarts[i])
    }

    /// The instant the local clock hour containing `t` ends: the next whole local hour, or an
    /// offset change before it.
    func endOfHour(_ t: Int64) -> Int64 {
        let i = segment(t)
        let local = t + segmentOffsets[i]
        let next = local - floorMod(local, 3600) + 3600 - segmentOffsets[i]
        return i + 1 < segmentStarts.count ? min(next, segmentStarts[i + 1]) : next
    }

    /// Local hour of day 0–23 at `t`.
    func hourOfDay(_ t: Int64) -> Int { Int(floorMod(localSeconds(t), 86_400) / 3600) }
}

/// Maps instants to consecutive buckets `[start, end)` (local days, local hours), caching the
/// current bucket so that consecutive instants cost no table search.
protocol BucketCursor {
    /// Moves to the bucket containing `t` and returns its number.
    mutating func position(at t: Int64) -> Int
    /// The end of the current bucket (exclusive).
    var end: Int64 { get }
}

/// Local hours: bucket number = the hour's start instant in 15-minute units (distinct for
/// every hour, since all offsets are multiples of 15 minutes). On a fall-back day the repeated
/// hour is two buckets: hours are keyed by instant, not by label (reference §5.4 "Buckets").
struct HourCursor: BucketCursor {
    let calendar: LocalCalendar
    private(set) var start: Int64 = 0
    private(set) var end: Int64 = Int64.min

    init(_ calendar: LocalCalendar) { self.calendar = calendar }

    static func bucket(hourStart: Int64) -> Int { Int(floorDiv(hourStart, 900)) }

    mutating func position(at t: Int64) -> Int {
        if !(t >= start && t < end) {
            start = calendar.startOfHour(t)
            end = calendar.endOfHour(t)
        }
        return Self.bucket(hourStart: start)
    }
}

/// Local days: bucket number = days since 1970-01-01 of the local date.
struct DayCursor: BucketCursor {
    let calendar: LocalCalendar
    private(set) var day: Int = 0
    private(set) var start: Int64 = 0
    private(set) var end: Int64 = Int64.min  // empty: the first `position(at:)` resolves

    init(_ calendar: LocalCalendar) { self.calendar = calendar }

    /// Moves to the day containing `t` and returns its number.
    @inline(__always)
    mutating func position(at t: Int64) -> Int {
        if t >= start && t < end { return day }
        if t >= end && end != Int64.min {
            // Usually the next day: step instead of searching.
            let next = day + 1
            let nextEnd = calendar.startOfDay(next + 1)
            if t < nextEnd {
                day = next
                start = end
                end = nextEnd
                return day
            }
        }
        day = calendar.dayNumber(t)
        start = calendar.startOfDay(day)
        end = calendar.startOfDay(day + 1)
        if t < start || t >= end {
            // Only in a zone whose clock falls back across midnight: keep the day, cache nothing.
            start = t
            end = t + 1
        }
        return day
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }

@inline(__always) func floorMod(_ a: Int, _ b: Int) -> Int {
    let r = a % b
    return r < 0 ? r + b : r
}

// MARK: - Weeks

extension CivilDate {
    /// Weekday with Monday = 0 … Sunday = 6.
    var mondayBasedWeekday: Int { floorMod(daysSince1970 + 3, 7) }  // 1970-01-01 was a Thursday

    /// The date `n` days later.
    func adding(days n: Int) -> CivilDate { CivilDate(daysSince1970: daysSince1970 + n) }

    /// ISO 8601 week-year and week number: the week belongs to the year of its Thursday
    /// (`yearForWeekOfYear` semantics: 2024-12-30 is 2025-W01, 2021-01-03 is 2020-W53).
    var isoWeek: (year: Int, week: Int) {
        let n = daysSince1970
        let thursday = n - mondayBasedWeekday + 3
        let year = CivilDate(daysSince1970: thursday).year
        let jan1 = CivilDate(year: year, month: 1, day: 1).daysSince1970
        return (year, (thursday - jan1) / 7 + 1)
    }
}

extension WeekStart {
    /// The first day of the week containing `date`.
    func startOfWeek(containing date: CivilDate) -> CivilDate {
        switch self {
        case .iso8601: return date.adding(days: -date.mondayBasedWeekday)
        case .sunday: return date.adding(days: -((date.mondayBasedWeekday + 1) % 7))
        }
    }

    /// `2025-W01` (ISO) or `week of 2025-01-05` (Sunday weeks), for the week starting `start`.
    func label(weekStarting start: CivilDate) -> String {
        switch self {
        case .iso8601:
            let (year, week) = start.isoWeek
            return "\(year)-W\(week < 10 ? "0" : "")\(week)"
        case .sunday:
            return "week of \(start)"
        }
    }
}

/// What to generate: which local days, in which zone, from which seed, with which prolog.
///
/// Equal configurations give byte-identical exports: nothing depends on the current date,
/// the machine or system randomness.
public struct SyntheticExportConfiguration: Sendable, Equatable {
    /// The document prolog written between the XML declaration and `<HealthData>`.
    public enum Prolog: String, Sendable, CaseIterable {
        /// The well-formed internal DTD of current exports, with `<!-- HealthKit Export Version: 14 -->`.
        case version14
        /// The broken iOS 16 internal DTD (`Export Version: 12`, docs/export-format.md §6): the
        /// `VisionPrescription` ATTLIST is never closed, a stray `  device CDATA #IMPLIED` line,
        /// a duplicate `MetadataEntry` declaration and an extra `>` before `]>`. libxml2 stops
        /// at it even in recover mode.
        case version12Malformed
        /// No DOCTYPE at all (what hand-made fixtures and some tools write).
        case none
    }

    /// The local calendar date (`YYYY-MM-DD`) of the first day of data.
    ///
    /// The default, 2025-10-20, with the default 180 days covers the Europe/Berlin autumn change
    /// (2025-10-26, a 25-hour day) and the spring change (2026-03-29, a 23-hour day).
    public var firstDay: String
    /// The number of local days of data, 1 to 7320. About 0.82 MB of XML per day (a year
    /// ≈ 300 MB); generation holds about 50 MB of plans and truth per year of data.
    public var days: Int
    /// The IANA zone the person lives in; local days and the export offset come from it.
    public var timeZoneIdentifier: String
    /// Seeds every random choice.
    public var seed: UInt64
    public var prolog: Prolog
    /// The export moment as local wall-clock time in the zone, `YYYY-MM-DD HH:MM[:SS]`;
    /// `nil` means local noon of the day after the last day. Its UTC offset is printed on
    /// every timestamp of the export (docs/export-format.md §9).
    public var exportDate: String?
    /// The `locale` attribute of `<HealthData>`. Beat times are always written en_US style.
    public var locale: String
    /// First name used in device names: "\(ownerName)’s Apple Watch" (U+2019 apostrophe).
    public var ownerName: String
    /// The order of the `Record` elements (see `RecordOrder`); by type, as Apple writes them.
    public var recordOrder: RecordOrder = .byType
    /// Adds what the report's sleep, workout and body sections need (Generator+Extended.swift):
    /// a third-party sleep source with legacy `Asleep` values (alone on nights the Watch is off,
    /// beside it on others), identical duplicate rows, daytime naps; multisport workouts with
    /// `WorkoutActivity` legs, workouts with the old total attributes only, workouts duplicated by
    /// a phone app (Strava), GPX route files (some referenced but missing); respiratory rate,
    /// blood oxygen, wrist temperature, VO2 max, body mass and walking heart rate.
    public var extendedHealthData: Bool
    /// Moves and trips: from each change's first day on, the person lives in its zone (see
    /// `ZoneSchedule` for where a change takes effect). Empty: `timeZoneIdentifier` throughout.
    public var zoneChanges: [SyntheticZoneChange]
    /// False: no `HKTimeZone` metadata anywhere (older exports, iPhone-only users).
    public var writesTimeZoneMetadata: Bool
    /// `YYYY-MM-DD`: no sample before this local day carries `HKTimeZone` (metadata that begins
    /// after a move: only the new zone is ever named); nil for metadata from the first day.
    public var timeZoneMetadataFrom: String? = nil
    /// `YYYY-MM-DD` local days that hold no sample at all (the Watch and the iPhone both off, as on
    /// a long flight; the night before ends without sleep tracking). Each day's `ActivitySummary`
    /// is still written, with zero rings and the day's goals, as a paired Watch writes one for
    /// every day; its truth is zero everywhere. Not with `extendedHealthData`.
    public var emptyDays: [String] = []
    /// False: an iPhone-only user (no Watch records, no workouts); the iPhone writes active
    /// energy for its walks, and each day's ActivitySummary is the phone-estimated Move ring
    /// (that energy) with zero exercise and stand (iOS 16+, docs/rings.md §2).
    public var hasAppleWatch: Bool

    public init(
        firstDay: String = "2025-10-20", days: Int = 180, timeZoneIdentifier: String = "Europe/Berlin",
        seed: UInt64 = 1, prolog: Prolog = .version14, exportDate: String? = nil,
        locale: String = "en_US", ownerName: String = "Alex", extendedHealthData: Bool = false,
        zoneChanges: [SyntheticZoneChange] = [], writesTimeZoneMetadata: Bool = true, hasAppleWatch: Bool = true
    ) {
        self.hasAppleWatch = hasAppleWatch
        self.zoneChanges = zoneChanges
        self.writesTimeZoneMetadata = writesTimeZoneMetadata
        self.firstDay = firstDay
        self.days = days
        self.timeZoneIdentifier = timeZoneIdentifier
        self.seed = seed
        self.prolog = prolog
        self.exportDate = exportDate
        self.locale = locale
        self.ownerName = ownerName
        self.extendedHealthData = extendedHealthData
    }

    /// Checks every field; `SyntheticExport.write` traps on a configuration that fails this.
    public func validate() throws(SyntheticExportError) {
        guard let first = Civil.parse(firstDay) else { throw .invalidFirstDay(firstDay) }
        guard days >= 1, days <= 7320 else { throw .invalidDayCount(days) }
        guard ZoneClock(identifier: timeZoneIdentifier) != nil else {
            throw .unknownTimeZone(timeZoneIdentifier)
        }
        if let exportDate, Civil.parseLocalDateTime(exportDate) == nil {
            throw .invalidExportDate(exportDate)
        }
        for change in zoneChanges {
            guard let day = Civil.parse(change.firstDay), day > first, day < first + days else {
                throw .invalidZoneChange(change.firstDay)
            }
            guard ZoneClock(identifier: change.timeZoneIdentifier) != nil else {
                throw .unknownTimeZone(change.timeZoneIdentifier)
            }
        }
        for day in emptyDays {
            guard let d = Civil.parse(day), d >= first, d < first + days, !extendedHealthData else {
                throw .invalidEmptyDay(day)
            }
        }
        // An eastward change shortens the travel day before it (Los Angeles to Tokyo in winter:
        // 7 hours); the day plan needs a few hours of Watch wear on it.
        let schedule = ZoneSchedule(self, firstDay: first)
        for change in zoneChanges where change.departure != nil {
            let index = Civil.parse(change.firstDay)! - first
            let (old, new) = (schedule.clock(index - 1), schedule.clock(index))
            if let departure = schedule.westwardDepartures[index] {
                // Westward: from 12:00 on the travel day, before its end in the old zone, when the
                // new zone's date is already the travel day's, a whole number of hours behind.
                guard departure >= old.instant(day: first + index - 1, hour: 12, minute: 0),
                    departure < old.midnight(day: first + index),
                    departure >= new.midnight(day: first + index - 1),
                    (old.offset(at: departure) - new.offset(at: departure)) % 3600 == 0
                else { throw .invalidDeparture(change.departure ?? "") }
                continue
            }
            // Eastward: after the new zone's midnight of the first day and before the old one's.
            guard change.departureTime != nil, let departure = schedule.departures[index],
                departure > new.midnight(day: first + index), departure < old.midnight(day: first + index)
            else { throw .invalidDeparture(change.departure ?? "") }
        }
        for (index, _) in schedule.changes {
            let hours = (schedule.dayStart(index) - schedule.dayStart(index - 1)) / 3600
            if hours < Self.shortestTravelDayHours {
                throw .travelDayTooShort(Civil.format(days: first + index - 1), hours: Int(hours))
            }
        }
    }

    /// The shortest travel day the generator can plan (an eastward change of at most 15 hours).
    public static let shortestTravelDayHours: Int64 = 9
}

/// Why a configuration cannot be generated.
public enum SyntheticExportError: Error, Equatable, CustomStringConvertible {
    case invalidFirstDay(String)
    case invalidDayCount(Int)
    case unknownTimeZone(String)
    case invalidExportDate(String)
    case invalidZoneChange(String)
    /// The travel day (the day before a zone change) would last fewer hours than
    /// `SyntheticExportConfiguration.shortestTravelDayHours`.
    case travelDayTooShort(String, hours: Int)
    /// A departure that is not `HH:MM`; eastward, not after the new zone's midnight of the
    /// change day and before the old zone's; westward, not from 12:00 on the travel day and
    /// before its end, or before the new zone's date is the travel day's, or a fraction of an
    /// hour off.
    case invalidDeparture(String)
    /// An empty day that is not a date within the days, or asked of an extended export.
    case invalidEmptyDay(String)

    public var description: String {
        switch self {
        case .invalidFirstDay(let s): return "first day '\(s)' is not a date of the form YYYY-MM-DD"
        case .invalidDayCount(let n): return "day count \(n) is not between 1 and 7320 (20 years)"
        case .unknownTimeZone(let s): return "time zone '\(s)' is not a known IANA zone"
        case .invalidExportDate(let s): return "export date '\(s)' is not of the form YYYY-MM-DD HH:MM[:SS]"
        case .invalidZoneChange(let s):
            return "zone change day '\(s)' is not a date after the first day and within the days"
        case .invalidDeparture(let s):
            return
                "departure '\(s)' is not HH:MM in the old zone: eastward, after the new zone's midnight of the change day and before the old zone's; westward, from 12:00 on the day before and before its midnight, once the new zone's date is that day, and whole hours apart"
        case .invalidEmptyDay(let s):
            return
                "empty day '\(s)' is not a date within the days, or the export is extended (whose sleep, body and route data are not planned per day)"
        case .travelDayTooShort(let s, let hours):
            return
                "the travel day \(s) before the zone change would last \(hours) hours; the generator plans travel days of at least \(SyntheticExportConfiguration.shortestTravelDayHours) hours (an eastward change of at most 15 hours)"
        }
    }
}

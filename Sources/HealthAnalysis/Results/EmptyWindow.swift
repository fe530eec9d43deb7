import HealthExport

/// A window the options ask for that holds none of the export's data days.
public struct EmptyWindow: Hashable, Sendable, CustomStringConvertible {
    /// `--from` and `--to` (nil: the export's first or last day).
    public var from: CivilDate?
    public var to: CivilDate?
    /// True for `--week last` finding no complete week with data.
    public var lastCompleteWeek: Bool
    /// The export's first and last local day with data.
    public var dataFirstDay: CivilDate
    public var dataLastDay: CivilDate
    /// For `--week last`: the first and last day of the last complete week, when there is one
    /// but it has no day with data (the Watch was not worn, nothing synced).
    public var week: ClosedRange<CivilDate>?

    public init(
        from: CivilDate?, to: CivilDate?, lastCompleteWeek: Bool, dataFirstDay: CivilDate, dataLastDay: CivilDate,
        week: ClosedRange<CivilDate>? = nil
    ) {
        self.week = week
        self.from = from
        self.to = to
        self.lastCompleteWeek = lastCompleteWeek
        self.dataFirstDay = dataFirstDay
        self.dataLastDay = dataLastDay
    }

    /// `no data between 2030-01-01 and 2030-12-31; the export's data runs from 2025-09-29 to
    /// 2025-12-14` (`the start` / `the end` for a side not given).
    public var description: String {
        let data = "the export's data runs from \(dataFirstDay) to \(dataLastDay)"
        if let week {
            return "--week last: no data in the last complete week, \(week.lowerBound) to \(week.upperBound); \(data)"
        }
        if lastCompleteWeek { return "--week last: no complete week with data; \(data)" }
        return
            "no data between \(from.map(\.description) ?? "the start") and \(to.map(\.description) ?? "the end"); \(data)"
    }
}

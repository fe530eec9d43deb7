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

    public init(
        from: CivilDate?, to: CivilDate?, lastCompleteWeek: Bool, dataFirstDay: CivilDate, dataLastDay: CivilDate
    ) {
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
        if lastCompleteWeek { return "--week last: no complete week with data; \(data)" }
        return
            "no data between \(from.map(\.description) ?? "the start") and \(to.map(\.description) ?? "the end"); \(data)"
    }
}

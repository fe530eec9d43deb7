import HealthExport

/// One local hour with a stand-hour record (a row of `stand_hours.csv`).
public struct StandHour: Hashable, Sendable {
    public var date: CivilDate
    /// Local hour of day 0–23 (on the fall-back day the repeated hour appears twice).
    public var hour: Int
    public var stood: Bool
    /// The UTC offset (seconds east) of the hour: it tells the two hours of a fall-back day's
    /// repeated hour apart (`stand_hours.csv` column `utc_offset`).
    public var utcOffsetSeconds: Int
    public init(date: CivilDate, hour: Int, stood: Bool, utcOffsetSeconds: Int = 0) {
        self.date = date
        self.hour = hour
        self.stood = stood
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

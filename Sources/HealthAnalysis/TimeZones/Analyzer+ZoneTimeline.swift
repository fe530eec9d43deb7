import HealthExport

extension Analyzer {
    /// The zone timeline of this export (docs/days-and-time-zones.md §5): `--tz`, else the `HKTimeZone`
    /// evidence with changes placed by `ZoneTimelineBuilder`, else the IANA zones with the
    /// export's offset scored by `ActivitySummary` agreement and HRV beat offsets.
    func makeZoneTimeline(
        priority: SourcePriority, exportDate: Timestamp?, environmentTimeZone: String?, range: ClosedRange<Int64>,
        timeZoneCounts: [String: Int], locale: String?, earlierExportDates: [Timestamp] = []
    ) -> ZoneTimeline {
        var builder = ZoneTimelineBuilder()
        builder.option = options.timeZoneIdentifier
        builder.evidence = zoneEvidence.zones
        builder.offsets = zoneEvidence.offsets
        builder.counts = timeZoneCounts
        builder.exportInstant = exportDate?.secondsSince1970
        builder.exportOffset = exportDate.map { Int64($0.printedOffsetSeconds) }
        builder.earlierExports = earlierExportDates.map {
            ZoneChangePoints.Anchor(instant: $0.secondsSince1970, offset: Int64($0.printedOffsetSeconds))
        }
        builder.environment = environmentTimeZone
        builder.locale = locale
        builder.range = range
        if options.timeZoneIdentifier == nil {
            builder.rings = zoneEvidence.watchRings(priority)
            for (date, s) in zoneEvidence.summaries { builder.summaries[date.daysSince1970] = s }
        }
        return builder.build()
    }

    /// The timeline's periods clipped to the reported days (periods without a reported day are
    /// left out, except that the result always names at least one).
    static func reportedPeriods(_ timeline: ZoneTimeline, report: ClosedRange<Int>) -> [TimeZonePeriod] {
        var out: [TimeZonePeriod] = []
        for (i, p) in timeline.periods.enumerated() {
            let first = max(p.firstDay ?? Int.min, report.lowerBound)
            let next = i + 1 < timeline.periods.count ? timeline.periods[i + 1].firstDay! : Int.max
            let last = min(next - 1, report.upperBound)
            guard first <= last else { continue }
            out.append(
                TimeZonePeriod(
                    identifier: p.identifier, firstDay: CivilDate(daysSince1970: first),
                    lastDay: CivilDate(daysSince1970: last), reason: p.reason, change: p.change, instant: p.instant))
        }
        if out.isEmpty, let last = timeline.periods.last {
            out.append(
                TimeZonePeriod(
                    identifier: last.identifier, reason: last.reason, change: last.change, instant: last.instant))
        }
        return out
    }

    /// A fixed offset in seconds east of UTC as the report writes it: `UTC+01:00`, `UTC-04:30`.
    public static func offsetLabel(_ seconds: Int64) -> String {
        let a = abs(seconds)
        let h = a / 3600
        let m = a / 60 % 60
        return "UTC\(seconds < 0 ? "-" : "+")\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}

import Foundation
import HealthExport

/// Builds a `ZoneTimeline` from the export's evidence (docs/days-and-time-zones.md §5). Pure: the same inputs
/// give the same timeline on every machine; the machine's `TZ` only picks among zones the export
/// itself cannot tell apart.
struct ZoneTimelineBuilder {
    /// `--tz`: one zone for everything.
    var option: String?
    var evidence = TimeZoneEvidence()
    /// `HKTimeZone` counts without instants (a reader's summary): used only when `evidence` is
    /// empty, as one period in the most frequent IANA zone.
    var counts: [String: Int] = [:]
    /// True offsets from HRV beat times (used only without `HKTimeZone`).
    var offsets = OffsetEvidence()
    /// The `ExportDate` instant and its printed offset (seconds east).
    var exportInstant: Int64?
    var exportOffset: Int64?
    /// In an archive, the earlier exports' instants and printed offsets: each names the zones
    /// the person may have been in when it was made (docs/days-and-time-zones.md §6.1).
    var earlierExports: [ZoneChangePoints.Anchor] = []
    /// The machine's `TZ`: used only when nothing in the export tells the candidates apart.
    var environment: String?
    /// The export's `HealthData locale` (`de_DE`): its region breaks ties between zones.
    var locale: String?
    /// Watch ring inputs per 15 minutes, and the `ActivitySummary` rows by local day number.
    var rings = RingQuarterHours()
    var summaries: [Int: ActivitySummary] = [:]
    /// The instants with data (and the export instant).
    var range: ClosedRange<Int64> = 0...0

    /// Zones that stand for their group of equivalent zones when the export cannot tell which
    /// of several zones with identical offsets it was (no `HKTimeZone`): the most populous.
    static let preferredRepresentatives: [String] = [
        "America/Los_Angeles", "America/Denver", "America/Phoenix", "America/Chicago", "America/New_York",
        "America/Halifax", "America/St_Johns", "America/Sao_Paulo", "America/Santiago", "America/Mexico_City",
        "America/Bogota", "America/Argentina/Buenos_Aires", "America/Anchorage", "Pacific/Honolulu",
        "Europe/London", "Europe/Lisbon", "Europe/Berlin", "Europe/Paris", "Europe/Athens", "Europe/Istanbul",
        "Europe/Moscow", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg", "Africa/Nairobi", "Asia/Dubai",
        "Asia/Tehran", "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok",
        "Asia/Shanghai", "Asia/Singapore", "Asia/Tokyo", "Australia/Perth", "Australia/Adelaide",
        "Australia/Darwin", "Australia/Sydney", "Australia/Brisbane", "Pacific/Auckland", "UTC",
    ]

    /// The timeline, stage by stage (docs/days-and-time-zones.md §5): `--tz` alone; else the
    /// evidence (runs of `HKTimeZone` samples, `ZoneRun`); without any, the candidate zones of
    /// §6 (`withoutHKTimeZone`); else the zone of the days before the first sample
    /// (`leadingZone`), then for each change its candidate first days
    /// (`ZoneChangeCandidates`), the change points among them (`changePoints(_:)`) and the
    /// placement that fits the evidence best (`place`), each change moved to the instant the
    /// evidence allows (`placedAtInstants`); the notes are typed (`ZoneNote`).
    func build() -> ZoneTimeline {
        if let option, let tz = TimeZone.iana(option) {
            return .single(option.trimmingCharacters(in: .whitespaces), tz, reason: .option)
        }
        if evidence.isEmpty, let fromCounts = fromCountsAlone() { return fromCounts }
        // Evidence: the runs of samples naming one zone (§4, §5).
        var notes: [ZoneNote] = []
        var runs = hkTimeZoneRuns(notes: &notes)
        guard !runs.isEmpty else {
            var timeline = withoutHKTimeZone()
            timeline.notes.insert(contentsOf: notes, at: 0)
            return timeline
        }
        // HKTimeZone that begins after the data (metadata that begins after a move): the days
        // before the first sample naming a zone are read in the zone their own evidence fits.
        // Zones chosen from evidence are named as in §6; the locale's zone is suggested for a
        // stand-in only when no named zone lies in the locale's region.
        let homeNamed = runs.contains { inRegion([$0.id]) }
        let lead = leadingZone(before: runs[0].first, named: runs[0].id, runs[0].tz, suggestingHome: !homeNamed)
        if let lead {
            runs.insert(
                ZoneRun(id: lead.id, tz: lead.tz, first: range.lowerBound, last: range.lowerBound, count: 0), at: 0)
            notes.append(lead.note)
            if let standIn = lead.standIn { notes.append(standIn) }
        }
        var periods: [ZoneTimeline.Period] = [
            .init(
                identifier: runs[0].id, timeZone: runs[0].tz, fixedOffset: 0, start: .min, firstDay: nil,
                reason: lead?.reason ?? .hkTimeZone(samples: runs[0].count))
        ]
        // Each change: its candidate first days, the change points among them, the placement.
        var placement = ZoneChangeEvidence(hrv: offsets.observations)
        for k in 1..<runs.count {
            let candidates = ZoneChangeCandidates(from: runs[k - 1], to: runs[k])
            periods.append(place(candidates, after: periods, evidence: &placement, notes: &notes))
        }
        // After the last sample naming a zone: the zone of the export's offset, when the days'
        // own evidence fits it better.
        var latest: [Int64?] = runs.map(\.first)
        if let trailing = trailingZone(
            after: runs[runs.count - 1], periods: periods, evidence: &placement, notes: &notes,
            suggestingHome: !homeNamed)
        {
            periods.append(trailing)
            latest.append(exportInstant)
        } else if let e = exportInstant, let printed = exportOffset, let lastPeriod = periods.last,
            let last = lastPeriod.timeZone, Self.offset(last, e) != printed
        {
            notes.append(
                .exportElsewhere(
                    printed: printed, lastZone: lastPeriod.identifier, lastZoneOffset: Self.offset(last, e)))
        }
        // Each change at the instant between the old zone's pattern and the new one's (§5).
        return placedAtInstants(ZoneTimeline(periods: periods, notes: notes), latest: latest)
    }

    /// The UTC offset of `tz` at instant `t` (seconds east).
    static func offset(_ tz: TimeZone, _ t: Int64) -> Int64 {
        Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// One period at the export's fixed offset, with the warning saying why (docs/days-and-time-zones.md §6).
    func fixed(_ offset: Int64, _ why: ZoneNote.FixedOffsetCause) -> ZoneTimeline {
        ZoneTimeline(
            periods: [
                .init(
                    identifier: Analyzer.offsetLabel(offset), timeZone: nil, fixedOffset: offset, start: .min,
                    firstDay: nil, reason: .exportOffset)
            ],
            notes: [.fixedOffset(offset, why)])
    }
}

extension ZoneTimeline {
    /// One period in `timeZone` for every instant.
    static func single(
        _ identifier: String, _ timeZone: TimeZone?, reason: TimeZonePeriodReason, notes: [ZoneNote] = []
    ) -> ZoneTimeline {
        ZoneTimeline(
            periods: [
                .init(
                    identifier: identifier, timeZone: timeZone, fixedOffset: 0, start: .min, firstDay: nil,
                    reason: reason)
            ], notes: notes)
    }
}

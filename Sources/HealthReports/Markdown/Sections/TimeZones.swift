import HealthAnalysis
import HealthExport

// report.md: the zone lines of the overview. One zone: its name and why. Several (a move, a
// trip): one line per period with its days and the evidence (docs/days-and-time-zones.md §5).

extension MarkdownReport {
    /// The overview's time-zone line(s).
    func timeZoneLines() -> String {
        guard result.timeZonePeriods.count > 1 else {
            let zone = result.timeZone
            return "- **Time zone:** \(Markdown.code(zone.identifier)), \(Self.describe(zone.reason))\n"
        }
        var text = "- **Time zones:** local days follow the person, period by period:\n"
        for p in result.timeZonePeriods { text += "  - " + Self.describe(p) + "\n" }
        return text
    }

    /// `` `America/Los_Angeles` 2024-03-01 to 2024-03-20, from 4 `HKTimeZone` samples ``.
    static func describe(_ p: TimeZonePeriod) -> String {
        var line = Markdown.code(p.identifier)
        if let first = p.firstDay, let last = p.lastDay { line += " \(first) to \(last)" }
        switch p.reason {
        case .hkTimeZone(let samples):
            line += ", from \(grouped(samples)) `HKTimeZone` \(samples == 1 ? "sample" : "samples")"
        case .option: line += ", given with `--tz`"
        case .changePoints(let agreeing, let compared, let matching, let records):
            if compared == 0 && records == 0 {
                line += ", without `HKTimeZone`: a zone with the offset printed on the export made then"
            } else {
                line +=
                    ", without `HKTimeZone`: its days fit this zone best (ActivitySummary: \(grouped(agreeing)) of \(counted(compared, "day")) agree"
                line += records > 0 ? "; HRV beat times: \(grouped(matching)) of \(grouped(records)) match)" : ")"
            }
        case .activitySummaryAgreement, .hrvBeatOffsets, .exportOffsetCandidates, .environment, .exportOffset: break
        }
        if let note = p.changeNote { line += "; " + Markdown.escape(note) }
        return line
    }

    /// Why the zone of a no-`HKTimeZone` export was chosen.
    static func describeAgreement(candidates: Int, agreeing: Int, compared: Int) -> String {
        if compared == 0 {
            return "the export names no zone (no `HKTimeZone`); chosen among the \(counted(candidates, "IANA zone")) "
                + "with the export's offset at the export instant (see the notes)"
        }
        return "the export names no zone (no `HKTimeZone`): of the \(counted(candidates, "IANA zone")) with the "
            + "export's offset at the export instant, the one whose days agree best with the "
            + "ActivitySummary (\(grouped(agreeing)) of \(counted(compared, "day")))"
    }
}

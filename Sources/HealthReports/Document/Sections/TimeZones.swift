import HealthAnalysis
import HealthExport

// The report: the zone item of the overview. One zone: its name and why. Several (a move, a
// trip): one line per period with its days and the evidence (docs/days-and-time-zones.md §5).

extension ReportSections {
    /// The overview's time-zone item (with one child item per period when there are several).
    func timeZoneItem() -> ListItem {
        guard result.timeZonePeriods.count > 1 else {
            let zone = result.timeZone
            return ListItem(
                content: [.strong([.text("Time zone:")]), .text(" "), .code(zone.identifier), .text(", ")]
                    + Self.describe(zone.reason))
        }
        return ListItem(
            content: [.strong([.text("Time zones:")]), .text(" local days follow the person, period by period:")],
            children: result.timeZonePeriods.map(Self.describe))
    }

    /// `` `America/Los_Angeles` 2024-03-01 to 2024-03-20, from 4 `HKTimeZone` samples ``.
    static func describe(_ p: TimeZonePeriod) -> [Inline] {
        var line: [Inline] = [.code(p.identifier)]
        if let first = p.firstDay, let last = p.lastDay { line.append(.text(" \(first) to \(last)")) }
        var words = ""
        switch p.reason {
        case .hkTimeZone(let samples):
            words += ", from \(grouped(samples)) `HKTimeZone` \(samples == 1 ? "sample" : "samples")"
        case .option: words += ", given with `--tz`"
        case .changePoints(let agreeing, let compared, let matching, let records):
            if compared == 0 && records == 0 {
                words += ", without `HKTimeZone`: a zone with the offset printed on the export made then"
            } else {
                words +=
                    ", without `HKTimeZone`: its days fit this zone best (ActivitySummary: \(grouped(agreeing)) of \(counted(compared, "day")) agree"
                words += records > 0 ? "; HRV beat times: \(grouped(matching)) of \(grouped(records)) match)" : ")"
            }
        case .activitySummaryAgreement, .hrvBeatOffsets, .exportOffsetCandidates, .environment, .exportOffset: break
        }
        line += Inline.words(words)
        if let note = p.changeText { line += [.text("; "), .input(note)] }
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

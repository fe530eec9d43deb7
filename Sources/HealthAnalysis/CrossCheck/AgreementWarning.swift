import Foundation
import HealthExport

extension Analyzer {
    /// Share of compared days above which a disagreement with `ActivitySummary` is a warning.
    static let disagreementWarningShare = 0.05

    /// A warning when the record-derived rings disagree with `ActivitySummary` on more
    /// than 5 % of the days that have both (docs/rings.md §4, §5): how many, the worst days, and
    /// the likely cause. The cause is tested, where it can be: another zone (each zone the
    /// export names, as `--tz` would use it, and the timeline without `--tz`) scored on the same
    /// ring inputs; the export's last day being incomplete; a ring that alone disagrees.
    /// Nil when the agreement is within 95 %.
    func agreementWarning(
        _ check: SummaryCrossCheck, timeline: ZoneTimeline, priority: SourcePriority, covered: ClosedRange<Int64>,
        reportedDays: ClosedRange<Int>, lastDataDay: Int
    ) -> AnalysisNote? {
        let compared = check.daysCompared
        let disagreeing = compared - check.daysAgreeing
        guard compared > 0, Double(disagreeing) > Self.disagreementWarningShare * Double(compared) else { return nil }
        // Worst days: by the largest relative difference of any ring.
        var worst: [CivilDate: (score: Double, text: [String])] = [:]
        for d in check.disagreements {
            let r = d.recordValue ?? 0
            let s = d.summaryValue ?? 0
            let score = abs(r - s) / max(abs(s), 1)
            let text = "\(d.metric.rawValue) \(Self.short(d.recordValue)) vs \(Self.short(d.summaryValue))"
            worst[d.date, default: (0, [])].score = max(worst[d.date]?.score ?? 0, score)
            worst[d.date, default: (0, [])].text.append(text)
        }
        let top = worst.sorted { a, b in a.value.score != b.value.score ? a.value.score > b.value.score : a.key < b.key
        }
        .prefix(3).map { "\($0.key) (\($0.value.text.joined(separator: ", ")))" }
        let pct = Int((Double(check.daysAgreeing) / Double(compared) * 100).rounded(.down))
        var text =
            "the rings computed from the records disagree with the ActivitySummary on \(grouped(disagreeing)) of "
            + "\(counted(compared, "day")) (\(pct) % agree). Worst: \(top.joined(separator: "; ")). "
        text +=
            "Likely cause: "
            + likelyCause(
                check, timeline: timeline, priority: priority, covered: covered,
                reportedDays: reportedDays, lastDataDay: lastDataDay)
        if check.daysWithoutRingRecords > 0 {
            text +=
                " (\(counted(check.daysWithoutRingRecords, "day")) with an ActivitySummary but no ring records "
                + "\(check.daysWithoutRingRecords == 1 ? "is" : "are") not counted.)"
        }
        return .warning(text)
    }

    private func likelyCause(
        _ check: SummaryCrossCheck, timeline: ZoneTimeline, priority: SourcePriority, covered: ClosedRange<Int64>,
        reportedDays: ClosedRange<Int>, lastDataDay: Int
    ) -> String {
        let rings = zoneEvidence.watchRings(priority)
        var summaries: [Int: ActivitySummary] = [:]
        for (date, s) in zoneEvidence.summaries where reportedDays.contains(date.daysSince1970) {
            summaries[date.daysSince1970] = s
        }
        let current = RingAgreement.score(rings.dailyValues(timeline.calendar(covering: covered)), summaries: summaries)
        // Other ways to cut days: each zone the export names, and the timeline without --tz.
        var alternatives: [(label: String, score: RingAgreement)] = []
        var names = Set(zoneEvidence.zones.counts.keys)
        if let tz = options.timeZoneIdentifier { names.remove(tz) }
        for name in names.sorted() {
            guard let tz = TimeZone.iana(name) else { continue }
            let score = RingAgreement.score(
                rings.dailyValues(LocalCalendar(timeZone: tz, covering: covered)), summaries: summaries)
            alternatives.append(("--tz \(name)", score))
        }
        if options.timeZoneIdentifier != nil {
            var builder = ZoneTimelineBuilder()
            builder.evidence = zoneEvidence.zones
            builder.offsets = zoneEvidence.offsets
            builder.rings = rings
            builder.summaries = summaries
            builder.range = covered
            let own = builder.build()
            if own.periods.count > 1 || own.periods.first?.identifier != options.timeZoneIdentifier {
                let score = RingAgreement.score(
                    rings.dailyValues(own.calendar(covering: covered)), summaries: summaries)
                alternatives.append(("leaving out --tz (zones per period from the export)", score))
            }
        }
        if let best = alternatives.max(by: { $0.score.agreeing < $1.score.agreeing }),
            best.score.agreeing > current.agreeing
        {
            return "the time zone: days are cut in the wrong zone for part of the period; "
                + "\(best.label) agrees on \(grouped(best.score.agreeing)) of \(counted(best.score.compared, "day"))."
        }
        let days = Set(check.disagreements.map(\.date.daysSince1970))
        if days == [lastDataDay] {
            return "the export's last day is incomplete (the Watch had not synced all of it)."
        }
        let metrics = Set(check.disagreements.map(\.metric))
        if metrics == [.moveKcal] || metrics == [.moveMinutes] {
            return "the Move ring alone: active energy from a second Apple Watch, or Watch samples edited or "
                + "deleted after the day (check --source-order and sources.csv)."
        }
        if metrics == [.standHours] {
            return "the Stand ring alone: stand hours from a second Apple Watch worn the same day, or deleted samples."
        }
        return "samples deleted or edited after the Watch computed its rings, or two Watches worn on the same days; "
            + "the zone was checked: no zone the export names agrees better."
    }

    /// A ring value as the warning prints it: whole numbers without a point, else one decimal;
    /// a value of 10^15 or more (no day's ring holds it: an input value can be up to ±3.4e38) in
    /// 3 significant digits, marked implausible. `Int(v)` is taken only below 2^53, where it is
    /// exact (a value of 2^63 trapped in `Int(v)`).
    static func short(_ v: Double?) -> String {
        guard let v else { return "none" }
        guard v.magnitude < 1e15 else { return String(format: "%.3g", v) + " (implausible)" }
        return v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }
}

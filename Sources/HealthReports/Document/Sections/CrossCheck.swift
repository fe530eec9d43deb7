import HealthAnalysis
import HealthExport
import HealthTables

// The report: record-derived ring values against the ActivitySummary (docs/rings.md §4).

extension ReportSections {
    mutating func crossCheck() {
        heading("ActivitySummary cross-check")
        let check = result.crossCheck
        guard check.daysCompared > 0 else {
            paragraph(
                "No day had both an ActivitySummary and ring records to compare"
                    + (check.daysWithoutRingRecords > 0
                        ? " (\(grouped(check.daysWithoutRingRecords)) with an ActivitySummary but no ring records)."
                        : "."))
            return
        }
        paragraph(
            "The ring values computed from the records were compared with the Watch's own "
                + "ActivitySummary on \(grouped(check.daysCompared)) \(check.daysCompared == 1 ? "day" : "days"): "
                + "\(grouped(check.daysAgreeing)) agree "
                + "(\(percent(Double(check.daysAgreeing), of: Double(check.daysCompared)))) within the "
                + "tolerances (Move ±max(1 kcal, 1%), exercise ±1 min, stand hours exact).")
        if !result.ringSources.isEmpty {
            paragraph("Sources of the rings' values:")
            let items = result.ringSources.map { u in
                ListItem(content: [
                    .text(
                        "\(u.ring): \(u.model == .iPhone ? "iPhone active energy (the phone-estimated Move ring, on days without Apple Watch energy)" : "Apple Watch records")"
                            + " on \(grouped(u.days)) \(u.days == 1 ? "day" : "days")"
                            + (u.compared > 0
                                ? "; agrees with the ActivitySummary on \(grouped(u.agreeing)) of \(grouped(u.compared)) (\(percent(Double(u.agreeing), of: Double(u.compared))))"
                                : ""))
                ])
            }
            add(.bullets(items))
        }
        if check.daysWithoutRingRecords > 0 {
            paragraph(
                "\(grouped(check.daysWithoutRingRecords)) more \(check.daysWithoutRingRecords == 1 ? "day has" : "days have") "
                    + "an ActivitySummary but no ring records (no Watch energy, exercise or stand record); "
                    + "they are not compared.")
        }
        let disagreements = check.disagreements.enumerated().sorted {
            ($0.element.date, Self.metricOrder($0.element.metric), $0.offset)
                < ($1.element.date, Self.metricOrder($1.element.metric), $1.offset)
        }.map(\.element)
        guard !disagreements.isEmpty else { return }
        let shown = disagreements.prefix(max(options.maxDisagreementRows, 0))
        guard !shown.isEmpty else { return }
        paragraph("Disagreeing values (difference = records − ActivitySummary):")
        let rows = shown.map { d -> [String] in
            let decimals = Self.metricDecimals(d.metric)
            var difference = none
            if let record = d.recordValue, let summary = d.summaryValue {
                difference =
                    DecimalFormat(decimals: decimals, groupingSeparator: ",", showsPlusSign: true)
                    .string(record - summary) ?? none
            }
            return [
                d.date.description, Self.metricName(d.metric),
                number(d.recordValue, decimals), number(d.summaryValue, decimals), difference,
            ]
        }
        add(
            .table(
                DocumentTable(
                    ["Date", "Ring", "From records", "ActivitySummary", "Difference"],
                    [.left, .left, .right, .right, .right], text: Array(rows))))
        if shown.count < disagreements.count {
            add(
                .paragraph(
                    [
                        .text(
                            "Showing the first \(grouped(shown.count)) of \(grouped(disagreements.count)) "
                                + "disagreements; every day's values are in "),
                        .link("daily.csv", href: "daily.csv"),
                    ] + Inline.words(" (`summary_*` columns).")))
        }
    }
}

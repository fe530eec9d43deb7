import HealthAnalysis
import HealthExport

// The report: raw versus counted totals per type (source de-duplication, docs/deduplication.md §4).

extension ReportSections {
    mutating func deduplication() {
        heading("De-duplication")
        struct Total {
            var sources: Set<String> = []
            var samples = 0
            var raw = 0.0
            var counted = 0.0
        }
        var totals: [TypeAndUnit: Total] = [:]
        for contribution in result.sources {
            let key = TypeAndUnit(type: contribution.type, unit: contribution.unit)
            totals[key, default: Total()].sources.insert(contribution.sourceName)
            totals[key]!.samples += contribution.samples
            totals[key]!.raw += contribution.rawTotal
            totals[key]!.counted += contribution.countedTotal
        }
        guard !totals.isEmpty else {
            paragraph("No samples were merged.")
            return
        }
        if result.deduplicated {
            paragraph(
                "Raw is the plain sum of every source's samples; counted is what the daily totals "
                    + "use after overlapping samples of lower-priority sources were left out.")
        } else {
            paragraph("De-duplication was off: counted totals are plain sums, the same as raw.")
        }
        let rows = totals.sorted { $0.key < $1.key }.map { key, total -> [[Inline]] in
            let decimals = Self.decimals(for: key.unit)
            return [[.input(Self.shortTypeName(key.type))], [.input(key.unit.rawValue)]]
                + [
                    grouped(total.sources.count), grouped(total.samples),
                    number(total.raw, decimals), number(total.counted, decimals),
                    total.raw > 0 ? percent(total.raw - total.counted, of: total.raw) : none,
                ].map { [.text($0)] }
        }
        add(
            .table(
                DocumentTable(
                    ["Type", "Unit", "Sources", "Samples", "Raw total", "Counted", "Left out"],
                    [.left, .left, .right, .right, .right, .right, .right], rows)))
        add(.paragraph([.text("Per source: "), .link("sources.csv", href: "sources.csv"), .text(".")]))
    }
}

/// A row of the de-duplication table.
struct TypeAndUnit: Hashable, Comparable {
    var type: String
    var unit: CanonicalUnit

    static func < (a: TypeAndUnit, b: TypeAndUnit) -> Bool {
        (a.type, a.unit.rawValue) < (b.type, b.unit.rawValue)
    }
}

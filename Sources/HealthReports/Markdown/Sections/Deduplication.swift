import HealthAnalysis
import HealthExport

// report.md: Raw versus counted totals per type (source de-duplication, docs/deduplication.md §4).

extension MarkdownReport {
    mutating func deduplication() {
        text += "## De-duplication\n\n"
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
            text += "No samples were merged.\n\n"
            return
        }
        if result.deduplicated {
            text +=
                "Raw is the plain sum of every source's samples; counted is what the daily totals "
                + "use after overlapping samples of lower-priority sources were left out.\n\n"
        } else {
            text += "De-duplication was off: counted totals are plain sums, the same as raw.\n\n"
        }
        let rows = totals.sorted { $0.key < $1.key }.map { key, total -> [String] in
            let decimals = Self.decimals(for: key.unit)
            return [
                Markdown.escape(Self.shortTypeName(key.type)), Markdown.escape(key.unit.rawValue),
                grouped(total.sources.count), grouped(total.samples),
                number(total.raw, decimals), number(total.counted, decimals),
                total.raw > 0 ? percent(total.raw - total.counted, of: total.raw) : none,
            ]
        }
        text += Markdown.table(
            ["Type", "Unit", "Sources", "Samples", "Raw total", "Counted", "Left out"],
            [.left, .left, .right, .right, .right, .right, .right], rows)
        text += "\nPer source: [sources.csv](sources.csv).\n\n"
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

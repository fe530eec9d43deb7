import HealthExport

// The time axis of the day, week and month charts, and the binning that keeps a long span
// readable: per day while a chart can show days, then weekly, then monthly means or sums.

/// How many local days one category of a time chart holds.
enum TimeBin: Equatable {
    case day, week, month

    /// `weekly`, said in titles and alt text (nothing for days).
    var adjective: String {
        switch self {
        case .day: return "daily"
        case .week: return "weekly"
        case .month: return "monthly"
        }
    }

    /// The bin for `days` consecutive-ish local days: days up to `dailyLimit` of them, weeks up
    /// to `weeklyLimit` weeks, else months.
    static func choose(days: Int, dailyLimit: Int, weeklyLimit: Int) -> TimeBin {
        if days <= dailyLimit { return .day }
        return (days + 6) / 7 <= weeklyLimit ? .week : .month
    }
}

/// Groups of indices into `days` (days since 1970, ascending), one group per bin: a day each,
/// the weeks starting on Monday (or Sunday), or calendar months. Only days present are in a
/// group, so a group's first and last day bound the days it holds.
func binIndices(_ days: [Int], by bin: TimeBin, weekStartsOnSunday: Bool = false) -> [[Int]] {
    var groups: [[Int]] = []
    var lastKey: Int?
    for (i, d) in days.enumerated() {
        let key: Int
        switch bin {
        case .day: key = d
        // 1970-01-01 was a Thursday: d + 3 is 0 on a Monday, d + 4 on a Sunday.
        case .week: key = Int(floorDivide(Int64(d + (weekStartsOnSunday ? 4 : 3)), 7))
        case .month:
            let c = CivilDate(daysSince1970: d)
            key = c.year * 12 + c.month - 1
        }
        if key == lastKey {
            groups[groups.count - 1].append(i)
        } else {
            groups.append([i])
            lastKey = key
        }
    }
    return groups
}

/// The mean of the values that are there, nil without any.
func meanOfPresent(_ values: [Double?]) -> Double? {
    let v = values.compactMap { $0 }
    return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
}

/// A calendar axis under a chart whose categories are spans of local days (days since 1970):
/// ticks on week, month or year starts with their labels centred in the period they begin, and
/// a break mark (a dashed line and `//` on the axis) where days are left out between two
/// categories.
struct TimeAxis {
    /// Each category's first and last local day.
    var spans: [ClosedRange<Int>]

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The categories after which days are left out (before index i: `breaks` holds i).
    var breaks: Set<Int> {
        Set(spans.indices.dropFirst().filter { spans[$0].lowerBound > spans[$0 - 1].upperBound + 1 })
    }

    /// Calendar days from the first category's first day to the last one's last.
    var calendarDays: Int {
        guard let first = spans.first, let last = spans.last else { return 0 }
        return last.upperBound - first.lowerBound + 1
    }

    /// The x of the start of local day `day` (nil when no category holds it).
    func x(_ day: Int, left: Double, slot: Double) -> Double? {
        var lo = 0
        var hi = spans.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let s = spans[mid]
            if day < s.lowerBound {
                hi = mid - 1
            } else if day > s.upperBound {
                lo = mid + 1
            } else {
                let fraction = Double(day - s.lowerBound) / Double(s.count)
                return left + slot * (Double(mid) + fraction)
            }
        }
        return nil
    }

    /// Periods (months or years) overlapping the axis: their first day and label.
    private func periods(years: Bool) -> [(start: Int, end: Int, label: String, short: String)] {
        guard let first = spans.first?.lowerBound, let last = spans.last?.upperBound else { return [] }
        var out: [(Int, Int, String, String)] = []
        var c = CivilDate(daysSince1970: first)
        c = CivilDate(year: c.year, month: years ? 1 : c.month, day: 1)
        while c.daysSince1970 <= last {
            let next =
                years
                ? CivilDate(year: c.year + 1, month: 1, day: 1)
                : CivilDate(year: c.month == 12 ? c.year + 1 : c.year, month: c.month == 12 ? 1 : c.month + 1, day: 1)
            let name = Self.monthNames[c.month - 1]
            out.append(
                (
                    c.daysSince1970, next.daysSince1970 - 1, years ? "\(c.year)" : "\(name) \(c.year)",
                    years ? "\(c.year)" : String(name.prefix(3))
                ))
            c = next
        }
        return out
    }

    /// The visible part of days `start...end`: the x of its first and past its last day held.
    private func extent(_ start: Int, _ end: Int, left: Double, slot: Double) -> (Double, Double)? {
        var a: Double?
        var b: Double?
        // Categories are sorted: walk those overlapping the period.
        for (i, s) in spans.enumerated() where s.upperBound >= start && s.lowerBound <= end {
            let from = max(s.lowerBound, start)
            let to = min(s.upperBound, end)
            let x0 = left + slot * (Double(i) + Double(from - s.lowerBound) / Double(s.count))
            let x1 = left + slot * (Double(i) + Double(to - s.lowerBound + 1) / Double(s.count))
            if a == nil { a = x0 }
            b = x1
        }
        guard let a, let b else { return nil }
        return (a, b)
    }

    /// Draws the ticks, labels and break marks below (and across) the plot.
    func draw(_ c: inout SVGCanvas, layout: ChartLayout, plotTop: Double, plotBottom: Double) {
        guard !spans.isEmpty else { return }
        let left = layout.plotLeft
        let slot = layout.plotWidth / Double(spans.count)
        let row1 = plotBottom + 16
        let row2 = plotBottom + 32
        func label(_ text: String, _ extent: (Double, Double), y: Double) {
            let width = Double(text.count) * 6.2 + 6
            guard extent.1 - extent.0 >= width else { return }
            c.text(text, x: (extent.0 + extent.1) / 2, y: y, size: 11, anchor: .middle, fill: "#444")
        }
        func tick(_ x: Double, length: Double, color: String = "#666") {
            c.line(x1: x, y1: plotBottom, x2: x, y2: plotBottom + length, stroke: color)
        }
        let days = calendarDays
        if days <= 16 {
            // A few days: each day's date under it (its bar), the months below.
            for s in spans {
                for d in s {
                    if let e = extent(d, d, left: left, slot: slot) {
                        tick(e.0, length: 4)
                        label("\(CivilDate(daysSince1970: d).day)", e, y: row1)
                    }
                }
            }
            for p in periods(years: false) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 36, color: "#999") }
                if let e = extent(p.start, p.end, left: left, slot: slot) { label(p.label, e, y: row2) }
            }
        } else if days <= 92 {
            // Short spans: a tick and the day of the month on each Monday, the months below.
            for s in spans {
                for d in s where (d + 3) % 7 == 0 {
                    guard let x = x(d, left: left, slot: slot) else { continue }
                    tick(x, length: 4)
                    c.text(
                        "\(CivilDate(daysSince1970: d).day)", x: x, y: row1, size: 11, anchor: .middle, fill: "#444")
                }
            }
            for p in periods(years: false) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 36, color: "#999") }
                if let e = extent(p.start, p.end, left: left, slot: slot) { label(p.label, e, y: row2) }
            }
        } else if days <= 731 {
            // Up to two years: months (ticks on their first days), the years below.
            for p in periods(years: false) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 4) }
                if let e = extent(p.start, p.end, left: left, slot: slot) { label(p.short, e, y: row1) }
            }
            for p in periods(years: true) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 36, color: "#999") }
                if let e = extent(p.start, p.end, left: left, slot: slot) { label(p.label, e, y: row2) }
            }
        } else {
            // Longer: a small tick on each quarter's first day, the years labelled.
            for p in periods(years: false) where [1, 4, 7, 10].contains(CivilDate(daysSince1970: p.start).month) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 4) }
            }
            for p in periods(years: true) {
                if let x = x(p.start, left: left, slot: slot) { tick(x, length: 20, color: "#999") }
                if let e = extent(p.start, p.end, left: left, slot: slot) { label(p.label, e, y: row1) }
            }
        }
        for i in breaks.sorted() {
            let x = left + slot * Double(i)
            let n = SVGCanvas.number
            let left = spans[i].lowerBound - spans[i - 1].upperBound - 1
            c.raw(
                "<line class=\"break\" x1=\"\(n(x))\" y1=\"\(n(plotTop))\" x2=\"\(n(x))\" y2=\"\(n(plotBottom))\" "
                    + "stroke=\"#888\" stroke-width=\"1\" stroke-dasharray=\"4 3\"><title>\(left) days left out"
                    + " (no data)</title></line>")
            c.rect(x: x - 4, y: plotBottom - 5, width: 8, height: 10, fill: "#ffffff")
            for dx in [-3.0, 1.0] {
                c.line(x1: x + dx, y1: plotBottom + 5, x2: x + dx + 2, y2: plotBottom - 5, stroke: "#555", width: 1.2)
            }
        }
    }
}

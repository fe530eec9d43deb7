import HealthTables

// The two chart shapes the report uses: stacked bars over categories (days, weeks, hours) with
// an optional trend line, and points joined by lines over days. Both draw their axes, the unit
// of the y axis, a legend and the alt text; the marks (`class="mark"`) are one per bar segment
// or point with a value, so tests can count them.

/// A series of values over the chart's categories; `nil` (or 0 in a stacked bar) draws nothing.
struct ChartSeries {
    var name: String
    var color: String
    var values: [Double?]
    /// Shown in a mark's tooltip after the value (`steps`, `min`).
    var unit: String
}

/// Colors that stay apart for color-blind readers (Okabe–Ito) and on white.
enum ChartColor {
    static let blue = "#0072B2"
    static let orange = "#E69F00"
    static let green = "#009E73"
    static let red = "#D55E00"
    static let purple = "#CC79A7"
    static let sky = "#56B4E9"
    static let yellow = "#F0E442"
    static let grey = "#999999"
    static let move = "#FA114F"
    static let exercise = "#6AC700"
    static let stand = "#00B9D6"
}

/// Layout shared by the charts: 880 px wide, the plot area inside fixed margins.
struct ChartLayout {
    var width = 880.0
    var height = 300.0
    var left = 64.0
    var right = 20.0
    var top = 44.0
    var bottom = 58.0

    var plotLeft: Double { left }
    var plotRight: Double { width - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }
    var plotWidth: Double { plotRight - plotLeft }
}

/// Stacked bars, one stack per category, with an optional line (for example a 7-day average).
struct BarChart {
    var title: String
    var description: String
    /// One label per category (dates, weeks, hours).
    var categories: [String]
    /// Which category labels to print (every label is in the marks' tooltips).
    var labelEvery: Int = 1
    var yAxisTitle: String
    var series: [ChartSeries]
    var line: ChartSeries?
    /// Categories before which the line breaks (the days after a left-out run without data).
    var breaksBefore: Set<Int> = []
    /// A horizontal reference line (a goal), with its label.
    var reference: (value: Double, label: String)?
    /// Series side by side in each category instead of stacked.
    var grouped = false
    /// When set, the categories are spans of days and the axis is a calendar (`TimeAxis`),
    /// with break marks where days are left out; else every `labelEvery`-th label is printed.
    var timeAxis: TimeAxis?
    /// Counts: y ticks on whole numbers only.
    var integerAxis = false
    /// When set (few categories), each stack's total is printed above it, so that a short bar
    /// (one 13-minute night) still reads.
    var valueLabel: ((Double) -> String)?
    /// The widest a bar (or a group of bars) is drawn, in pixels.
    var maximumBarWidth = 36.0
    var layout = ChartLayout()

    /// The number of marks the chart draws: one per bar segment with a positive value.
    var markCount: Int {
        series.reduce(0) { $0 + $1.values.filter { ($0 ?? 0) > 0 }.count }
    }

    func svg() -> String {
        var c = SVGCanvas(width: layout.width, height: layout.height)
        let n = categories.count
        var top = 0.0
        for i in 0..<n {
            let values = series.map { max(0, $0.values[i] ?? 0) }
            top = max(top, grouped ? values.max() ?? 0 : values.reduce(0, +))
            if let v = line?.values[i] { top = max(top, v) }
        }
        if valueLabel != nil && !grouped { top *= 1.12 }  // room for the labels above the tallest bar
        if let reference { top = max(top, reference.value) }
        let y = LinearScale(
            minimum: 0, maximum: top, includeZero: true, pixelLow: layout.plotBottom, pixelHigh: layout.plotTop,
            integer: integerAxis)
        drawFrame(&c, y: y)
        let slot = layout.plotWidth / Double(max(n, 1))
        let barWidth = max(1, min(slot * (n > 40 ? 0.8 : 0.7), maximumBarWidth * (grouped ? Double(series.count) : 1)))
        for i in 0..<n {
            let x = layout.plotLeft + slot * Double(i) + (slot - barWidth) / 2
            let groupWidth = barWidth / Double(max(series.count, 1))
            var base = 0.0
            for (k, s) in series.enumerated() {
                guard let v = s.values[i], v > 0 else { continue }
                let y0 = y.pixel(grouped ? 0 : base)
                let y1 = y.pixel(grouped ? v : base + v)
                c.markRect(
                    x: grouped ? x + groupWidth * Double(k) : x, y: y1,
                    width: grouped ? max(1, groupWidth - 1) : barWidth, height: y0 - y1, fill: s.color,
                    tooltip: "\(categories[i]): \(s.name) \(Self.format(v)) \(s.unit)")
                base += v
            }
            if let valueLabel, !grouped, base > 0 {
                c.text(
                    valueLabel(base), x: x + barWidth / 2, y: y.pixel(base) - 4, size: 11, anchor: .middle, fill: "#333"
                )
            }
        }
        if let reference {
            let py = y.pixel(reference.value)
            c.raw(
                "<line x1=\"\(SVGCanvas.number(layout.plotLeft))\" y1=\"\(SVGCanvas.number(py))\" "
                    + "x2=\"\(SVGCanvas.number(layout.plotRight))\" y2=\"\(SVGCanvas.number(py))\" "
                    + "stroke=\"#555\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>")
            c.text(reference.label, x: layout.plotRight - 4, y: py - 4, size: 11, anchor: .end, fill: "#555")
        }
        let breaksBefore = timeAxis?.breaks ?? self.breaksBefore
        if let line {
            var points: [(Double, Double)] = []
            for i in 0..<n {
                if breaksBefore.contains(i) && !points.isEmpty {
                    c.polyline(points, stroke: line.color, width: 2.5)
                    points = []
                }
                guard let v = line.values[i] else { continue }
                points.append((layout.plotLeft + slot * (Double(i) + 0.5), y.pixel(v)))
            }
            c.polyline(points, stroke: line.color, width: 2.5)
        }
        if let timeAxis {
            timeAxis.draw(&c, layout: layout, plotTop: layout.plotTop, plotBottom: layout.plotBottom)
        } else {
            drawCategoryLabels(&c, slot: slot)
        }
        drawLegend(
            &c,
            entries: series.filter { $0.values.contains { ($0 ?? 0) > 0 } }.map { ($0.name, $0.color, false) }
                + (line.map { [($0.name, $0.color, true)] } ?? []))
        return c.document(title: title, description: description)
    }

    private func drawFrame(_ c: inout SVGCanvas, y: LinearScale) {
        drawYAxis(&c, y: y, layout: layout, title: yAxisTitle)
        c.text(title, x: layout.plotLeft, y: 22, size: 15, fill: "#111", bold: true)
    }

    private func drawCategoryLabels(_ c: inout SVGCanvas, slot: Double) {
        let every = max(1, labelEvery)
        for (i, label) in categories.enumerated() where i % every == 0 {
            let x = layout.plotLeft + slot * (Double(i) + 0.5)
            c.line(x1: x, y1: layout.plotBottom, x2: x, y2: layout.plotBottom + 4, stroke: "#666")
            c.text(label, x: x, y: layout.plotBottom + 18, size: 11, anchor: .middle, fill: "#444")
        }
    }

    private func drawLegend(_ c: inout SVGCanvas, entries: [(String, String, Bool)]) {
        drawChartLegend(&c, entries: entries, layout: layout)
    }

    static func format(_ v: Double) -> String {
        let decimals = v.magnitude >= 100 || v == v.rounded() ? 0 : 1
        return DecimalFormat(decimals: decimals, groupingSeparator: ",").string(v) ?? ""
    }
}

/// Points (marks) joined by lines over a day axis, in one or more stacked panels, each with its
/// own y axis and unit (resting heart rate in bpm above HRV in ms, never two units on one axis).
struct PointChart {
    struct Panel {
        var yAxisTitle: String
        var series: [ChartSeries]
    }

    var title: String
    var description: String
    var categories: [String]
    var labelEvery: Int = 7
    var panels: [Panel]
    /// Categories before which lines break (the days after a left-out run without data).
    var breaksBefore: Set<Int> = []
    /// When set, the calendar axis and break marks of `TimeAxis` (see `BarChart.timeAxis`).
    var timeAxis: TimeAxis?
    var panelHeight = 170.0
    var layout = ChartLayout()

    /// One mark per point with a value.
    var markCount: Int {
        panels.reduce(0) { $0 + $1.series.reduce(0) { $0 + $1.values.compactMap { $0 }.count } }
    }

    func svg() -> String {
        var layout = self.layout
        let gap = 34.0
        layout.height =
            layout.top + Double(panels.count) * panelHeight + Double(max(panels.count - 1, 0)) * gap
            + layout.bottom
        var c = SVGCanvas(width: layout.width, height: layout.height)
        c.text(title, x: layout.plotLeft, y: 22, size: 15, fill: "#111", bold: true)
        let n = categories.count
        let slot = layout.plotWidth / Double(max(n, 1))
        let breaksBefore = timeAxis?.breaks ?? self.breaksBefore
        for (p, panel) in panels.enumerated() {
            var panelLayout = layout
            panelLayout.top = layout.top + Double(p) * (panelHeight + gap)
            panelLayout.bottom = layout.height - (panelLayout.top + panelHeight)
            let values = panel.series.flatMap { $0.values.compactMap { $0 } }
            let y = LinearScale(
                minimum: values.min() ?? 0, maximum: values.max() ?? 1, includeZero: false,
                pixelLow: panelLayout.plotBottom, pixelHigh: panelLayout.plotTop, tickCount: 4)
            drawYAxis(&c, y: y, layout: panelLayout, title: panel.yAxisTitle)
            for s in panel.series {
                var points: [(Double, Double)] = []
                var segments: [[(Double, Double)]] = []
                for i in 0..<n {
                    if breaksBefore.contains(i) && !points.isEmpty {
                        segments.append(points)
                        points = []
                    }
                    guard let v = s.values[i] else {
                        // A gap of more than a week breaks the line.
                        if !points.isEmpty, i > 0, s.values[max(0, i - 7)..<i].allSatisfy({ $0 == nil }) {
                            segments.append(points)
                            points = []
                        }
                        continue
                    }
                    points.append((layout.plotLeft + slot * (Double(i) + 0.5), y.pixel(v)))
                }
                segments.append(points)
                for segment in segments { c.polyline(segment, stroke: s.color, width: 1.5) }
                for i in 0..<n {
                    guard let v = s.values[i] else { continue }
                    c.markCircle(
                        cx: layout.plotLeft + slot * (Double(i) + 0.5), cy: y.pixel(v), r: 2.5, fill: s.color,
                        tooltip: "\(categories[i]): \(s.name) \(BarChart.format(v)) \(s.unit)")
                }
            }
            if let timeAxis {
                // Break marks in every panel, the calendar under the last.
                var c2 = SVGCanvas(width: layout.width, height: layout.height)
                timeAxis.draw(
                    &c2, layout: panelLayout, plotTop: panelLayout.plotTop, plotBottom: panelLayout.plotBottom)
                if p == panels.count - 1 {
                    for e in c2.body { c.raw(e) }
                } else {
                    for e in c2.body where e.hasPrefix("<line class=\"break\"") { c.raw(e) }
                }
            } else if p == panels.count - 1 {
                for (i, label) in categories.enumerated() where i % max(1, labelEvery) == 0 {
                    let x = layout.plotLeft + slot * (Double(i) + 0.5)
                    c.line(x1: x, y1: panelLayout.plotBottom, x2: x, y2: panelLayout.plotBottom + 4, stroke: "#666")
                    c.text(label, x: x, y: panelLayout.plotBottom + 18, size: 11, anchor: .middle, fill: "#444")
                }
            }
        }
        let entries = panels.flatMap { $0.series.map { ($0.name, $0.color, false) } }
        drawChartLegend(&c, entries: entries, layout: layout)
        return c.document(title: title, description: description)
    }
}

/// The y axis: gridlines at the ticks, tick labels, and the axis title (with its unit) rotated
/// along the axis.
private func drawYAxis(_ c: inout SVGCanvas, y: LinearScale, layout: ChartLayout, title: String) {
    for t in y.ticks {
        let py = y.pixel(t)
        c.line(x1: layout.plotLeft, y1: py, x2: layout.plotRight, y2: py, stroke: t == 0 ? "#888" : "#e5e5e5")
        c.text(y.label(t), x: layout.plotLeft - 6, y: py + 4, size: 11, anchor: .end, fill: "#444")
    }
    c.line(x1: layout.plotLeft, y1: layout.plotTop, x2: layout.plotLeft, y2: layout.plotBottom, stroke: "#888")
    let mid = (layout.plotTop + layout.plotBottom) / 2
    c.text(title, x: 16, y: mid, size: 12, anchor: .middle, fill: "#333", rotate: -90)
}

/// The legend, right-aligned in the title row: a swatch (a short line for a trend) and a name.
private func drawChartLegend(_ c: inout SVGCanvas, entries: [(String, String, Bool)], layout: ChartLayout) {
    guard !entries.isEmpty else { return }
    var x = layout.plotRight
    for (name, color, isLine) in entries.reversed() {
        let textWidth = Double(name.count) * 6.6
        x -= textWidth
        c.text(name, x: x, y: 22, size: 12, fill: "#333")
        x -= 18
        if isLine {
            c.line(x1: x, y1: 18, x2: x + 14, y2: 18, stroke: color, width: 2.5)
        } else {
            c.rect(x: x + 2, y: 12, width: 11, height: 11, fill: color)
        }
        x -= 14
    }
}

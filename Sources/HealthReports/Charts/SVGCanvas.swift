import HealthTables

// A tiny SVG writer for the report's charts: plain SVG 1.1 text, no library, no fonts to
// embed. Every chart is 880 px wide (GitHub's page width for a README or a Markdown file), uses
// a system sans-serif font at 12–15 px and carries its alt text in `<title>`/`<desc>` and
// `aria-label`, so screen readers and GitHub's image alt both say what it shows.

/// An SVG document being built: elements are appended as text, coordinates are user units
/// (pixels at 100 %).
struct SVGCanvas {
    let width: Double
    let height: Double
    private(set) var body: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Coordinates with at most one decimal, `.` as the point, no exponent.
    static func number(_ v: Double) -> String {
        DecimalFormat(decimals: 1, trimsTrailingZeros: true).string(v) ?? "0"
    }

    /// Text escaped for XML character data and attribute values.
    static func escape(_ text: String) -> String {
        // Most texts (tooltips, labels) hold none of the four: returned as they are, without
        // walking them character by character.
        var plain = true
        for byte in text.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 {
            plain = false
            break
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    mutating func raw(_ element: String) { body.append(element) }

    /// A data mark (bar or bar segment): `class="mark"`, with a tooltip `<title>`.
    mutating func markRect(x: Double, y: Double, width w: Double, height h: Double, fill: String, tooltip: String) {
        let n = Self.number
        body.append(
            "<rect class=\"mark\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(w, 0)))\" height=\"\(n(max(h, 0)))\" "
                + "fill=\"\(fill)\"><title>\(Self.escape(tooltip))</title></rect>")
    }

    /// A data mark (point): `class="mark"`, with a tooltip `<title>`.
    mutating func markCircle(cx: Double, cy: Double, r: Double, fill: String, tooltip: String) {
        let n = Self.number
        body.append(
            "<circle class=\"mark\" cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"\(fill)\">"
                + "<title>\(Self.escape(tooltip))</title></circle>")
    }

    mutating func rect(x: Double, y: Double, width w: Double, height h: Double, fill: String) {
        let n = Self.number
        body.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(fill)\"/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width w: Double = 1) {
        let n = Self.number
        body.append(
            "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" "
                + "stroke-width=\"\(n(w))\"/>")
    }

    /// A polyline through `points` (a trend line, not a mark); nothing for fewer than 2 points.
    mutating func polyline(_ points: [(Double, Double)], stroke: String, width w: Double, dashed: Bool = false) {
        guard points.count >= 2 else { return }
        let n = Self.number
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        body.append(
            "<polyline class=\"line\" points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(w))\""
                + (dashed ? " stroke-dasharray=\"6 4\"" : "") + " stroke-linejoin=\"round\"/>")
    }

    enum Anchor: String {
        case start, middle, end
    }

    mutating func text(
        _ s: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start, fill: String = "#333",
        bold: Bool = false, rotate: Double? = nil
    ) {
        let n = Self.number
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(fill)\""
        if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
        if bold { attributes += " font-weight=\"bold\"" }
        if let rotate { attributes += " transform=\"rotate(\(n(rotate)) \(n(x)) \(n(y)))\"" }
        body.append("<text \(attributes)>\(Self.escape(s))</text>")
    }

    /// The whole document: XML declaration, `role="img"`, `aria-label`, `<title>` (the chart's
    /// title) and `<desc>` (the alt text), a white background, then the body.
    func document(title: String, description: String) -> String {
        let n = Self.number
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(Self.escape(description))\" "
            + "font-family=\"-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\">\n"
        out += "<title>\(Self.escape(title))</title>\n"
        out += "<desc>\(Self.escape(description))</desc>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        for element in body { out += element + "\n" }
        out += "</svg>\n"
        return out
    }
}

/// A linear scale from data values to pixels, with "nice" ticks (1, 2, 2.5 or 5 × 10^k).
struct LinearScale {
    let lower: Double
    let upper: Double
    let pixelLow: Double  // pixel of `lower` (the bottom of a y axis)
    let pixelHigh: Double  // pixel of `upper`
    let ticks: [Double]

    /// The largest magnitude a scale covers: data beyond ±10^300 is drawn at the edge, so that
    /// the span, the step and every tick stay finite.
    static let limit = 1e300

    /// A scale covering `minimum...maximum` (widened to nice tick values; at least 1 wide, or a
    /// billionth of the values' magnitude where 1 is lost in their precision, as at 10^16).
    /// `includeZero` starts it at 0 for bars.
    /// `integer` keeps the ticks on whole numbers (steps 1, 2, 5 × 10^k), for counts.
    /// Terminates for every input: the ticks are counted from the span, at most `4 × tickCount + 4`.
    init(
        minimum: Double, maximum: Double, includeZero: Bool, pixelLow: Double, pixelHigh: Double, tickCount: Int = 5,
        integer: Bool = false
    ) {
        var lo = includeZero ? min(0, minimum) : minimum
        var hi = includeZero ? max(0, maximum) : maximum
        if !(lo.isFinite && hi.isFinite) || lo > hi { (lo, hi) = (0, 1) }
        (lo, hi) = (min(max(lo, -Self.limit), Self.limit), min(max(hi, -Self.limit), Self.limit))
        if hi - lo < 1e-9 {
            let pad = max(1, max(abs(lo), abs(hi)) * 1e-9)
            (lo, hi) = includeZero && lo >= 0 ? (0, max(1, hi)) : (lo - pad, hi + pad)
        }
        let count = Double(max(tickCount, 1))
        var step = Self.niceStep(hi / count - lo / count)
        if integer { step = step <= 1 ? 1 : step == 2.5 ? 2 : step.rounded(.up) }
        let firstIndex = (lo / step).rounded(.down)
        let lastIndex = max((hi / step).rounded(.up), firstIndex + 1)
        let tickTotal = Int(min(lastIndex - firstIndex, Double(4 * max(tickCount, 1) + 4))) + 1
        var ticks: [Double] = []
        for i in 0..<tickTotal {
            let t = (firstIndex + Double(i)) * step
            ticks.append(abs(t) < step / 1e6 ? 0 : t)
        }
        self.lower = firstIndex * step
        self.upper = ticks[ticks.count - 1]
        self.pixelLow = pixelLow
        self.pixelHigh = pixelHigh
        self.ticks = ticks
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        for m in [1.0, 2, 2.5, 5, 10] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }

    func pixel(_ v: Double) -> Double {
        pixelLow + (v - lower) / (upper - lower) * (pixelHigh - pixelLow)
    }

    /// Tick label: thousands grouped, decimals only where the step needs them.
    func label(_ v: Double) -> String {
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let decimals = step == step.rounded() ? 0 : (step * 10 == (step * 10).rounded() ? 1 : 2)
        return DecimalFormat(decimals: decimals, groupingSeparator: ",").string(v) ?? ""
    }
}

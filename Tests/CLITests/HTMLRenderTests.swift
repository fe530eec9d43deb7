import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium on the PATH (Debian's `chromium`, installed by scripts/setup).
let chromiumPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// Enabled where Chromium is installed, and always under CI (where a missing one must fail).
let chromiumTrait = ConditionTrait.enabled(
    if: chromiumPath != nil || SlurmCluster.isCI,
    Comment(rawValue: "HTML rendering tests skipped: chromium is not installed (apt-get install chromium)"))

/// `reports/report.html` in a real browser (docs/outputs.md §5), as a phone (390 px) and a
/// desktop window (1280 px) show it: scripts/chromium-render loads it in headless Chromium over
/// the DevTools pipe, measures the page and every element, and takes a whole-page screenshot.
@Suite("report.html in Chromium", .serialized)
struct HTMLRenderTests {
    /// What scripts/chromium-render measured at one width.
    struct Rendering: Decodable {
        var clientWidth: Int
        var scrollWidth: Int
        var scrollHeight: Int
        /// Elements outside a table box that reach past the window's left or right edge.
        var outside: [String]
        var tableBoxes: Int
        var scrollingTableBoxes: Int
        var figures: Int
        var widestFigure: Double
        var png: String
        var pngWidth: Int
        var pngHeight: Int
    }

    /// Renders `page` at `widths` into `folder`; Chromium is killed by its pid afterwards, on
    /// success and failure (the script kills it; this kills it again should the script have died).
    static func render(_ page: URL, widths: [Int], in folder: URL) throws -> [Int: Rendering] {
        let pidFile = folder.appendingPathComponent("chromium.pid")
        defer {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
            {
                kill(pid, SIGKILL)
            }
        }
        let script = packageRoot.appendingPathComponent("scripts/chromium-render").path
        let r = try runTool(
            "python3",
            [script, page.path, "--out-dir", folder.path, "--pid-file", pidFile.path]
                + widths.flatMap { ["--width", "\($0)"] })
        guard r.status == 0 else { throw RenderError("chromium-render exited \(r.status): \(r.stderr)") }
        let decoded = try JSONDecoder().decode([String: Rendering].self, from: Data(r.stdout.utf8))
        return Dictionary(uniqueKeysWithValues: decoded.map { (Int($0.key)!, $0.value) })
    }

    struct RenderError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test(chromiumTrait) func theSampleReportFitsAPhoneAndADesktopWindow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = packageRoot.appendingPathComponent("reports/report.html")
        let renderings = try Self.render(page, widths: [390, 1280], in: folder)
        for (width, r) in renderings.sorted(by: { $0.key < $1.key }) {
            // Nothing wider than the window: the page never scrolls sideways, and no element
            // outside a table's own scrolling box reaches past either edge.
            #expect(r.clientWidth == width)
            #expect(r.scrollWidth == width, "\(width) px: the page is \(r.scrollWidth) px wide")
            #expect(r.outside.isEmpty, "\(width) px: past the window's edge: \(r.outside)")
            // Every table of report.md (8 in the sample: at a glance, weeks, months, rings, stand
            // hours, sleep, workouts, de-duplication) is in a box of its own; the six charts are
            // inline and as wide as the column: 880 px on a desktop, 390 − 2 × 12 px padding on a phone.
            #expect(r.tableBoxes == 8)
            #expect(r.figures == 6)
            #expect(abs(r.widestFigure - (width < 600 ? 366 : 880)) < 1, "\(width) px: \(r.widestFigure)")
            // The screenshot is the whole page: as wide as the window, as tall as the page.
            #expect(r.pngWidth == width && r.pngHeight == r.scrollHeight, "\(width) px: \(r.pngWidth) × \(r.pngHeight)")
        }
        let phone = try #require(renderings[390])
        let desktop = try #require(renderings[1280])
        // The 15-column months table is wider than either window: it scrolls in its own box. On
        // a phone the weeks, stand hours, workouts and de-duplication tables do too (5 boxes);
        // on the desktop the others fit.
        #expect(desktop.scrollingTableBoxes == 1)
        #expect(phone.scrollingTableBoxes >= 1 && phone.scrollingTableBoxes <= 6)
        // The page's height, worked out: 14 sections (~2,200 px of headings and paragraphs at
        // 1280 px), 8 tables (~2,700 px: 93 rows of ~26 px plus headers), 6 charts of 300–400 px
        // at 880 px (~2,300 px) make about 7,700 px; on a phone the charts shrink to 366/880
        // (~950 px) and the text wraps into about twice as many lines. A page outside these
        // bounds lost a section or a chart, or grew one (measured 7,701 and 7,982 px).
        #expect((6_500...9_000).contains(desktop.scrollHeight), "\(desktop.scrollHeight)")
        #expect((6_500...10_000).contains(phone.scrollHeight), "\(phone.scrollHeight)")
    }

    /// The check itself: a copy of the report whose table boxes do not scroll (the style before
    /// they did) overflows the phone's window, and the rendering says so.
    @Test(chromiumTrait) func aTableThatDoesNotScrollInItsBoxIsCaught() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try String(
            contentsOf: packageRoot.appendingPathComponent("reports/report.html"), encoding: .utf8)
        let rule = ".table { overflow-x: auto;"
        #expect(html.contains(rule))
        let broken = folder.appendingPathComponent("report.html")
        try html.replacingOccurrences(of: rule, with: ".table { overflow-x: visible;").write(
            to: broken, atomically: true, encoding: .utf8)
        let phone = try #require(try Self.render(broken, widths: [390], in: folder)[390])
        #expect(phone.scrollWidth > 390)
        #expect(!phone.outside.isEmpty)
    }

    /// The README's picture, docs/report.png, is of the current sample report: made by
    /// `scripts/render-report --readme` (the top 1,610 px of reports/report.html, 960 px wide)
    /// from the report.html whose SHA-256 docs/report.png.source holds. A PNG is not byte-stable
    /// across machines, so its size and its source are checked, not its bytes.
    @Test func theReadmePictureIsOfTheCurrentReport() throws {
        let png = try Data(contentsOf: packageRoot.appendingPathComponent("docs/report.png"))
        // The PNG signature, then the IHDR chunk: width and height, 4 bytes each, big-endian.
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let header = [UInt8](png.dropFirst(16).prefix(8))
        try #require(header.count == 8)
        let width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 960 && height == 1_610, "docs/report.png is \(width) × \(height)")
        let source = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/report.png.source"), encoding: .utf8)
        let hash = try runTool("sha256sum", [packageRoot.appendingPathComponent("reports/report.html").path])
        #expect(hash.status == 0)
        #expect(
            source.trimmingCharacters(in: .whitespacesAndNewlines) == String(hash.stdout.prefix(64)),
            "docs/report.png is of an older reports/report.html: run ./scripts/render-report --readme and commit it")
    }
}

import CHealthSAX
import Foundation
import SyntheticExport
import Testing

/// Reading into the splitter's input region (`hsax_splitter_input` / `hsax_splitter_feed_input`,
/// the parallel reader's way) gives exactly the pieces of `hsax_splitter_feed`: the same bytes,
/// kinds, segments, first lines, newline counts and capacities, the same result code and the
/// same pre-filter counters, for every region size, for short reads, and for inputs that switch
/// between the in-place path (past the prolog, nothing held back by the pre-filter, no control
/// character in the region) and the pre-filter's own path.
///
/// The package's pre-filter holds its output back until 512 KiB have gathered (half its 1 MiB
/// buffer), after the prolog and after each control character, so the in-place path starts only
/// that far into an input: the inputs here are 1.4-2 MB.
@Suite("Splitter: reading into its input region cuts like hsax_splitter_feed")
struct SplitterInputTests {
    struct Cut: Equatable {
        var code: Int32
        var pieces: [[UInt8]] = []
        var infos: [[Int64]] = []  // kind, segment, first line, newlines, capacity
        var counters: [Int64] = []  // removed control characters, dropped DOCTYPE, export version
    }

    enum Feeding {
        /// hsax_splitter_feed in chunks of `chunk` bytes (the reference).
        case feed(chunk: Int)
        /// hsax_splitter_input with this `max`, the region filled (or, `short`, half filled, as a
        /// read that returns less) from the input.
        case input(max: Int, short: Bool)
    }

    final class Recorder {
        var cut = Cut(code: 0)
        var keep = false
        var stopAfter = 0
        var buffers: [(start: UInt, end: UInt)] = []
        var kept: [UnsafeMutablePointer<UInt8>] = []
        deinit { for b in kept { free(b) } }
    }

    struct Outcome {
        var cut: Cut
        /// Offsets in the input where each region's bytes started, and whether the region lay in
        /// a piece's buffer (the in-place path) rather than in the side buffer.
        var regions: [(offset: Int, inPiece: Bool)] = []
    }

    /// Cuts `bytes` with segments of `segmentSize`; `stopAfter` > 0 stops after that many pieces.
    static func cut(_ bytes: [UInt8], segmentSize: Int, feeding: Feeding, stopAfter: Int = 0, locate: Bool = false)
        -> Outcome
    {
        let recorder = Recorder()
        recorder.keep = locate
        recorder.stopAfter = stopAfter
        let onPiece: hsax_piece_fn = { context, bytes, length, piece in
            let r = Unmanaged<Recorder>.fromOpaque(context!).takeUnretainedValue()
            let p = piece!.pointee
            r.cut.pieces.append(Array(UnsafeBufferPointer(start: bytes, count: length)))
            r.cut.infos.append([Int64(p.kind), Int64(p.segment), p.first_line, p.newlines, Int64(p.capacity)])
            if r.keep, let bytes {
                r.kept.append(bytes)
                let start = UInt(bitPattern: bytes)
                r.buffers.append((start, start + UInt(p.capacity)))
            } else {
                free(bytes)
            }
            return r.stopAfter > 0 && r.cut.pieces.count >= r.stopAfter ? 1 : 0
        }
        let splitter = hsax_splitter_create(Unmanaged.passUnretained(recorder).toOpaque(), onPiece, segmentSize)!
        defer { hsax_splitter_free(splitter) }
        var code: Int32 = 0
        var located: [(offset: Int, region: UInt)] = []
        bytes.withUnsafeBufferPointer { b in
            var offset = 0
            switch feeding {
            case .feed(let chunk):
                while offset < b.count && code == 0 {
                    let n = min(chunk, b.count - offset)
                    code = hsax_splitter_feed(splitter, b.baseAddress! + offset, n, 0)
                    offset += n
                }
            case .input(let max, let short):
                while offset < b.count && code == 0 {
                    var room = 0
                    guard let region = hsax_splitter_input(splitter, max, &room) else {
                        code = -1
                        break
                    }
                    var n = min(room, b.count - offset)
                    if short { n = (n + 1) / 2 }
                    region.update(from: b.baseAddress! + offset, count: n)
                    if locate { located.append((offset, UInt(bitPattern: region))) }
                    code = hsax_splitter_feed_input(splitter, n, 0)
                    offset += n
                }
            }
            if code == 0 {
                if case .input = feeding {
                    var room = 0
                    _ = hsax_splitter_input(splitter, 1, &room)
                    code = hsax_splitter_feed_input(splitter, 0, 1)
                } else {
                    code = hsax_splitter_feed(splitter, nil, 0, 1)
                }
            }
        }
        recorder.cut.code = code
        recorder.cut.counters = [
            hsax_splitter_removed_control_characters(splitter), Int64(hsax_splitter_dropped_doctype(splitter)),
            Int64(hsax_splitter_export_version(splitter)),
        ]
        let regions = located.map { place in
            (place.offset, recorder.buffers.contains { place.region >= $0.start && place.region < $0.end })
        }
        return Outcome(cut: recorder.cut, regions: regions)
    }

    /// The input region's pieces equal hsax_splitter_feed's (512 KiB chunks, as the parallel
    /// reader fed it), for each region size and segment size; returns the reference cut of the
    /// last segment size.
    @discardableResult
    static func expectSameCuts(
        _ bytes: [UInt8], maxima: [Int], segmentSizes: [Int], short: [Bool] = [false], stopAfter: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Cut {
        var last = Cut(code: -1)
        for size in segmentSizes {
            let reference = cut(bytes, segmentSize: size, feeding: .feed(chunk: 512 * 1024), stopAfter: stopAfter).cut
            for max in maxima {
                for s in short {
                    let got = cut(bytes, segmentSize: size, feeding: .input(max: max, short: s), stopAfter: stopAfter)
                        .cut
                    let firstDifference = (0..<min(got.pieces.count, reference.pieces.count)).first {
                        got.pieces[$0] != reference.pieces[$0] || got.infos[$0] != reference.infos[$0]
                    }
                    // (a Bool, so that a failure prints the place, not megabytes of pieces)
                    let same = got == reference
                    #expect(
                        same,
                        "regions of \(max)\(s ? " (short reads)" : ""), segments of \(size): codes \(got.code)/\(reference.code), pieces \(got.pieces.count)/\(reference.pieces.count), first differing piece \(firstDifference ?? -1), counters \(got.counters)/\(reference.counters)",
                        sourceLocation: sourceLocation)
                }
            }
            last = reference
        }
        return last
    }

    static let record =
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\""
        + " startDate=\"2025-01-10 10:00:00 +0100\" endDate=\"2025-01-10 10:05:00 +0100\" value=\"12\"/>\n"

    /// Clean records of about `bytes` bytes (enough for the pre-filter to hand its buffer on).
    static func records(_ bytes: Int) -> String {
        String(repeating: record, count: bytes / record.utf8.count + 1)
    }

    /// A prolog with a comment and a DOCTYPE (dropped by the pre-filter), then three rounds of
    /// 600 KB of clean records followed by markup the scanner tracks and bytes the pre-filter
    /// deletes: a comment holding "<Record", CDATA holding '>' and quotes, a PI, control
    /// characters and DEL inside a value and between elements, a child with children, and one
    /// element of about 70 KB (over the piece limit of small segments). Each control character
    /// sends the next 512 KiB through the pre-filter's own path, so both paths alternate.
    static func trickyText() -> [UInt8] {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- exported -->\n<!DOCTYPE HealthData [\n"
            + "<!-- HealthKit Export Version: 14 -->\n<!ELEMENT HealthData (Record)*>\n]>\n"
            + "<HealthData locale=\"en_US\">\n <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n"
        for round in 0..<3 {
            text += records(600_000)
            text += " <!-- a comment with <Record a=\"1\"/> and \"quotes' -->\n"
            text += " <Record type=\"a\" value=\"\u{01}1\u{7F}\"><![CDATA[ <not a tag> \" ' ]]></Record>\n"
            text += " <?pi with > and \" ?>\n\u{0B}\u{1F}"
            text +=
                " <Workout d=\"\(round)\"><WorkoutEvent e='2'/><MetadataEntry key=\"k\" value=\"&lt;a&gt;\"/></Workout>\n"
            text += " <Record type=\"huge\" value=\"" + String(repeating: "0123456789", count: 7_000) + "\"/>\n"
            text += records(20_000)
        }
        text += "</HealthData>\n"
        return Array(text.utf8)
    }

    static let maxima = [7, 63, 64, 65, 4096, 100_003, 1 << 30]
    static let segmentSizes = [1, 300, 16 * 1024, 512 * 1024]

    @Test func generatedExport() {
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(days: 2, prolog: .version12Malformed))
        let c = Self.expectSameCuts(bytes, maxima: Self.maxima, segmentSizes: Self.segmentSizes)
        #expect(c.code == 0)
        // 1.4 MB in segments of 512 KiB: the prefix, 2 or 3 segments (one piece each).
        #expect(c.pieces.count >= 3)
        #expect(bytes.count > 1_300_000)
    }

    /// Regions of one byte, and reads that return half the region, on the whole export.
    @Test func oneByteRegionsAndShortReads() {
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(days: 2, prolog: .version14))
        Self.expectSameCuts(bytes, maxima: [1], segmentSizes: [300])
        Self.expectSameCuts(bytes, maxima: [64, 4097, 1 << 20], segmentSizes: [1, 16 * 1024], short: [true])
    }

    @Test func trickyTextWithBothPaths() {
        let bytes = Self.trickyText()
        let c = Self.expectSameCuts(bytes, maxima: Self.maxima, segmentSizes: Self.segmentSizes, short: [false, true])
        #expect(c.code == 0)
        // 3 × (1 control character and DEL in the value, then \v and 0x1F).
        #expect(c.counters == [12, 1, 14])
        // Both paths were taken past the first 600 KB: after each control character the regions
        // are the side buffer until the pre-filter hands its 512 KiB on, then the pieces again.
        let o = Self.cut(bytes, segmentSize: 16 * 1024, feeding: .input(max: 4096, short: false), locate: true)
        let late = o.regions.filter { $0.offset >= 600_000 }
        #expect(late.contains { $0.inPiece } && late.contains { !$0.inPiece })
        let switches = zip(late, late.dropFirst()).filter { $0.0.inPiece != $0.1.inPiece }.count
        #expect(switches >= 4)
    }

    /// Inputs that end early (the root never closes) are refused alike, after the same pieces;
    /// cuts fall in the clean stretches, in the control characters' rounds and in the huge value.
    @Test func truncatedInputs() {
        let bytes = Self.trickyText()
        for end in stride(from: 610_000, to: bytes.count, by: 97_531) {
            let c = Self.expectSameCuts(
                Array(bytes[..<end]), maxima: [63, 4096, 1 << 30], segmentSizes: [300, 16 * 1024])
            #expect(c.code == Int32(HSAX_ERR_SPLIT), "cut at \(end)")
        }
        let huge = bytes.indices.first { bytes[$0] == UInt8(ascii: "0") && bytes[$0 + 1] == UInt8(ascii: "1") }!
        let c = Self.expectSameCuts(Array(bytes[..<(huge + 30_000)]), maxima: [65, 1 << 30], segmentSizes: [300])
        #expect(c.code == Int32(HSAX_ERR_SPLIT))
    }

    /// What the scanner refuses far into the body (on the in-place path): a DOCTYPE inside the
    /// root, text after the root's end; and a piece callback that stops the run.
    @Test func refusedInputsAndAStop() {
        let head =
            "<?xml version=\"1.0\"?>\n<HealthData>\n" + Self.records(700_000)
        let doctype = Array((head + "<!DOCTYPE x>\n" + Self.records(50_000) + "</HealthData>\n").utf8)
        #expect(
            Self.expectSameCuts(doctype, maxima: [64, 4096, 1 << 30], segmentSizes: [300, 16 * 1024]).code
                == Int32(HSAX_ERR_SPLIT))
        let after = Array((head + "</HealthData>\nstray").utf8)
        #expect(
            Self.expectSameCuts(after, maxima: [64, 1 << 30], segmentSizes: [16 * 1024]).code == Int32(HSAX_ERR_SPLIT))
        let fine = Array((head + "</HealthData>\n").utf8)
        for stop in [1, 2, 30, 40] {
            let c = Self.expectSameCuts(fine, maxima: [63, 1 << 30], segmentSizes: [16 * 1024], stopAfter: stop)
            #expect(c.code == Int32(HSAX_ERR_STOPPED), "stop after \(stop)")
            #expect(c.pieces.count == stop)
        }
    }

    /// Past the pre-filter's first 512 KiB, a clean export is read into the pieces themselves:
    /// every region that starts beyond 600,000 bytes lies in a piece's buffer. The regions end
    /// shortly after each cut (segment size + 16 KiB), so reads stay about a segment long.
    @Test func aCleanBodyIsReadInPlace() {
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(days: 2, prolog: .version14))
        let segment = 64 * 1024
        let o = Self.cut(bytes, segmentSize: segment, feeding: .input(max: 512 * 1024, short: false), locate: true)
        #expect(o.cut.code == 0)
        let late = o.regions.filter { $0.offset >= 600_000 }
        #expect(late.count > 10)
        #expect(late.allSatisfy { $0.inPiece })
        // The prolog's region is the side buffer (the pre-filter must see it).
        #expect(o.regions.first?.inPiece == false)
        // About one read per 64 KiB segment (1.4 MB: 22 segments), at most two.
        #expect(o.regions.count <= 2 * (bytes.count / segment + 1))
    }

    @Test func aLengthOverTheRegionOrWithoutARegionIsRefused() {
        let onPiece: hsax_piece_fn = { _, bytes, _, _ in
            free(bytes)
            return 0
        }
        let splitter = hsax_splitter_create(nil, onPiece, 100)!
        defer { hsax_splitter_free(splitter) }
        #expect(hsax_splitter_feed_input(splitter, 1, 0) == Int32(HSAX_ERR_SPLIT))
        var room = 0
        #expect(hsax_splitter_input(splitter, 10, &room) != nil)
        #expect(room == 10)
        #expect(hsax_splitter_feed_input(splitter, 11, 0) == Int32(HSAX_ERR_SPLIT))
        // A region is dropped by hsax_splitter_feed.
        #expect(hsax_splitter_input(splitter, 10, &room) != nil)
        let text = Array("<HealthData>".utf8)
        #expect(hsax_splitter_feed(splitter, text, text.count, 0) == 0)
        #expect(hsax_splitter_feed_input(splitter, 1, 0) == Int32(HSAX_ERR_SPLIT))
    }
}

import CHealthSAX
import Foundation
import SyntheticExport
import Testing

/// The splitter's block scanner (64 bytes at a time, SSE2) cuts exactly where its byte-by-byte
/// scanner cuts: the same pieces, bytes and line counts, for any chunking of the input and any
/// segment size, on real exports and on markup made to catch a block boundary at every byte.
@Suite("Splitter: the block scanner cuts like the byte scanner")
struct SplitterBlockScanTests {
    struct Cut: Equatable {
        var code: Int32
        var pieces: [[UInt8]] = []
        var infos: [[Int64]] = []  // kind, segment, first line, newlines
    }

    static func cut(_ bytes: [UInt8], chunk: Int, segmentSize: Int, block: Bool) -> Cut {
        final class Box { var cut = Cut(code: 0) }
        let box = Box()
        let onPiece: hsax_piece_fn = { context, bytes, length, piece in
            let b = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            b.cut.pieces.append(Array(UnsafeBufferPointer(start: bytes, count: length)))
            let p = piece!.pointee
            b.cut.infos.append([Int64(p.kind), Int64(p.segment), p.first_line, p.newlines])
            free(bytes)
            return 0
        }
        let splitter = hsax_splitter_create(Unmanaged.passUnretained(box).toOpaque(), onPiece, segmentSize)!
        defer { hsax_splitter_free(splitter) }
        hsax_splitter_use_block_scan(splitter, block ? 1 : 0)
        var code: Int32 = 0
        bytes.withUnsafeBufferPointer { b in
            var offset = 0
            while offset < b.count && code == 0 {
                let n = min(chunk, b.count - offset)
                code = hsax_splitter_feed(splitter, b.baseAddress! + offset, n, 0)
                offset += n
            }
            if code == 0 { code = hsax_splitter_feed(splitter, nil, 0, 1) }
        }
        box.cut.code = code
        return box.cut
    }

    /// Both scanners over `bytes`; returns the pieces (of the block scanner).
    @discardableResult
    static func expectSameCuts(
        _ bytes: [UInt8], chunks: [Int], segmentSizes: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Cut {
        var last = Cut(code: -1)
        for chunk in chunks {
            for size in segmentSizes {
                let block = cut(bytes, chunk: chunk, segmentSize: size, block: true)
                let plain = cut(bytes, chunk: chunk, segmentSize: size, block: false)
                // On a difference, say where (the pieces themselves can be megabytes).
                let same = block == plain
                let firstDifference = (0..<min(block.pieces.count, plain.pieces.count)).first {
                    block.pieces[$0] != plain.pieces[$0] || block.infos[$0] != plain.infos[$0]
                }
                let place =
                    "chunks of \(chunk), segments of \(size): codes \(block.code)/\(plain.code), pieces"
                    + " \(block.pieces.count)/\(plain.pieces.count), first differing piece \(firstDifference ?? -1)"
                #expect(same, "\(place)", sourceLocation: sourceLocation)
                last = block
            }
        }
        return last
    }

    @Test func bundledSample() throws {
        let bytes = try zipEntry(packageRoot.appendingPathComponent("samples/export.zip").path, suffix: "export.xml")
        let c = Self.expectSameCuts(bytes, chunks: [64, 1000, 1 << 20], segmentSizes: [200, 64 * 1024])
        #expect(c.code == 0)
        #expect(c.pieces.count > 3)
    }

    @Test(arguments: [false, true])
    func generatedExports(extended: Bool) {
        let (bytes, _) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(
                days: 8, prolog: extended ? .version12Malformed : .version14, extendedHealthData: extended))
        let c = Self.expectSameCuts(bytes, chunks: [100, 4096, 1 << 20], segmentSizes: [1, 300, 16 * 1024])
        #expect(c.code == 0)
        // 16 KiB segments of an export of several MB: hundreds of cuts, each after a '>'.
        #expect(c.pieces.count > 100)
        #expect(c.pieces.dropFirst().allSatisfy { $0.last == UInt8(ascii: ">") || $0.last == UInt8(ascii: "\n") })
    }

    /// Every construct the scanner tracks, shifted byte by byte so that each of its marks falls
    /// on each place of a 64-byte block: '>' and the other quote inside values, "/>" with the '/'
    /// and '>' in different blocks, nested children, comments, CDATA and PIs inside the root
    /// (which the block scanner hands back), end tags, and the root's end.
    @Test func markupAtEveryOffsetOfABlock() {
        let body =
            "<Record a=\"x > y\" b='it\"s' c=\"Alex's\"/>\n"
            + "<Workout d=\"1\"><WorkoutEvent e='2'/><MetadataEntry key=\"k\" value=\"&lt;a&gt;\"/></Workout>\n"
            + "<!-- a comment with <Record and \"quotes -->\n"
            + "<Record f=\"3\"><![CDATA[ <not a tag> \" ]]></Record>\n"
            + "<?pi with > and \" ?>\n"
            + "<Record g=\"4\"\n   h=\"5\"   />\n"
            + "<Correlation i=\"6\"><Record j=\"7\"/></Correlation >\n"
        for shift in 0..<64 {
            let padding = String(repeating: " ", count: shift)
            let text =
                "<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n" + padding
                + String(repeating: body, count: 6) + "</HealthData>\n"
            let c = Self.expectSameCuts(Array(text.utf8), chunks: [64, 97, 1 << 20], segmentSizes: [1, 70, 500])
            #expect(c.code == 0, "shift \(shift)")
        }
    }

    /// Inputs the splitter refuses or that end early are refused alike, at the same piece.
    @Test func truncatedAndRefusedInputs() {
        let record = "<Record a=\"" + String(repeating: "v", count: 90) + "\" b='1'/>\n"
        let whole = "<?xml version=\"1.0\"?>\n<HealthData>\n" + String(repeating: record, count: 20) + "</HealthData>\n"
        let bytes = Array(whole.utf8)
        for end in stride(from: 40, to: bytes.count, by: 37) {
            let c = Self.expectSameCuts(Array(bytes[..<end]), chunks: [64, 1 << 20], segmentSizes: [1, 150])
            #expect(c.code == Int32(HSAX_ERR_SPLIT), "cut at \(end)")  // the root never closes
        }
        // Text after the root's end, and an end tag too many: both refused.
        let after = Array((whole + "stray").utf8)
        #expect(Self.expectSameCuts(after, chunks: [64, 1 << 20], segmentSizes: [100]).code == Int32(HSAX_ERR_SPLIT))
        let extra = Array(whole.replacingOccurrences(of: "</HealthData>", with: "</Record></HealthData>").utf8)
        Self.expectSameCuts(extra, chunks: [64, 1 << 20], segmentSizes: [100])
    }
}

import CHealthSAX
import CLibArchive
import Foundation
import SyntheticExport
import Testing

/// Everything the glue hands to Swift for one input: each start tag (element, depth, line,
/// segment, unknown-attribute count, name and the bytes of every known attribute), each end tag,
/// and the outcome (result code, error line, column and message, removed control characters).
/// Two traces are equal exactly when Swift could not tell the two parses apart.
struct GlueTrace: Equatable, CustomStringConvertible {
    var events: [UInt8] = []
    var starts = 0
    var code: Int32 = 0
    var line: Int32 = 0
    var column: Int32 = 0
    var message = ""
    var removed: Int64 = 0
    var rewritten: Int64 = 0
    /// The known attributes of every start tag, by name, decoded as UTF-8 (for spot checks).
    var values: [[String: String]] = []

    static func == (a: GlueTrace, b: GlueTrace) -> Bool {
        a.events == b.events && a.starts == b.starts && a.code == b.code && a.line == b.line
            && a.column == b.column && a.message == b.message && a.removed == b.removed
    }

    /// Equal but for the error's column (the rewriter's short tokens, HSAX_REWRITE_SHORT_TOKENS,
    /// change only that), with the same number of rewritten values.
    func sameExceptColumn(_ b: GlueTrace) -> Bool {
        var c = b
        c.column = column
        return self == c && rewritten == b.rewritten
    }

    var description: String {
        "\(starts) starts, \(events.count) event bytes, code \(code) at \(line):\(column) \"\(message)\","
            + " \(removed) removed, \(rewritten) rewritten"
    }
}

private let attributeNames: [String] = (0..<Int(HSAX_A_COUNT.rawValue)).map { id in
    // hsax has no name table for attributes; the ones the tests look at are enough
    switch Int32(id) {
    case Int32(HSAX_A_SOURCE_NAME.rawValue): "sourceName"
    case Int32(HSAX_A_DEVICE.rawValue): "device"
    case Int32(HSAX_A_VALUE.rawValue): "value"
    case Int32(HSAX_A_TYPE.rawValue): "type"
    case Int32(HSAX_A_KEY.rawValue): "key"
    default: "#\(id)"
    }
}

private final class TraceBox {
    var trace = GlueTrace()
    func put<T>(_ value: T) {
        withUnsafeBytes(of: value) { trace.events.append(contentsOf: $0) }
    }
}

private let traceStart: hsax_start_fn = { context, start in
    let box = Unmanaged<TraceBox>.fromOpaque(context!).takeUnretainedValue()
    let s = start!.pointee
    box.trace.starts += 1
    box.put(UInt8(ascii: "S"))
    box.put(s.element)
    box.put(s.depth)
    box.put(s.line)
    box.put(s.segment)
    box.put(s.unknown_attributes)
    box.put(s.present)
    box.trace.events.append(contentsOf: Array(String(cString: s.name).utf8))
    box.put(UInt8(0))
    var values: [String: String] = [:]
    withUnsafeBytes(of: s.attributes) { raw in
        let attributes = raw.bindMemory(to: hsax_value.self)
        for id in 0..<Int(HSAX_A_COUNT.rawValue) where s.present >> UInt64(id) & 1 == 1 {
            let v = attributes[id]
            box.put(v.length)
            let bytes = v.length > 0 ? Array(UnsafeBufferPointer(start: v.bytes, count: Int(v.length))) : []
            box.trace.events.append(contentsOf: bytes)
            values[attributeNames[id]] = String(decoding: bytes, as: UTF8.self)
        }
    }
    box.trace.values.append(values)
}

private let traceEnd: hsax_end_fn = { context, element, depth in
    let box = Unmanaged<TraceBox>.fromOpaque(context!).takeUnretainedValue()
    box.put(UInt8(ascii: "E"))
    box.put(element)
    box.put(depth)
}

/// The rewriter's mode for `rewrite` and `shortTokens` (HSAX_REWRITE_*).
private func rewriterMode(_ rewrite: Bool, _ shortTokens: Bool) -> Int32 {
    Int32(!rewrite ? HSAX_REWRITE_OFF : shortTokens ? HSAX_REWRITE_SHORT_TOKENS : HSAX_REWRITE_KEEP_COLUMNS)
}

/// Feeds `bytes` to a glue parser (hsax_parser_feed, the serial reader's path) in chunks of
/// `chunk` bytes, or split at the given offsets, with the rewriter on (tokens padded to keep
/// columns, or short) or off.
func glueTrace(
    _ bytes: [UInt8], chunk: Int = 512 * 1024, splits: [Int]? = nil, rewrite: Bool, shortTokens: Bool = false
) -> GlueTrace {
    let box = TraceBox()
    let parser = hsax_parser_create(Unmanaged.passUnretained(box).toOpaque(), traceStart, traceEnd)!
    defer { hsax_parser_free(parser) }
    precondition(hsax_parser_set_attribute_rewriting(parser, rewriterMode(rewrite, shortTokens)) == 0)
    var cuts = splits ?? Array(stride(from: chunk, to: bytes.count, by: chunk))
    cuts.append(bytes.count)
    var code: Int32 = 0
    bytes.withUnsafeBufferPointer { b in
        var from = 0
        for to in cuts where to >= from {
            code = hsax_parser_feed(parser, b.baseAddress! + from, to - from, 0)
            from = to
            if code != 0 { return }
        }
        code = hsax_parser_feed(parser, nil, 0, 1)
    }
    finish(&box.trace, parser, code)
    return box.trace
}

private func finish(_ trace: inout GlueTrace, _ parser: OpaquePointer, _ code: Int32) {
    trace.code = code
    if code == Int32(HSAX_ERR_XML) {
        trace.line = hsax_parser_error_line(parser)
        trace.column = hsax_parser_error_column(parser)
        trace.message = String(cString: hsax_parser_error_message(parser))
    }
    trace.removed = hsax_parser_removed_control_characters(parser)
    trace.rewritten = hsax_parser_rewritten_values(parser)
}

/// The parallel reader's path: a splitter cuts the input into the prefix and segments, and one
/// parser is fed them the way a ParallelWorker feeds its share (hsax_parser_feed_filtered, a
/// newline before each segment, a line map), in `chunk`-byte feeds.
func parallelGlueTrace(_ bytes: [UInt8], segmentSize: Int, chunk: Int, rewrite: Bool, shortTokens: Bool = false)
    -> GlueTrace?
{
    final class Pieces {
        var list: [([UInt8], hsax_piece)] = []
    }
    let pieces = Pieces()
    let onPiece: hsax_piece_fn = { context, bytes, length, piece in
        let p = Unmanaged<Pieces>.fromOpaque(context!).takeUnretainedValue()
        p.list.append((Array(UnsafeBufferPointer(start: bytes, count: length)), piece!.pointee))
        free(bytes)
        return 0
    }
    let splitter = hsax_splitter_create(Unmanaged.passUnretained(pieces).toOpaque(), onPiece, segmentSize)!
    defer { hsax_splitter_free(splitter) }
    let rc = bytes.withUnsafeBufferPointer { b in
        let r = hsax_splitter_feed(splitter, b.baseAddress, b.count, 0)
        return r != 0 ? r : hsax_splitter_feed(splitter, nil, 0, 1)
    }
    guard rc == 0, let prefix = pieces.list.first, prefix.1.kind & Int32(HSAX_PIECE_PREFIX) != 0 else { return nil }
    let box = TraceBox()
    let parser = hsax_parser_create(Unmanaged.passUnretained(box).toOpaque(), traceStart, traceEnd)!
    defer { hsax_parser_free(parser) }
    precondition(hsax_parser_set_attribute_rewriting(parser, rewriterMode(rewrite, shortTokens)) == 0)
    func feed(_ b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { p in
            var offset = 0
            while offset < p.count {
                let n = min(chunk, p.count - offset)
                if hsax_parser_feed_filtered(parser, p.baseAddress! + offset, n, 0) != 0 { return false }
                offset += n
            }
            return true
        }
    }
    var ok = hsax_parser_map_lines(parser, 1, 1, -1) == 0 && feed(prefix.0)
    var streamLine = 1 + prefix.1.newlines
    for (b, info) in pieces.list.dropFirst() where ok {
        if info.kind & Int32(HSAX_PIECE_START) != 0 {
            ok = feed(Array("\n".utf8))
            streamLine += 1
            ok = ok && hsax_parser_map_lines(parser, streamLine, info.first_line, info.segment) == 0
        }
        ok = ok && feed(b)
        streamLine += info.newlines
    }
    let code = ok ? hsax_parser_feed_filtered(parser, nil, 0, 1) : Int32(HSAX_ERR_XML)
    finish(&box.trace, parser, code)
    return box.trace
}

/// Checks that the rewriter changes nothing Swift sees, at each chunk size, and that its short
/// tokens change nothing but an error's column; returns the trace with the rewriter on (whole
/// input in one feed).
@discardableResult
func expectRewriterInvisible(
    _ bytes: [UInt8], chunks: [Int] = [1, 7, 4096, 512 * 1024], sourceLocation: SourceLocation = #_sourceLocation
) -> GlueTrace {
    let off = glueTrace(bytes, chunk: max(1, bytes.count), rewrite: false)
    let on = glueTrace(bytes, chunk: max(1, bytes.count), rewrite: true)
    #expect(on == off, "whole: on \(on) vs off \(off)", sourceLocation: sourceLocation)
    let short = glueTrace(bytes, chunk: max(1, bytes.count), rewrite: true, shortTokens: true)
    #expect(short.sameExceptColumn(on), "whole: short tokens \(short) vs on \(on)", sourceLocation: sourceLocation)
    for chunk in chunks where chunk < bytes.count {
        let a = glueTrace(bytes, chunk: chunk, rewrite: true)
        #expect(a == off, "chunks of \(chunk): on \(a) vs off \(off)", sourceLocation: sourceLocation)
        let s = glueTrace(bytes, chunk: chunk, rewrite: true, shortTokens: true)
        #expect(
            s.sameExceptColumn(on), "chunks of \(chunk): short tokens \(s) vs on \(on)", sourceLocation: sourceLocation)
        if chunk >= 4096 {
            let b = glueTrace(bytes, chunk: chunk, rewrite: false)
            #expect(b == off, "chunks of \(chunk), off: \(b) vs whole \(off)", sourceLocation: sourceLocation)
        }
    }
    return on
}

private func doc(_ body: String) -> [UInt8] {
    Array(
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
}

private func record(_ sourceName: String, extra: String = "") -> String {
    "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(sourceName)\" unit=\"count\" value=\"5\"\(extra)"
        + " startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 10:05:00 +0000\"/>\n"
}

@Suite("Attribute rewriter: values libxml2 would parse slowly are pre-decoded, invisibly")
struct AttributeRewriterTests {
    /// Values that are rewritten, with the bytes Swift must see (worked out from XML 1.0 §4.6 and
    /// §4.1: `&amp;` is '&', `&#38;` is '&', `&amp;#38;` is the five characters "&#38;",
    /// U+1F600 is F0 9F 98 80 in UTF-8).
    @Test(arguments: [
        ("A &amp; B", "A & B"),
        ("A &#38; B", "A & B"),
        ("&amp;#38; x", "&#38; x"),
        ("x &#x1F600; y", "x \u{1F600} y"),
        ("&apos;&quot;&lt;&gt;&amp;", "'\"<>&"),
        ("Alex\u{2019}s iPhone", "Alex\u{2019}s iPhone"),
        ("ab &#10;&#9;&#13; cd", "ab \n\t\r cd"),
        ("&#127;1 &lt;", "\u{7F}1 <"),
    ])
    func decodedValuesReachSwiftUnchanged(source: String, decoded: String) {
        let t = expectRewriterInvisible(doc(record(source)))
        #expect(t.rewritten == 1)
        #expect(t.values.last?["sourceName"] == decoded)
    }

    /// The rewriter scans values and names 16 bytes at a time (SSE2) and then 8 and 1: a special
    /// byte ('&', a byte of "é", the closing quote) at every place of values of 1 to 40 bytes
    /// crosses each of those steps. The decoded value is the plain text with "&amp;" read as '&'.
    @Test func specialBytesAtEveryPlaceOfShortAndLongValues() {
        for length in 1...40 {
            for place in 0..<length {
                let plain = String(repeating: "a", count: length)
                let i = plain.index(plain.startIndex, offsetBy: place)
                let amp = plain.replacingCharacters(in: i...i, with: "&amp;")
                let accent = plain.replacingCharacters(in: i...i, with: "\u{E9}")
                // An attribute of a long name too (not one Swift reads: it only has to parse the same).
                let long = String(repeating: "n", count: length)
                let body = record(amp, extra: " device=\"\(accent)\" \(long)x=\"\(amp)\"")
                let t = expectRewriterInvisible(doc(body), chunks: [7, 4096])
                #expect(t.rewritten >= 2, "length \(length), place \(place)")
                #expect(t.values.last?["sourceName"] == plain.replacingCharacters(in: i...i, with: "&"))
                #expect(t.values.last?["device"] == accent)
            }
            // And no special byte: nothing is rewritten.
            let t = expectRewriterInvisible(doc(record(String(repeating: "b", count: length))), chunks: [4096])
            #expect(t.rewritten == 0)
        }
    }

    /// The Apple device value, single-quoted, next to a plain value that stays as it is.
    @Test func deviceValuesAndSingleQuotes() {
        let body =
            "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName='Alex&#x2019;s Watch' "
            + "device=\"&lt;&lt;HKDevice: 0x28277c3c0&gt;, name:Apple Watch, manufacturer:Apple Inc.&gt;\" value=\"72\"/>\n"
        let t = expectRewriterInvisible(doc(body))
        #expect(t.rewritten == 2)
        #expect(t.values.last?["device"] == "<<HKDevice: 0x28277c3c0>, name:Apple Watch, manufacturer:Apple Inc.>")
        #expect(t.values.last?["sourceName"] == "Alex\u{2019}s Watch")
        #expect(t.values.last?["value"] == "72")
    }

    /// Values libxml2 must judge itself: it reports the error (same line, column and words with
    /// the rewriter on), and the rewriter leaves them alone.
    @Test(arguments: [
        ("ab &#0; cd", "xmlParseCharRef: invalid xmlChar value 0"),
        ("ab &foo; cd", "Entity 'foo' not defined"),
        ("ab < cd", "Unescaped '<' not allowed in attributes values"),
        ("ab &#xD800; cd", "xmlParseCharRef: invalid xmlChar value 55296"),
        ("ab &#xFFFE; cd", "xmlParseCharRef: invalid xmlChar value 65534"),
        ("ab &#X41; cd", "CharRef: invalid decimal value"),
    ])
    func badValuesAreLeftToLibxml2(source: String, message: String) {
        let t = expectRewriterInvisible(doc(record(source)))
        #expect(t.code == Int32(HSAX_ERR_XML))
        #expect(t.line == 3)
        #expect(t.message == message)
        #expect(t.rewritten == 0)
    }

    @Test func invalidUTF8IsLeftToLibxml2() {
        var bytes = doc(record("ab X cd"))
        bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0xFF
        let t = expectRewriterInvisible(bytes)
        #expect(t.code == Int32(HSAX_ERR_XML))
        #expect(t.message.hasPrefix("Input is not proper UTF-8"))
        #expect(t.rewritten == 0)
    }

    /// libxml2's UTF-8 error quotes the four bytes from the bad one; in an attribute name right
    /// before the value they reach into it ("sourceNam\u{9D}=\"&#363;1\"" quotes 9D 3D 22 26):
    /// values after a name with non-ASCII bytes are not rewritten. (Found by a differential fuzz
    /// run of rewriter on against off.) The glue's message names the first of them, 0x9D.
    @Test func aBadByteInTheNameBeforeAValueIsQuotedUnchanged() {
        var bytes = doc("<Record type=\"T\" sourceNamX=\"&#363;1\" unit=\"count\"/>\n")
        bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0x9D
        let t = expectRewriterInvisible(bytes)
        #expect(t.message.hasPrefix("Input is not proper UTF-8: the bytes from 0x9D on"), "\(t.message)")
        #expect(t.rewritten == 0)
    }

    /// Raw TAB and LF are normalized to spaces by libxml2 (and an LF moves the line count):
    /// such values are not rewritten, and come out as libxml2 makes them.
    @Test func valuesWithRawTabOrNewlineAreNotRewritten() {
        let t = expectRewriterInvisible(doc(record("ab\t&lt;cd") + record("ab\n&lt;cd")))
        #expect(t.rewritten == 0)
        #expect(t.values.suffix(2).map { $0["sourceName"] } == ["ab <cd", "ab <cd"])
    }

    /// Errors after a rewritten value on the same line (in the value's tag, in the next tag, in
    /// the text after it) keep their line, column and words: the token and its filler occupy
    /// the characters the value did.
    @Test(arguments: [
        ("<Record sourceName=\"&lt;x&gt;\" sourceName=\"&lt;y&gt;\"/>\n", "Attribute sourceName redefined"),
        (
            "<Record sourceName=\"Alex\u{2019}s iPhone\" device=\"&lt;&lt;HKDevice&gt;\" value=\"1\"/> <Record a=\"1\" a=\"2\"/>\n",
            "Attribute a redefined"
        ),
        (
            "<Record sourceName=\"Alex\u{2019}s iPhone\" device=\"&lt;&lt;HKDevice&gt;\" value=\"1\" & />\n",
            "error parsing attribute name"
        ),
        (
            "<Record sourceName=\"Zo\u{EB} &lt;\" device=\"&lt;&lt;HKDevice&gt;\">&bogus;</Record>\n",
            "Entity 'bogus' not defined"
        ),
        (
            "<Record sourceName=\"Zo\u{EB} &lt;\">x</Recordx>\n",
            "Opening and ending tag mismatch: Record line 3 and Recordx"
        ),
        (
            "<Record sourceName=\"Zo\u{EB} &lt;\" q:device=\"&lt;&lt;HKDevice&gt;\"/>\n",
            "Namespace prefix q for device on Record is not defined"
        ),
        ("<Record sourceName=\"&lt;x&gt;\"b=\"y\"/>\n", "attributes construct error"),
        ("<Record sourceName=\"&lt;x&gt;\"/ >\n", "attributes construct error"),
    ])
    func errorsAfterRewrittenValuesKeepTheirPlace(body: String, message: String) {
        let t = expectRewriterInvisible(doc(body))
        #expect(t.code == Int32(HSAX_ERR_XML))
        #expect(t.line == 3)
        #expect(t.column > 20)
        #expect(t.message == message)
    }

    /// The duplicate attribute's column, worked out by hand: libxml2 checks duplicates once the
    /// tag's attributes are read, standing on the '/' of "/>". In
    /// `<Record sourceName="&lt;x&gt;" sourceName="&lt;y&gt;"/>` "<Record" is 7 characters and
    /// each ` sourceName="&lt;x&gt;"` is 1 + 10 + 1 + 1 + 9 + 1 = 23, so '/' is character
    /// 7 + 2 * 23 + 1 = 54, with the rewriter on as well (each token, DEL and one digit, is
    /// padded with 9 - 2 = 7 '-' inside its quotes).
    @Test func theDuplicateColumnIsTheSameNumber() {
        let body = "<Record sourceName=\"&lt;x&gt;\" sourceName=\"&lt;y&gt;\"/>\n"
        let off = glueTrace(doc(body), rewrite: false)
        let on = glueTrace(doc(body), rewrite: true)
        #expect(off.column == 54)
        #expect(on.column == 54)
        #expect(on.rewritten == 2)
    }

    /// With short tokens (the parallel reader's workers) the column counts the tokens, not the
    /// values: each ` sourceName="…"` is now 1 + 10 + 1 + 1 + 2 + 1 = 16 characters (the tokens
    /// DEL 0 and DEL 1, unpadded), so '/' is character 7 + 2 * 16 + 1 = 40; line and words are
    /// those of the padded read, and a read without rewritten values on the line keeps the
    /// file's column.
    @Test func shortTokensMoveOnlyTheColumnOfTheirLine() {
        let body = "<Record sourceName=\"&lt;x&gt;\" sourceName=\"&lt;y&gt;\"/>\n"
        let on = glueTrace(doc(body), rewrite: true)
        let short = glueTrace(doc(body), rewrite: true, shortTokens: true)
        #expect(short.column == 40)
        #expect(short.line == 3 && short.message == "Attribute sourceName redefined")
        #expect(short.sameExceptColumn(on))
        // A rewritten value on the line before does not move the next line's column: on line 4,
        // "<Record" is 7 characters and each ` sourceName="x"` 1 + 10 + 1 + 1 + 1 + 1 = 15, so
        // '/' is character 7 + 2 * 15 + 1 = 38, the file's column.
        let plain = "<Record sourceName=\"x\" sourceName=\"y\"/>\n"
        let before = glueTrace(doc(record("Zo\u{EB} &lt;") + plain), rewrite: true, shortTokens: true)
        #expect(before.line == 4 && before.column == 38 && before.rewritten == 1, "\(before)")
    }

    /// Markup that is not a start tag is passed on byte for byte: comments, CDATA sections,
    /// processing instructions and text, also when they hold something that looks like a tag.
    @Test func commentsCDATAPIsAndTextAreUntouched() {
        let body =
            "<!-- <Record sourceName=\"&lt;c&gt;\"/> --><Record sourceName=\"&lt;1&gt;\"/>\n"
            + "<Record><![CDATA[ <Record sourceName=\"&lt;d&gt;\"/> ]]]]></Record><Record sourceName=\"&lt;2&gt;\"/>\n"
            + "<?pi <Record sourceName=\"&lt;p&gt;\"/> ?><Record sourceName=\"&lt;3&gt;\"/>\n"
            + "<Record>text &lt; sourceName=\"&lt;t&gt;\" &gt;</Record><Record sourceName='&lt;4&gt;'/>\n"
        let t = expectRewriterInvisible(doc(body))
        #expect(t.code == 0)
        #expect(t.rewritten == 4)
        #expect(t.values.compactMap { $0["sourceName"] } == ["<1>", "<2>", "<3>", "<4>"])
    }

    /// A comment with "--" inside is libxml2's error; the rewriter keeps its place.
    @Test func aDoubleHyphenInACommentIsLibxml2sError() {
        let t = expectRewriterInvisible(
            doc("<Record sourceName=\"&lt;1&gt;\"/><!-- a -- b --><Record sourceName=\"&lt;2&gt;\"/>\n"))
        #expect(t.message == "Double hyphen within comment")
        #expect(t.line == 3)
    }

    /// xmlns and xml:* attributes are libxml2's own business.
    @Test func xmlAttributesAreLeftAlone() {
        let t = expectRewriterInvisible(
            doc("<Record xmlns:q=\"http://example.com/&amp;\" xml:lang=\"&amp;\" sourceName=\"&lt;x&gt;\"/>\n"))
        #expect(t.rewritten == 1)
        #expect(t.code == 0)
        let u = expectRewriterInvisible(doc("<Record xmlns=\"&lt;u\" sourceName=\"&lt;x&gt;\"/>\n"))
        #expect(u.message == "xmlns: '<u' is not a valid URI")
    }

    /// A DEL byte is deleted by the pre-filter and counted like a control character; a value
    /// that looks like a token after that ("\u{7F}1" in the file) is just the text "1".
    @Test func aDELByteIsDeletedAndCounted() {
        var bytes = doc(record("ab#&lt; cd") + record("#1"))
        for i in bytes.indices where bytes[i] == UInt8(ascii: "#") { bytes[i] = 0x7F }
        let t = expectRewriterInvisible(bytes)
        #expect(t.removed == 2)
        #expect(t.values.suffix(2).map { $0["sourceName"] } == ["ab< cd", "1"])
    }

    /// A token must not be longer than the value it replaces (DEL and a digit are 2 characters):
    /// "é" (1 character) stays; "éé" (2) is replaced by the first token, "\u{7F}0".
    @Test func shortValuesAreRewrittenOnlyWhenTheTokenFits() {
        let t = expectRewriterInvisible(doc(record("\u{E9}") + record("\u{E9}\u{E9}") + record("Zo\u{EB}")))
        #expect(t.rewritten == 2)
        #expect(t.values.suffix(3).map { $0["sourceName"] } == ["\u{E9}", "\u{E9}\u{E9}", "Zo\u{EB}"])
    }

    /// Thousands of rewritten values in one chunk (the table grows), fed whole and in pieces.
    @Test func thousandsOfValuesInOneChunk() {
        let body = (0..<5000).map { record("&lt;\($0)&gt; Alex\u{2019}s") }.joined()
        let t = expectRewriterInvisible(doc(body), chunks: [4096, 512 * 1024])
        #expect(t.rewritten == 5000)
        #expect(t.values.last?["sourceName"] == "<4999> Alex\u{2019}s")
    }

    /// A start tag over the 64 KiB cap passes through untouched (libxml2 decodes it); one just
    /// under it is rewritten; both come out the same.
    @Test func longTags() {
        let attributes = (0..<5000).map { "a\($0)=\"&lt;\($0)&gt;\"" }.joined(separator: " ")
        let big = "<Record sourceName=\"&lt;big&gt;\" " + attributes + "/>\n"  // about 100 KB
        // libxml2 decodes "&#127;0" in an untouched tag to DEL + "0", which looks like the
        // token of the first rewritten value: it is a copy outside libxml2's input buffer,
        // so the glue does not take it for one.
        let forged = record("&lt;first&gt;") + "<Record sourceName=\"&#127;0\" " + attributes + "/>\n"
        let f = expectRewriterInvisible(doc(forged), chunks: [4096])
        #expect(f.rewritten == 1)
        #expect(f.values.suffix(2).map { $0["sourceName"] } == ["<first>", "\u{7F}0"])
        #expect(big.utf8.count > 96_000)
        let t = expectRewriterInvisible(doc(big), chunks: [7, 4096, 512 * 1024])
        #expect(t.rewritten == 0)
        #expect(t.values.last?["sourceName"] == "<big>")
        let small =
            "<Record sourceName=\"&lt;small&gt;\" "
            + (0..<2500).map { "a\($0)=\"&lt;\($0)&gt;\"" }.joined(separator: " ")
            + "/>\n"  // about 40 KB
        #expect(small.utf8.count < 64 * 1024)
        let u = expectRewriterInvisible(doc(small), chunks: [7, 4096])
        #expect(u.values.last?["sourceName"] == "<small>")
        #expect(u.rewritten > 1000)
    }

    /// Every way of cutting a document in two: tags split anywhere are still rewritten whole.
    @Test func aTagSplitAtEveryBoundary() {
        let bytes = doc(
            "<Record sourceName='Alex\u{2019}s &lt;&amp;&gt;' device=\"&lt;&lt;HKDevice: 0x1&gt;&gt;\"/><!-- x --><?p y?>\n"
                + "<Record sourceName=\"&#x1F600;\"><![CDATA[<a b=\"&lt;\">]]></Record>\n")
        let whole = glueTrace(bytes, chunk: bytes.count, rewrite: false)
        #expect(whole.code == 0)
        for cut in 1..<bytes.count {
            let t = glueTrace(bytes, splits: [cut], rewrite: true)
            #expect(t == whole, "cut at \(cut)")
            if t != whole { break }
        }
        #expect(glueTrace(bytes, chunk: 1, rewrite: true).rewritten == 3)
    }

    /// The glue_rewrite_differential fuzzer finding: a byte 0xE8 (a 3-byte lead) before an
    /// unfinished start tag, fed a byte at a time. The rewriter holds the unfinished tag back, so
    /// libxml2 had the bad byte with 4 bytes after it (its "Input is not proper UTF-8" words) with
    /// the rewriter on, and with fewer bytes after it ("detected an error in element content")
    /// with it off. Both now give one message naming the byte, at line 3 (the record's line;
    /// column 1, the bad byte's).
    @Test func aByteThatIsNotUTF8GivesOneMessageAtAnyChunking() {
        let head = Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n".utf8)
        let cut =
            head + [0xE8]
            + Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Alex\u{2019}s".utf8)
        let expected =
            "Input is not proper UTF-8: the bytes from 0xE8 on are not a UTF-8 character "
            + "(Apple Health exports are UTF-8, so the file is damaged)"
        for bytes in [cut, cut + Array(" Watch\" unit=\"count\" value=\"5\"/>\n</HealthData>\n".utf8)] {
            for chunk in [1, 2, 3, 7, bytes.count] {
                let on = glueTrace(bytes, chunk: chunk, rewrite: true)
                let off = glueTrace(bytes, chunk: chunk, rewrite: false)
                #expect(on == off, "chunks of \(chunk): on \(on) vs off \(off)")
                #expect(on.code == Int32(HSAX_ERR_XML) && on.line == 3 && on.column == 1, "\(on)")
                #expect(on.message == expected, "chunks of \(chunk)")
                #expect(off.message == expected, "chunks of \(chunk), off")
            }
        }
    }

    /// An encoding other than UTF-8 is declared: the glue makes libxml2 ignore the declaration
    /// (exports are UTF-8; through iconv the outcome depended on chunking, fuzz finding F2), so
    /// the Latin-1 "ë" (one byte, EB) is not UTF-8: the same error with the rewriter on and off,
    /// at line 3, column 23 (`<Record sourceName="Zo` is 22 characters; the bad byte is the 23rd).
    @Test func aDeclaredLatin1EncodingIsReadAsUTF8() {
        let bytes: [UInt8] =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<HealthData>\n<Record sourceName=\"Zo".utf8) + [
                0xEB
            ]
            + Array(" &lt;x&gt;\"/>\n</HealthData>\n".utf8)
        let t = expectRewriterInvisible(bytes)
        #expect(t.rewritten == 0)
        #expect(t.code != 0 && t.line == 3 && t.column == 23, "\(t)")
        #expect(t.message.contains("not proper UTF-8"), "\(t.message)")
        let bom = [0xEF, 0xBB, 0xBF] + doc(record("Zo\u{EB}"))
        #expect(expectRewriterInvisible(bom).rewritten == 1)
    }

    /// The fixtures, the bundled sample and generated exports (default and extended), whole
    /// and in chunks.
    @Test(arguments: ["all-elements.xml", "ios16-malformed-dtd.xml"])
    func fixtures(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(name))))
        let t = expectRewriterInvisible(bytes)
        #expect(t.code == 0)
        #expect(t.rewritten > 0)
    }

    @Test func bundledSample() throws {
        let bytes = try zipEntry(packageRoot.appendingPathComponent("samples/export.zip").path, suffix: "export.xml")
        let t = expectRewriterInvisible(bytes, chunks: [4096, 512 * 1024])
        #expect(t.code == 0)
        #expect(t.rewritten > 1000)
    }

    @Test(arguments: [false, true])
    func generatedExports(extended: Bool) {
        let (bytes, _) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(
                days: 12, prolog: extended ? .version12Malformed : .version14, extendedHealthData: extended))
        let t = expectRewriterInvisible(bytes, chunks: [7, 4096, 512 * 1024])
        #expect(t.code == 0)
        #expect(t.rewritten > 10_000)
    }

    @Test(.enabled(if: corpusAvailable, "../shared/corpus is not beside this clone; corpus part skipped"))
    func corpusFiles() throws {
        let files = [
            "healthkit-to-sqlite/tests/export.xml", "apple-health-parser/tests/data/export.xml",
            "aleksi-applehealth/testdata/testdata.xml",
        ]
        for f in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(f))))
            let t = expectRewriterInvisible(bytes)
            #expect(t.rewritten > 0, "\(f)")
        }
    }

    /// The parallel reader's path (splitter, hsax_parser_feed_filtered, line map) sees the same
    /// events with the rewriter on and off, and the same as the serial path's tags.
    @Test func parallelPath() throws {
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(days: 6, extendedHealthData: true))
        let serial = glueTrace(bytes, rewrite: false)
        for chunk in [7, 4096, 1 << 20] {
            let off = try #require(parallelGlueTrace(bytes, segmentSize: 64 * 1024, chunk: chunk, rewrite: false))
            let on = try #require(parallelGlueTrace(bytes, segmentSize: 64 * 1024, chunk: chunk, rewrite: true))
            #expect(on == off, "chunks of \(chunk)")
            #expect(on.rewritten > 1000)
            #expect(on.values == serial.values)
            // The workers' mode (ParallelWorker): short tokens.
            let short = try #require(
                parallelGlueTrace(bytes, segmentSize: 64 * 1024, chunk: chunk, rewrite: true, shortTokens: true))
            #expect(short == off, "chunks of \(chunk), short tokens")
            #expect(short.rewritten == on.rewritten)
        }
    }
}

/// The bytes of the first entry of the zip at `path` whose name ends in `suffix`.
func zipEntry(_ path: String, suffix: String) throws -> [UInt8] {
    let a = archive_read_new()!
    defer { archive_read_free(a) }
    archive_read_support_format_zip(a)
    try #require(archive_read_open_filename(a, path, 1 << 16) == ARCHIVE_OK)
    var entry: OpaquePointer?
    while archive_read_next_header(a, &entry) == ARCHIVE_OK {
        guard String(cString: archive_entry_pathname(entry)).hasSuffix(suffix) else { continue }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { archive_read_data(a, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
    throw CocoaError(.fileNoSuchFile)
}

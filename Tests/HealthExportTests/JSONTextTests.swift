import HealthExport
import Testing

/// `JSONText.unescape`, the one JSON string decoder of the archive's record blocks and the MCP
/// server: what it undoes, and where it stops on each problem. `i` starts at 1, after the
/// opening quote; the offsets are counted by hand from 0 at that quote.
@Suite("JSON string literals")
struct JSONTextTests {
    static func read(_ bytes: [UInt8]) -> Result<(text: [UInt8], end: Int), JSONText.StringError> {
        var out: [UInt8] = []
        var i = 1
        do {
            try bytes.withUnsafeBufferPointer { (p) throws(JSONText.StringError) in
                try JSONText.unescape(p, at: &i, into: &out)
            }
            return .success((out, i))
        } catch {
            return .failure(error)
        }
    }

    /// Every escape of RFC 8259 §7, and a surrogate pair in either case of hex: `i` ends after
    /// the closing quote (the last byte), and what follows it is not read.
    @Test func theEscapesAreUndone() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\ude00x" tail"#
        let (out, end) = try Self.read(Array(text.utf8)).get()
        #expect(out == Array("a\"b\\c/d\u{8}\u{c}\n\r\té😀x".utf8))
        #expect(end == text.utf8.count - 5)  // " tail" is left
    }

    /// The problems and their offsets: `"ab` ends at 3; `"a\` stops at the backslash (2); the
    /// control byte of `"a\u{1}"` is at 2; `"\u00` has 2 of 4 hex digits after `\u` (from 3);
    /// `"\u00g0"` stops at `g` (5); a byte 0x10 is no hex digit (3; once taken for `0` by
    /// lower-casing with 0x20); `"\ud83d"` has no low surrogate after its escape (7); a high one
    /// followed by `\u0041` stops after that escape (13); a low one alone (7); `\x` at its
    /// letter (3).
    @Test(arguments: [
        (#""ab"#, JSONText.StringError.Problem.notClosed, 3),
        (#""a\"#, .notClosed, 2),
        ("\"a\u{1}\"", .controlCharacter, 2),
        (#""\u00"#, .escapeCutShort, 3),
        (#""\u00g0""#, .escapeNotHex, 5),
        ("\"\\u\u{10}000\"", .escapeNotHex, 3),
        (#""\ud83d""#, .loneSurrogate, 7),
        (#""\ud83d\u0041""#, .loneSurrogate, 13),
        (#""\ude00""#, .loneSurrogate, 7),
        (#""a\x""#, .unknownEscape(UInt8(ascii: "x")), 3),
    ])
    func problemsStopAtTheirByte(text: String, problem: JSONText.StringError.Problem, offset: Int) {
        switch Self.read(Array(text.utf8)) {
        case .success(let read): Issue.record("read \(read) from \(text)")
        case .failure(let error): #expect(error.problem == problem && error.offset == offset, "\(text)")
        }
    }
}

/// JSON text (RFC 8259) for the tool's machine-readable outputs: `report.json`, the MCP server's
/// messages, the benchmark's records.
public enum JSONText {
    /// `s` as a JSON string literal: `"` and `\` escaped, line feed, carriage return and tab as
    /// `\n`, `\r`, `\t`, other control characters as `\u00XX`; everything else (non-ASCII
    /// included) as it is. The result holds no line break.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension JSONText {
    /// Why a JSON string literal could not be read: what was wrong, and the byte where reading
    /// stopped.
    public struct StringError: Error, Equatable, Sendable {
        public enum Problem: Equatable, Sendable {
            /// The text ends inside the string; `offset` is the last byte read (a lone `\` at the
            /// end) or the end.
            case notClosed
            /// A raw control character (below U+0020), at `offset`.
            case controlCharacter
            /// A `\u` with fewer than four bytes after it; `offset` is the first of them.
            case escapeCutShort
            /// A `\u` whose four bytes are not all hex digits; `offset` is the first that is not.
            case escapeNotHex
            /// A high surrogate with no low one after it, or a low one alone; `offset` is the
            /// byte after the last escape read.
            case loneSurrogate
            /// A backslash before a byte that is no escape (`\x`); `offset` is that byte's.
            case unknownEscape(UInt8)
        }

        public var problem: Problem
        public var offset: Int
    }

    /// Reads the rest of a JSON string literal (RFC 8259 §7) from `bytes` at `i`, which stands
    /// inside the string after its opening quote: appends the content's bytes to `out` with the
    /// escapes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` with surrogate pairs)
    /// undone, and leaves `i` after the closing quote. The bytes are not checked to be UTF-8.
    /// - Throws: `StringError` for a raw control character, another escape, a lone surrogate or a
    ///   string that is not closed.
    public static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int, into out: inout [UInt8])
        throws(StringError)
    {
        let n = bytes.count
        while true {
            guard i < n else { throw StringError(problem: .notClosed, offset: i) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return
            }
            guard b >= 0x20 else { throw StringError(problem: .controlCharacter, offset: i) }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < n else { throw StringError(problem: .notClosed, offset: i) }
            i += 2
            switch bytes[i - 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(bytes[i - 1])
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(bytes, at: &i)
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < n, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw StringError(problem: .loneSurrogate, offset: i)
                    }
                    i += 2
                    let low = try hex4(bytes, at: &i)
                    guard low >= 0xDC00 && low < 0xE000 else { throw StringError(problem: .loneSurrogate, offset: i) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw StringError(problem: .loneSurrogate, offset: i) }
                UTF8.encode(u) { out.append($0) }
            default:
                throw StringError(problem: .unknownEscape(bytes[i - 1]), offset: i - 1)
            }
        }
    }

    /// The four hex digits at `i` (either case), read.
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) throws(StringError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw StringError(problem: .escapeCutShort, offset: i) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw StringError(problem: .escapeNotHex, offset: i)
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}

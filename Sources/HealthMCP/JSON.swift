import HealthExport

// JSON values as the server reads and writes them (RFC 8259): a parser with a nesting limit, so
// that no input can exhaust the stack, and a writer that keeps an object's keys in the order
// they were given and writes numbers as given (a report cell's CSV text is its JSON number).

/// A JSON value. Objects keep their keys in order; numbers keep their text.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as its JSON text (`12.5`, `-3`, `1e-05`).
    case number(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// A whole number.
    public static func int(_ n: Int) -> JSON { .number(String(n)) }

    /// A finite number in its shortest round-trip form; nil, NaN and infinities are `null`.
    public static func double(_ d: Double?) -> JSON {
        guard let d, d.isFinite else { return .null }
        if d == d.rounded(), abs(d) < 1e15 { return .number(String(Int64(d))) }
        return .number(String(d))
    }

    /// The value of `key` in an object (nil for another kind of value or a missing key).
    public subscript(key: String) -> JSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as a Double, for a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The text of this value on one line (no line breaks: a string's are escaped).
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSON.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A string as `JSONText` quotes it (so no line break is ever written inside a message).
    static func writeString(_ s: String, to out: inout String) { out += JSONText.quoted(s) }
}

/// Why a text is not JSON: the byte offset and what was expected there.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var problem: String
    public var description: String { "\(problem) at byte \(offset)" }
}

extension JSON {
    /// The deepest nesting of arrays and objects `parse` accepts.
    public static let maximumDepth = 64

    /// Parses one JSON value from UTF-8 `bytes` (spaces around it allowed, nothing else).
    /// - Throws: `JSONParseError` for anything else, nesting deeper than `maximumDepth`, or text
    ///   that is not UTF-8.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: Array(bytes))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.fail("text after the JSON value") }
        return value
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var i = 0

    func fail(_ problem: String) -> JSONParseError { JSONParseError(offset: i, problem: problem) }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func literal(_ word: String, _ value: JSON) throws(JSONParseError) -> JSON {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw fail("not JSON") }
        i += w.count
        return value
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSON {
        guard i < bytes.count else { throw fail("the text ends where a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            guard depth < JSON.maximumDepth else { throw fail("nesting deeper than \(JSON.maximumDepth)") }
            i += 1
            var pairs: [(String, JSON)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(pairs)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipSpace()
                pairs.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an object") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
                i += 1
                return .object(pairs)
            }
        case UInt8(ascii: "["):
            guard depth < JSON.maximumDepth else { throw fail("nesting deeper than \(JSON.maximumDepth)") }
            i += 1
            var items: [JSON] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    mutating func number() throws(JSONParseError) -> JSON {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("not JSON") }
        if bytes[i] == 0x30 { i += 1 } else { _ = digits() }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw fail("a number needs digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw fail("a number needs digits in its exponent") }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("a \\u escape needs 4 hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("a \\u escape needs 4 hex digits")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1  // the opening quote
        var raw: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the text ends inside a string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            }
            guard c >= 0x20 else { throw fail("a control character inside a string") }
            if c != UInt8(ascii: "\\") {
                raw.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw fail("the text ends inside a string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): raw.append(0x22)
            case UInt8(ascii: "\\"): raw.append(0x5C)
            case UInt8(ascii: "/"): raw.append(0x2F)
            case UInt8(ascii: "b"): raw.append(0x08)
            case UInt8(ascii: "f"): raw.append(0x0C)
            case UInt8(ascii: "n"): raw.append(0x0A)
            case UInt8(ascii: "r"): raw.append(0x0D)
            case UInt8(ascii: "t"): raw.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800, scalar < 0xDC00 {
                    // A high surrogate: a low one must follow.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate in a \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00, low < 0xE000 else { throw fail("a lone surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00, scalar < 0xE000 {
                    throw fail("a lone surrogate in a \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("not a Unicode scalar") }
                raw.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail("an unknown escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        guard let s = String(validating: raw, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
        return s
    }
}

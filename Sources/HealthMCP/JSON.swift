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

    mutating func string() throws(JSONParseError) -> String {
        i += 1  // the opening quote
        var raw: [UInt8] = []
        var j = i
        do {
            try bytes.withUnsafeBufferPointer { (b) throws(JSONText.StringError) in
                try JSONText.unescape(b, at: &j, into: &raw)
            }
        } catch {
            // Where this parser has always said it stopped: at the end for a string not closed,
            // after the letter of an unknown escape.
            switch error.problem {
            case .notClosed: i = bytes.count
            case .unknownEscape: i = error.offset + 1
            default: i = error.offset
            }
            throw fail(Self.message(error.problem))
        }
        i = j
        guard let s = String(validating: raw, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
        return s
    }

    /// What `JSONParseError` says of a string that `JSONText.unescape` could not read.
    static func message(_ problem: JSONText.StringError.Problem) -> String {
        switch problem {
        case .notClosed: return "the text ends inside a string"
        case .controlCharacter: return "a control character inside a string"
        case .escapeCutShort, .escapeNotHex: return "a \\u escape needs 4 hex digits"
        case .loneSurrogate: return "a lone surrogate in a \\u escape"
        case .unknownEscape(let e): return "an unknown escape '\\\(Character(Unicode.Scalar(e)))'"
        }
    }
}

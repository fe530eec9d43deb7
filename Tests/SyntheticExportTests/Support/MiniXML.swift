import Foundation
import SyntheticExport

/// A deliberately small, independent reader for the generator's output: elements with their
/// attributes (entities decoded) and depth, checking that tags balance. Test-only; it knows
/// nothing of the generator's internals.
struct MiniXML {
    struct Element {
        var name: String
        var attributes: [String: String]
        var depth: Int  // 0 = HealthData
        var parent: String?
        subscript(_ key: String) -> String? { attributes[key] }
    }

    enum Failure: Error, CustomStringConvertible {
        case unbalanced(expected: String?, found: String, at: Int)
        case malformed(String, at: Int)
        var description: String {
            switch self {
            case .unbalanced(let e, let f, let at):
                return "closing </\(f)> at byte \(at), expected </\(e ?? "nothing")>"
            case .malformed(let m, let at): return "\(m) at byte \(at)"
            }
        }
    }

    /// Parses from `<HealthData` to the end; everything before (declaration, DOCTYPE) is skipped.
    static func parse(_ bytes: [UInt8]) throws -> [Element] {
        guard let rootStart = find(Array("<HealthData ".utf8), in: bytes) else {
            throw Failure.malformed("no <HealthData", at: 0)
        }
        var out: [Element] = []
        var stack: [String] = []
        var i = rootStart
        let n = bytes.count
        while i < n {
            guard bytes[i] == UInt8(ascii: "<") else {
                guard bytes[i] == 0x20 || bytes[i] == 0x0A else { throw Failure.malformed("text content", at: i) }
                i += 1
                continue
            }
            if bytes[i + 1] == UInt8(ascii: "/") {
                var j = i + 2
                while bytes[j] != UInt8(ascii: ">") { j += 1 }
                let name = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                guard stack.last == name else { throw Failure.unbalanced(expected: stack.last, found: name, at: i) }
                stack.removeLast()
                i = j + 1
                continue
            }
            var j = i + 1
            while bytes[j] != 0x20 && bytes[j] != UInt8(ascii: ">") && bytes[j] != UInt8(ascii: "/") { j += 1 }
            let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
            var attributes: [String: String] = [:]
            while true {
                while bytes[j] == 0x20 { j += 1 }
                if bytes[j] == UInt8(ascii: "/") {
                    guard bytes[j + 1] == UInt8(ascii: ">") else { throw Failure.malformed("bad empty tag", at: j) }
                    out.append(Element(name: name, attributes: attributes, depth: stack.count, parent: stack.last))
                    i = j + 2
                    break
                }
                if bytes[j] == UInt8(ascii: ">") {
                    out.append(Element(name: name, attributes: attributes, depth: stack.count, parent: stack.last))
                    stack.append(name)
                    i = j + 1
                    break
                }
                var k = j
                while bytes[k] != UInt8(ascii: "=") { k += 1 }
                let key = String(decoding: bytes[j..<k], as: UTF8.self)
                guard bytes[k + 1] == UInt8(ascii: "\"") else { throw Failure.malformed("unquoted attribute", at: k) }
                var e = k + 2
                while bytes[e] != UInt8(ascii: "\"") {
                    if bytes[e] == UInt8(ascii: "<") { throw Failure.malformed("< in attribute", at: e) }
                    e += 1
                }
                guard attributes[key] == nil else { throw Failure.malformed("duplicate attribute \(key)", at: j) }
                attributes[key] = decode(String(decoding: bytes[(k + 2)..<e], as: UTF8.self))
                j = e + 1
                guard bytes[j] == 0x20 || bytes[j] == UInt8(ascii: "/") || bytes[j] == UInt8(ascii: ">") else {
                    throw Failure.malformed("no space after attribute", at: j)
                }
            }
        }
        guard stack.isEmpty else { throw Failure.unbalanced(expected: stack.last, found: "end of file", at: n) }
        return out
    }

    static func decode(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        outer: for i in 0...(hay.count - needle.count) {
            for j in 0..<needle.count where hay[i + j] != needle[j] { continue outer }
            return i
        }
        return nil
    }
}

/// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` with Foundation (independent of the generator's
/// hand formatting). Returns the instant and the printed offset in seconds.
func parseExportTimestamp(_ s: String) -> (seconds: Int64, offset: Int)? {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    guard s.utf8.count == 25, let d = f.date(from: s) else { return nil }
    let sign = s.utf8[s.utf8.index(s.utf8.startIndex, offsetBy: 20)] == UInt8(ascii: "-") ? -1 : 1
    let hh = Int(s.dropFirst(21).prefix(2))!
    let mm = Int(s.dropFirst(23).prefix(2))!
    return (Int64(d.timeIntervalSince1970), sign * (hh * 3600 + mm * 60))
}

/// A cache of parsed timestamps: DateFormatter is slow, and the same strings repeat.
final class TimestampParser {
    private let formatter: DateFormatter
    init() {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        formatter.timeZone = TimeZone(identifier: "UTC")
    }
    func seconds(_ s: String) -> Int64 { Int64(formatter.date(from: s)!.timeIntervalSince1970) }
}

/// Small exports shared by the tests (generated once per process).
enum Fixtures {
    /// Four days around the Europe/Berlin spring change (2026-03-29 has 23 hours), exported
    /// at the default moment (2026-03-31 12:00 local, +0200).
    static let springConfiguration = SyntheticExportConfiguration(firstDay: "2026-03-27", days: 4, seed: 42)
    static let spring: (bytes: [UInt8], truth: SyntheticTruth) = SyntheticExport.makeExport(springConfiguration)
    static let springElements: [MiniXML.Element] = try! MiniXML.parse(spring.bytes)
}

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

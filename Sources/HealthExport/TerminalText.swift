/// Text from an input (a zip entry's name, a source name, a path) made safe to print on a
/// terminal: every control character but the line feed and the tab (C0, DEL and the C1 range
/// U+0080–U+009F) is written as `\xHH` or `\u{HHHH}`, so that a name holding an escape sequence
/// cannot set the terminal's title, clear the screen or move the cursor
/// (docs/architecture.md, "Messages and names from an input"). Everything the CLI prints passes through it.
public func escapingControlCharacters(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscaped) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        if isEscaped(scalar) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{" + hex + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

@inline(__always)
private func isEscaped(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
}

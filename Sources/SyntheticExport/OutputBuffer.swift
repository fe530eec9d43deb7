/// A reusable byte buffer with hand-written formatting of the few shapes an export needs
/// (integers, fixed-point decimals, timestamps, hex addresses). No `String` is built per
/// record and no formatter is involved; the owner hands the bytes to the sink in chunks of
/// about `flushThreshold` and resets `count`.
///
/// Not thread-safe; owned by one generation run.
struct OutputBuffer {
    static let flushThreshold = 1 << 20

    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    /// The offset (seconds east) printed on every timestamp, and its ` +hhmm` bytes.
    let printedOffset: Int64
    private let offsetSuffix: [UInt8]
    private var cachedDay: Int64 = .min
    private var cachedDate: (UInt64, UInt16) = (0, 0)  // "YYYY-MM-DD" as 10 raw bytes

    init(printedOffset: Int64) {
        capacity = Self.flushThreshold + (256 << 10)
        base = .allocate(capacity: capacity)
        self.printedOffset = printedOffset
        let a = abs(printedOffset)
        let h = Int(a / 3600)
        let m = Int(a / 60 % 60)
        offsetSuffix = Array(" \(printedOffset < 0 ? "-" : "+")\(Civil.pad(h, 2))\(Civil.pad(m, 2))".utf8)
    }

    func deallocate() { base.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        p.update(from: base, count: count)
        base.deallocate()
        base = p
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: s.utf8Start, count: n)
        count += n
    }

    @inline(__always)
    mutating func append(_ a: [UInt8]) {
        a.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    mutating func append(_ p: UnsafeBufferPointer<UInt8>) {
        guard let start = p.baseAddress else { return }
        reserve(p.count)
        (base + count).update(from: start, count: p.count)
        count += p.count
    }

    /// Appends `s` with `&`, `<`, `>` and `"` escaped for an attribute value.
    mutating func appendEscaped(_ s: String) { append(xmlEscaped(s)) }

    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// A non-negative or negative integer in decimal.
    @inline(__always)
    mutating func append(int v: Int64) {
        reserve(21)
        var x = v
        if x < 0 {
            base[count] = 0x2D
            count += 1
            x = -x
        }
        if x < 10 {
            base[count] = 0x30 &+ UInt8(x)
            count += 1
            return
        }
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { t in
            while x > 0 {
                t[23 - n] = 0x30 &+ UInt8(x % 10)
                x /= 10
                n += 1
            }
            (base + count).update(
                from: t.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - n), count: n)
        }
        count += n
    }

    /// `units / 10^decimals` with trailing fractional zeros trimmed (`0.12`, `74`, `0.08123`).
    @inline(__always)
    mutating func append(units: Int64, decimals: Int) {
        if decimals == 0 {
            append(int: units)
            return
        }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        var u = units
        if u < 0 {
            append(byte: 0x2D)
            u = -u
        }
        append(int: u / scale)
        var frac = u % scale
        if frac == 0 { return }
        var digits = decimals
        while frac % 10 == 0 {
            frac /= 10
            digits -= 1
        }
        reserve(digits + 1)
        base[count] = 0x2E
        var i = digits
        while i > 0 {
            base[count + i] = 0x30 &+ UInt8(frac % 10)
            frac /= 10
            i -= 1
        }
        count += digits + 1
    }

    /// `yyyy-MM-dd HH:mm:ss ±hhmm` of `utc`, printed in the export offset.
    @inline(__always)
    mutating func append(timestamp utc: Int64) {
        let local = utc + printedOffset
        let day = floorDiv(local, 86_400)
        let sod = Int(local - day * 86_400)
        if day != cachedDay { cacheDate(day) }
        reserve(19 + offsetSuffix.count)
        let p = base + count
        withUnsafeBytes(of: cachedDate.0) {
            p.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 8)
        }
        withUnsafeBytes(of: cachedDate.1) {
            (p + 8).update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 2)
        }
        p[10] = 0x20
        put2(p + 11, sod / 3600)
        p[13] = 0x3A
        put2(p + 14, sod / 60 % 60)
        p[16] = 0x3A
        put2(p + 17, sod % 60)
        count += 19
        append(offsetSuffix)
    }

    private mutating func cacheDate(_ day: Int64) {
        cachedDay = day
        let b = Array(Civil.format(days: Int(day)).utf8)
        var a: (UInt64, UInt16) = (0, 0)
        withUnsafeMutableBytes(of: &a.0) { for i in 0..<8 { $0[i] = b[i] } }
        withUnsafeMutableBytes(of: &a.1) { for i in 0..<2 { $0[i] = b[8 + i] } }
        cachedDate = a
    }

    @inline(__always)
    private func put2(_ p: UnsafeMutablePointer<UInt8>, _ v: Int) {
        p[0] = 0x30 &+ UInt8(v / 10)
        p[1] = 0x30 &+ UInt8(v % 10)
    }

    /// Lower-case hex digits of `v`, exactly `width` of them.
    @inline(__always)
    mutating func append(hex v: UInt64, width: Int) {
        reserve(width)
        var x = v
        var i = width - 1
        while i >= 0 {
            let d = UInt8(x & 0xF)
            base[count + i] = d < 10 ? 0x30 &+ d : 0x57 &+ d
            x >>= 4
            i -= 1
        }
        count += width
    }
}

/// `s` as UTF-8 with `&`, `<`, `>`, `"` replaced by entities.
func xmlEscaped(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    for b in s.utf8 {
        switch b {
        case 0x26: out += Array("&amp;".utf8)
        case 0x3C: out += Array("&lt;".utf8)
        case 0x3E: out += Array("&gt;".utf8)
        case 0x22: out += Array("&quot;".utf8)
        default: out.append(b)
        }
    }
    return out
}

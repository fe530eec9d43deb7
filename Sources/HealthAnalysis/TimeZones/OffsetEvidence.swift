import HealthExport

/// UTC offsets seen in the export independently of the printed one: the beat times of Apple
/// Watch HRV records are written in the true local time of the recording (docs/export-format.md §7.4), so
/// the first beat's time of day minus the record's UTC time of day is the offset in force then
/// (rounded to 15 minutes: the beat lies within a minute or two of the start).
///
/// Kept per UTC hour and offset (a count and the first instant); mergeable like
/// `TimeZoneEvidence`. With no `HKTimeZone` in the export, it tells apart zones that
/// `ActivitySummary` agreement cannot (days whose records lie far from midnight).
struct OffsetEvidence: Sendable {
    struct Entry: Sendable, Equatable {
        var count: Int
        var first: Int64
    }

    /// Key: UTC hour × 256 + (offset / 900 + 128).
    private(set) var entries: [Int64: Entry] = [:]

    init() {}

    var isEmpty: Bool { entries.isEmpty }

    /// Notes an HRV record starting at `start` whose first beat is at local time `beatTime`
    /// (`6:14:48.94 PM`, `17:07:00,29`). Times that do not parse are ignored.
    mutating func add(recordStart start: Int64, beatTime: String) {
        guard let local = Self.secondsOfDay(beatTime) else { return }
        let utc = floorMod(start, 86_400)
        let d = floorMod(Int64(local) - utc, 86_400)  // 0 ..< 24 h
        let quarters = Int64((Double(d) / 900).rounded())
        add(offset: quarters * 900, at: start)
    }

    /// True when a zone whose offset is `zoneOffset` explains a seen `offset`: equal modulo a
    /// day. A time of day cannot tell −10:00 from +14:00 or −11:00 from +13:00 (the same clock
    /// reading), so a seen offset stands for both, and every offset from −12:00 to +14:00 reads
    /// as itself (docs/days-and-time-zones.md §4).
    static func explains(_ zoneOffset: Int64, _ offset: Int64) -> Bool {
        floorMod(zoneOffset - offset, 86_400) == 0
    }

    /// Notes that offset `offset` (seconds east) was in force at instant `t`. Offsets are kept
    /// modulo a day (0 ..< 24 h): compare them with `explains`.
    mutating func add(offset: Int64, at t: Int64, count: Int = 1) {
        let key = floorDiv(t, 3600) * 256 + floorMod(offset / 900, 96) + 128
        if var e = entries[key] {
            e.count += count
            e.first = min(e.first, t)
            entries[key] = e
        } else {
            entries[key] = Entry(count: count, first: t)
        }
    }

    mutating func merge(_ other: OffsetEvidence) {
        for (key, e) in other.entries {
            let offset = (key - floorDiv(key, 256) * 256 - 128) * 900
            add(offset: offset, at: e.first, count: e.count)
        }
    }

    /// How many observations `calendar` explains (its offset at the instant equals the seen one),
    /// of those in `range` when it is given.
    func matches(_ calendar: LocalCalendar, in range: ClosedRange<Int64>? = nil) -> Int {
        var n = 0
        for (key, e) in entries {
            if let range, !range.contains(e.first) { continue }
            let offset = (key - floorDiv(key, 256) * 256 - 128) * 900
            if Self.explains(calendar.offset(at: e.first), offset) { n += e.count }
        }
        return n
    }

    /// How many observations lie in `range`.
    func count(in range: ClosedRange<Int64>) -> Int {
        entries.values.reduce(0) { range.contains($1.first) ? $0 + $1.count : $0 }
    }

    var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Every observation: the first instant of its UTC hour, the offset seen (seconds east,
    /// modulo a day: 0 ..< 24 h, compared with `explains`) and
    /// how many HRV records saw it then, ordered by instant, then offset.
    var observations: [(instant: Int64, offset: Int64, count: Int)] {
        entries.map { key, e in (e.first, (key - floorDiv(key, 256) * 256 - 128) * 900, e.count) }
            .sorted { $0.instant != $1.instant ? $0.instant < $1.instant : $0.offset < $1.offset }
    }

    /// Seconds since local midnight of a locale-formatted time of day: `h:mm:ss` with optional
    /// fraction (`.` or `,`) and optional `AM`/`PM` (after a space, U+202F or nothing).
    static func secondsOfDay(_ text: String) -> Int? {
        var fields: [Int] = []
        var current: Int?
        var fraction = false
        var pm: Bool?
        var letters = ""
        for u in text.unicodeScalars {
            if let d = u.properties.numericType != nil ? Int(String(u)) : nil, u.isASCII {
                if !fraction { current = (current ?? 0) * 10 + d }
            } else if u == ":" {
                guard let c = current else { return nil }
                fields.append(c)
                current = nil
            } else if u == "." || u == "," {
                if let c = current, !fraction { fields.append(c) }
                current = nil
                fraction = true
            } else if u.properties.isAlphabetic {
                letters.append(Character(u))
            }
        }
        if let c = current, !fraction { fields.append(c) }
        let l = letters.lowercased()
        if l.hasPrefix("p") { pm = true } else if l.hasPrefix("a") { pm = false }
        guard fields.count == 3, var h = fields.first, fields[1] < 60, fields[2] < 60 else { return nil }
        if let pm {
            guard h >= 1 && h <= 12 else { return nil }
            if pm && h < 12 { h += 12 }
            if !pm && h == 12 { h = 0 }
        }
        guard h < 24 else { return nil }
        return h * 3600 + fields[1] * 60 + fields[2]
    }
}

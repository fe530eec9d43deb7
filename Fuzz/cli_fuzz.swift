// A mutation fuzzer for the whole CLI, built and run by scripts/fuzz; not part
// of the package. Each case mutates one seed export and hands it over in one of three shapes
// (chosen by the case number):
//   - XML: case.xml, the mutated export alone;
//   - zip: case.zip, written here (stored entries): the export, sometimes GPX route files and
//     decoys (an AppleDouble `._` file, export_cda.xml, a folder entry, an entry too deep), with
//     or without zip64 fields (0xFFFFFFFF in the headers, the sizes and offsets in zip64 extra
//     fields, a zip64 end record and locator) or data descriptors; then its structure is
//     mutated: a field of a local header, of the central directory, of a zip64 record or of the
//     end record, an entry's name, or a few bytes anywhere;
//   - GPX: the export plus a workout that names a route file, and that route file, mutated from
//     a GPX seed, in an unzipped folder (apple_health_export/workout-routes/) or in a zip.
//   - extreme values (a third of the XML cases): every `value`, `duration`, `totalDistance` and
//     `totalEnergyBurned` that is a number set to an extreme but finite one (1e16, ±1.8e308,
//     5e-324, 2^62, …), as case.xml or, half of them, in a folder beside a FIFO `a.xml`, a
//     dangling link, a link to /dev/zero and a link to the FIFO (the folder search must pass
//     over them without blocking).
//   - messages (a fifth of the other XML cases): three records with source names of 1.5 to 3 MB
//     (the outputs must stay under 2 MB: names are kept to 1,024 bytes), a comment of just over
//     10 MB (a refusal, exit 1), or the export saved as UTF-16 (alone or in a zip; exit 1).
//   - special --db paths (every import case): `inspect --db` and `import --db` on a FIFO, on
//     /dev/zero and on a dangling link end with exit 1 within the timeout and create nothing.
// Then `inspect` and `report --out` run on it, each under a timeout; on every 3rd case also
// `import --db` into a new archive and `report --db` from it. Every run that succeeds (report,
// import + report --db) is repeated with `--threads 2` next to `--threads 1`, and the two sets
// of files must be byte-identical. It checks:
//   - no signal, no exit code other than 0, 1 and 64, no run past the timeout;
//   - after `report` exits 0, --out holds exactly the report's files, each complete (CSV rows
//     with the header's field count, CRLF at the end), with no NaN, inf or negative total;
//   - after `report` exits non-zero, --out holds exactly the earlier set, byte for byte;
//   - no staging folder is left beside --out;
//   - import and report --db: no signal, exit 0, 1 or 64 only, no run past the timeout, a
//     complete set after report --db exits 0;
//   - --threads 1 and --threads 2 give byte-identical files whenever both succeed;
//   - damaged archives: a copy of each imported archive with one numeric column of a random table
//     (or one field of a record in a block) set to 1e308, -1e308, 2^62, 999999999999999999, -1 or
//     1e16: `inspect --db` and `report --db` end with exit 0 or 1, and a refusal leaves the
//     archive byte-identical.
// A failing case is copied to the artifacts folder (case.xml, case.zip, or the folder as a
// directory) with a line saying what failed.
//
//   cli_fuzz --binary B --seeds DIR --work DIR --artifacts DIR [--gpx-seeds DIR] [--seconds S]
//            [--cases N] [--timeout S] [--first K]
//            (case numbers K ..< K + N: each number always mutates the same way)
import Foundation

struct Options {
    var binary = ""
    var seeds = ""
    var work = ""
    var artifacts = ""
    var seconds = 60.0
    var cases = Int.max
    var timeout = 20.0
    var first = 0
    var gpxSeeds = ""
}

var options = Options()
var arguments = Array(CommandLine.arguments.dropFirst())
while arguments.count >= 2 {
    let (name, value) = (arguments.removeFirst(), arguments.removeFirst())
    switch name {
    case "--binary": options.binary = value
    case "--seeds": options.seeds = value
    case "--work": options.work = value
    case "--artifacts": options.artifacts = value
    case "--seconds": options.seconds = Double(value)!
    case "--cases": options.cases = Int(value)!
    case "--timeout": options.timeout = Double(value)!
    case "--first": options.first = Int(value)!
    case "--gpx-seeds": options.gpxSeeds = value
    default: fatalError("unknown option \(name)")
    }
}

/// SplitMix64: reproducible cases (case `i` always mutates the same way).
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}

let tokens: [String] = [
    "value=\"1e39\"", "value=\"-1\"", "value=\"NaN\"", "value=\"inf\"", "value=\"1e308\"", "value=\"3.4e38\"",
    "value=\"0x10\"", "startDate=\"9999-12-31 23:59:59 +0000\"", "endDate=\"0000-01-01 00:00:00 -1400\"",
    "startDate=\"1899-12-31 10:00:00 +0000\"", "endDate=\"2106-02-08 00:00:00 +0000\"",
    "<ActivitySummary dateComponents=\"9999-12-31\" appleStandHours=\"1e39\"/>",
    "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"S\" unit=\"count\" value=\"5\" startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 10:05:00 +0000\"/>",
    "<Record type=\"HKCategoryTypeIdentifierAppleStandHour\" sourceName=\"W\" value=\"HKCategoryValueAppleStandHourStood\" startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 11:00:00 +0000\"/>",
    "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"1e38\" durationUnit=\"min\" startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 09:00:00 +0000\"/>",
    "<MetadataEntry key=\"HKTimeZone\" value=\"Mars/Olympus\"/>",
    "<MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>",
    "unit=\"furlong\"", "unit=\"mi\"", "unit=\"kJ\"", "sourceName=\"\"", "<!--", "-->", "<!DOCTYPE HealthData [", "]>",
    "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "&amp;", "&#0;", "&#x1F;", "\u{0}", "\u{1}", "\u{FEFF}", "<", ">",
    "\"", "</HealthData>", "<HealthData locale=\"en_US\">", "<ExportDate value=\"1970-01-01 00:00:00 +0000\"/>",
]

/// Extreme but finite numbers: past 2^53 (where v - 1 == v), the largest and smallest doubles,
/// past the 32-bit float, a subnormal.
let extremeValues = [
    "1e16", "9007199254740993", "1.7976931348623157e308", "-1.7976931348623157e308", "1e308", "-1e308", "3.4e38",
    "5e-324", "-5e-324", "1e-300", "4611686018427387904", "999999999999999999",
]

/// `xml` with every `value="…"`, `duration="…"`, `totalDistance="…"` and `totalEnergyBurned="…"`
/// replaced by an extreme value (each chosen on its own): every quantity at once.
func withExtremeValues(_ xml: [UInt8], _ r: inout Random) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(xml.count)
    let keys = ["value=\"", "duration=\"", "totalDistance=\"", "totalEnergyBurned=\""].map { Array($0.utf8) }
    var i = 0
    outer: while i < xml.count {
        for key in keys where i + key.count <= xml.count && xml[i..<(i + key.count)].elementsEqual(key)
            && (i == 0 || xml[i - 1] == 0x20)
        {
            // Leave category values alone (they are names, not numbers).
            var j = i + key.count
            while j < xml.count && xml[j] != 0x22 { j += 1 }
            let old = xml[(i + key.count)..<j]
            out += key
            if let first = old.first, first == 0x2D || (first >= 0x30 && first <= 0x39) {
                out += Array(extremeValues[r.below(extremeValues.count)].utf8)
            } else {
                out += old
            }
            i = j
            continue outer
        }
        out.append(xml[i])
        i += 1
    }
    return out
}

func mutate(_ input: [UInt8], _ r: inout Random) -> [UInt8] {
    var b = input
    for _ in 0..<(1 + r.below(3)) {
        var at = r.below(b.count + 1)
        let operation = r.below(10)
        // Most edits go to the start of a line (a whole element), so that many cases stay
        // well-formed enough to reach the analysis and the writer.
        if operation >= 4, r.below(4) != 0, let nl = b[min(at, b.count)...].firstIndex(of: 0x0A) { at = nl + 1 }
        switch operation {
        case 0 where !b.isEmpty: b[min(at, b.count - 1)] = UInt8(truncatingIfNeeded: r.next())
        case 1: b.insert(UInt8(truncatingIfNeeded: r.next()), at: at)
        case 2 where !b.isEmpty:
            let n = min(b.count - min(at, b.count - 1), 1 + r.below(200))
            b.removeSubrange(min(at, b.count - 1)..<(min(at, b.count - 1) + n))
        case 3 where !b.isEmpty:
            let from = r.below(b.count)
            let n = min(b.count - from, 1 + r.below(400))
            b.insert(contentsOf: b[from..<(from + n)], at: at)
        case 4, 5, 7, 8: b.insert(contentsOf: Array(tokens[r.below(tokens.count)].utf8), at: at)
        case 6:
            // Replace the next digit run with an extreme number.
            if let i = b[min(at, b.count)...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                var j = i
                while j < b.count, b[j] >= 0x30 && b[j] <= 0x39 { j += 1 }
                let extreme = ["0", "99999999999999999999", "1e39", "65536", "4294967296", "-5"][r.below(6)]
                b.replaceSubrange(i..<j, with: Array(extreme.utf8))
            }
        default:
            if r.below(8) == 0 { b.removeSubrange(min(at, b.count)...) }  // truncate
        }
    }
    return b
}

// MARK: Zip and GPX cases

/// CRC-32 as zip uses it (table-driven).
let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
    return c
}
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return ~c
}

/// Where the fields of a zip written by `makeZip` are, for the structural mutations.
struct ZipLayout {
    /// Offsets of each entry's local header and central-directory header.
    var local: [Int] = []
    var central: [Int] = []
    /// Offsets of each entry's zip64 extra field in the local and in the central header (nil without zip64).
    var localZip64: [Int?] = []
    var centralZip64: [Int?] = []
    var zip64End: Int?
    var zip64Locator: Int?
    var end = 0
}

/// A zip of stored entries (directories end with "/"), with zip64 fields for every entry when
/// `zip64`, data descriptors (flag bit 3, sizes after the data) when `descriptors`.
func makeZip(_ entries: [(name: String, bytes: [UInt8])], zip64: Bool, descriptors: Bool) -> ([UInt8], ZipLayout) {
    var out: [UInt8] = []
    var layout = ZipLayout()
    func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    func u32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8((v >> UInt32(8 * i)) & 0xFF)) } }
    func u64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8((v >> UInt64(8 * i)) & 0xFF)) } }
    var crcs: [UInt32] = []
    for (name, bytes) in entries {
        let crc = crc32(bytes)
        crcs.append(crc)
        layout.local.append(out.count)
        let name = Array(name.utf8)
        u32(0x0403_4B50)
        u16(zip64 ? 45 : 20)
        u16(descriptors ? 0x0808 : 0x0800)  // UTF-8 names; bit 3: sizes in a data descriptor
        u16(0)  // stored
        u16(0x6000)
        u16(0x5B8F)  // 2025-12-15 12:00
        u32(descriptors ? 0 : crc)
        u32(descriptors ? 0 : (zip64 ? 0xFFFF_FFFF : UInt32(bytes.count)))
        u32(descriptors ? 0 : (zip64 ? 0xFFFF_FFFF : UInt32(bytes.count)))
        u16(name.count)
        u16(zip64 ? 20 : 0)
        out += name
        if zip64 {
            layout.localZip64.append(out.count)
            u16(1)
            u16(16)
            u64(UInt64(bytes.count))
            u64(UInt64(bytes.count))
        } else {
            layout.localZip64.append(nil)
        }
        out += bytes
        if descriptors {
            u32(0x0807_4B50)
            u32(crc)
            if zip64 {
                u64(UInt64(bytes.count))
                u64(UInt64(bytes.count))
            } else {
                u32(UInt32(bytes.count))
                u32(UInt32(bytes.count))
            }
        }
    }
    let centralStart = out.count
    for (k, (name, bytes)) in entries.enumerated() {
        layout.central.append(out.count)
        let name = Array(name.utf8)
        u32(0x0201_4B50)
        u16(zip64 ? (3 << 8 | 45) : (3 << 8 | 20))
        u16(zip64 ? 45 : 20)
        u16(descriptors ? 0x0808 : 0x0800)
        u16(0)
        u16(0x6000)
        u16(0x5B8F)
        u32(crcs[k])
        u32(zip64 ? 0xFFFF_FFFF : UInt32(bytes.count))
        u32(zip64 ? 0xFFFF_FFFF : UInt32(bytes.count))
        u16(name.count)
        u16(zip64 ? 28 : 0)
        u16(0)
        u16(0)
        u16(0)
        u32((name.last == 0x2F ? 0o040755 : 0o100644) << 16)
        u32(zip64 ? 0xFFFF_FFFF : UInt32(layout.local[k]))
        out += name
        if zip64 {
            layout.centralZip64.append(out.count)
            u16(1)
            u16(24)
            u64(UInt64(bytes.count))
            u64(UInt64(bytes.count))
            u64(UInt64(layout.local[k]))
        } else {
            layout.centralZip64.append(nil)
        }
    }
    let centralSize = out.count - centralStart
    if zip64 {
        layout.zip64End = out.count
        u32(0x0606_4B50)
        u64(44)
        u16(3 << 8 | 45)
        u16(45)
        u32(0)
        u32(0)
        u64(UInt64(entries.count))
        u64(UInt64(entries.count))
        u64(UInt64(centralSize))
        u64(UInt64(centralStart))
        layout.zip64Locator = out.count
        u32(0x0706_4B50)
        u32(0)
        u64(UInt64(layout.zip64End!))
        u32(1)
    }
    layout.end = out.count
    u32(0x0605_4B50)
    u16(0)
    u16(0)
    u16(zip64 ? 0xFFFF : entries.count)
    u16(zip64 ? 0xFFFF : entries.count)
    u32(zip64 ? 0xFFFF_FFFF : UInt32(centralSize))
    u32(zip64 ? 0xFFFF_FFFF : UInt32(centralStart))
    u16(0)
    return (out, layout)
}

/// Values a zip field is set to: the edges of 16, 32 and 64 bits, off-by-ones, the file's size.
func interestingValue(_ r: inout Random, width: Int, fileSize: Int, current: UInt64) -> UInt64 {
    let mask: UInt64 = width == 8 ? .max : (1 << UInt64(8 * width)) - 1
    let choices: [UInt64] = [
        0, 1, mask, mask - 1, 0x7FFF_FFFF & mask, 0x8000_0000 & mask, UInt64(fileSize) & mask,
        UInt64(fileSize + 1) & mask, (current &+ 1) & mask, (current &- 1) & mask, (current &* 2) & mask,
        r.next() & mask, 1 << 32 & mask, UInt64(Int64.max) & mask,
    ]
    return choices[r.below(choices.count)]
}

/// One structural mutation of a zip made by `makeZip`.
func mutateZip(_ zip: [UInt8], _ layout: ZipLayout, _ r: inout Random) -> (bytes: [UInt8], what: String) {
    var b = zip
    func put(_ at: Int, _ width: Int, _ v: UInt64) {
        for i in 0..<width where at + i < b.count { b[at + i] = UInt8((v >> UInt64(8 * i)) & 0xFF) }
    }
    func get(_ at: Int, _ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<width where at + i < b.count { v |= UInt64(b[at + i]) << UInt64(8 * i) }
        return v
    }
    func field(_ base: Int, _ fields: [(Int, Int, String)], _ where_: String) -> String {
        let (offset, width, name) = fields[r.below(fields.count)]
        let v = interestingValue(&r, width: width, fileSize: b.count, current: get(base + offset, width))
        put(base + offset, width, v)
        return "\(where_) \(name) = \(v)"
    }
    let k = r.below(max(1, layout.local.count))
    switch r.below(9) {
    case 0 where !layout.local.isEmpty:
        return (
            b,
            field(
                layout.local[k],
                [
                    (4, 2, "version"), (6, 2, "flags"), (8, 2, "method"), (14, 4, "crc"), (18, 4, "compressed size"),
                    (22, 4, "size"), (26, 2, "name length"), (28, 2, "extra length"), (0, 4, "signature"),
                ], "local header \(k)")
        )
    case 1 where !layout.central.isEmpty:
        return (
            b,
            field(
                layout.central[k],
                [
                    (8, 2, "flags"), (10, 2, "method"), (16, 4, "crc"), (20, 4, "compressed size"), (24, 4, "size"),
                    (28, 2, "name length"), (30, 2, "extra length"), (32, 2, "comment length"),
                    (34, 2, "disk"), (38, 4, "external attributes"), (42, 4, "local offset"), (0, 4, "signature"),
                ], "central header \(k)")
        )
    case 2:
        if let at = layout.localZip64[k] {
            return (b, field(at, [(0, 2, "id"), (2, 2, "length"), (4, 8, "size"), (12, 8, "compressed size")], "local zip64 \(k)"))
        }
        if let at = layout.centralZip64.indices.contains(k) ? layout.centralZip64[k] : nil {
            return (b, field(at, [(4, 8, "size"), (12, 8, "compressed size"), (20, 8, "offset")], "central zip64 \(k)"))
        }
        fallthrough
    case 3:
        if let at = layout.zip64End {
            return (
                b,
                field(
                    at,
                    [
                        (4, 8, "record size"), (24, 8, "entries on disk"), (32, 8, "entries"), (40, 8, "directory size"),
                        (48, 8, "directory offset"), (16, 4, "disk"),
                    ], "zip64 end record")
            )
        }
        if let at = layout.zip64Locator { return (b, field(at, [(8, 8, "record offset"), (16, 4, "disks")], "zip64 locator")) }
        fallthrough
    case 4:
        return (
            b,
            field(
                layout.end, [(8, 2, "entries on disk"), (10, 2, "entries"), (12, 4, "directory size"), (16, 4, "directory offset"), (20, 2, "comment length")],
                "end record")
        )
    case 5 where !layout.local.isEmpty:
        // An entry's name, in the local header, the central directory, or both: a byte changed
        // to '/', '.', a NUL, a high byte, or the name made "../" or "__MACOSX/" relative.
        let nameLength = Int(get(layout.local[k] + 26, 2))
        guard nameLength > 0 else { return (b, "entry \(k) has no name") }
        let where_ = r.below(3)
        let i = r.below(nameLength)
        let byte: UInt8 = [0x2F, 0x2E, 0x00, 0xFF, 0xC3, 0x5C, 0x20][r.below(7)]
        if where_ != 1 { put(layout.local[k] + 30 + i, 1, UInt64(byte)) }
        if where_ != 0, layout.central.indices.contains(k) { put(layout.central[k] + 46 + i, 1, UInt64(byte)) }
        return (b, "entry \(k) name byte \(i) = \(byte) (\(["local", "central", "both"][where_]))")
    case 6:
        // A few bytes anywhere.
        for _ in 0..<(1 + r.below(4)) where !b.isEmpty { b[r.below(b.count)] = UInt8(truncatingIfNeeded: r.next()) }
        return (b, "random bytes")
    case 7 where !b.isEmpty:
        let at = r.below(b.count)
        return (Array(b[..<at]), "truncated at \(at)")
    default:
        return (b, "unchanged structure")
    }
}

let gpxTokens: [String] = [
    "lat=\"91\"", "lat=\"-90.0000001\"", "lon=\"181\"", "lon=\"NaN\"", "lat=\"inf\"", "lat=\"1e308\"",
    "<ele>1e39</ele>", "<ele>-1e39</ele>", "<time>2025-13-45T25:61:61Z</time>", "<time>0000-01-01T00:00:00Z</time>",
    "<time>9999-12-31T23:59:59Z</time>", "<speed>-1</speed>", "<speed>1e300</speed>", "<trkseg>", "</trkseg>",
    "<trkpt lon=\"13.3\" lat=\"52.5\"><time>2025-10-01T16:05:00Z</time></trkpt>", "<trkpt/>", "</gpx>", "<gpx>",
    "<!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\">]>", "&a;", "<![CDATA[", "]]>", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>",
]

/// A workout that names `route` (a path under /workout-routes/), placed before `</HealthData>`.
func workoutNaming(_ route: String) -> [UInt8] {
    Array(
        """
        <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" \
        sourceVersion="11.1" creationDate="2025-10-01 18:40:00 +0200" startDate="2025-10-01 18:05:00 +0200" \
        endDate="2025-10-01 18:35:00 +0200">
         <WorkoutRoute sourceName="W" sourceVersion="11.1" creationDate="2025-10-01 18:40:00 +0200" \
        startDate="2025-10-01 18:05:00 +0200" endDate="2025-10-01 18:35:00 +0200">
          <FileReference path="/workout-routes/\(route)"/>
         </WorkoutRoute>
        </Workout>

        """.utf8)
}

/// `xml` with `extra` inserted before its last `</HealthData>` (or at the end).
func inserting(_ extra: [UInt8], into xml: [UInt8]) -> [UInt8] {
    let close = Array("</HealthData>".utf8)
    var i = xml.count - close.count
    while i >= 0 {
        if xml[i] == 0x3C, Array(xml[i..<(i + close.count)]) == close { break }
        i -= 1
    }
    var out = xml
    out.insert(contentsOf: extra, at: i >= 0 ? i : xml.count)
    return out
}

/// Mutates a GPX route file with the XML mutator's edits plus GPX tokens.
func mutateGPX(_ input: [UInt8], _ r: inout Random) -> [UInt8] {
    var b = r.below(3) == 0 ? input : mutate(input, &r)
    for _ in 0..<(r.below(3)) {
        var at = r.below(b.count + 1)
        if let nl = b[min(at, b.count)...].firstIndex(of: 0x0A) { at = nl + 1 }
        b.insert(contentsOf: Array(gpxTokens[r.below(gpxTokens.count)].utf8), at: at)
    }
    return b
}

struct Outcome {
    var status: Int32
    var signaled: Bool
    var timedOut: Bool
    var stderr: String
}

func run(_ arguments: [String]) -> Outcome {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: options.binary)
    p.arguments = arguments
    p.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
    let err = URL(fileURLWithPath: options.work + "/stderr")
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    p.standardOutput = FileHandle.nullDevice
    p.standardError = try! FileHandle(forWritingTo: err)
    p.standardInput = FileHandle.nullDevice
    try! p.run()
    let deadline = Date().addingTimeInterval(options.timeout)
    var timedOut = false
    while p.isRunning {
        if Date() > deadline {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            break
        }
        usleep(2_000)
    }
    p.waitUntilExit()
    return Outcome(
        status: p.terminationStatus, signaled: p.terminationReason == .uncaughtSignal, timedOut: timedOut,
        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

func contents(_ dir: String) -> [String: Data] {
    var result: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
        result[name] = FileManager.default.contents(atPath: dir + "/" + name) ?? Data()
    }
    return result
}

/// Splits one CSV line into fields (RFC 4180 quoting).
func fields(_ line: Substring) -> [String] {
    var result: [String] = []
    var field = ""
    var quoted = false
    var i = line.startIndex
    while i < line.endIndex {
        let c = line[i]
        if quoted {
            if c == "\"" {
                let n = line.index(after: i)
                if n < line.endIndex, line[n] == "\"" {
                    field.append("\"")
                    i = n
                } else {
                    quoted = false
                }
            } else {
                field.append(c)
            }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            result.append(field)
            field = ""
        } else {
            field.append(c)
        }
        i = line.index(after: i)
    }
    result.append(field)
    return result
}

/// The text files every report writes; charts (`chart_*.svg`) only when they have data.
let reportFiles: Set<String> = [
    "daily.csv", "weekly.csv", "monthly.csv", "stand_hours.csv", "sources.csv", "sleep.csv", "workouts.csv",
    "trends.csv", "report.md", "report.html", "schema.sql", "load-sqlite.sql", "load-duckdb.sql", "report.json",
]
let badNumbers: Set<String> = ["nan", "-nan", "inf", "-inf", "infinity", "-infinity", "+inf"]

/// What is wrong with a complete report set, or nil.
func checkSet(_ set: [String: Data]) -> String? {
    let charts = set.keys.filter { $0.hasPrefix("chart_") && $0.hasSuffix(".svg") }
    guard reportFiles.isSubset(of: set.keys), Set(set.keys) == reportFiles.union(charts) else {
        return "--out holds \(set.keys.sorted())"
    }
    for (name, data) in set {
        guard let text = String(data: data, encoding: .utf8) else { return "\(name) is not UTF-8" }
        if name.hasSuffix(".svg") || name.hasSuffix(".json") || name.hasSuffix(".sql") {
            if name.hasSuffix(".svg"), !text.contains("</svg>") { return "\(name) is not a complete SVG" }
            if name.hasSuffix(".json"), (try? JSONSerialization.jsonObject(with: data)) == nil {
                return "\(name) is not complete JSON"
            }
            for word in text.split(whereSeparator: { !$0.isLetter && $0 != "-" && $0 != "+" })
            where badNumbers.contains(word.lowercased()) {
                return "\(name) shows '\(word)'"
            }
            continue
        }
        if name == "report.html" {
            guard text.contains("</html>") else { return "report.html is not a complete page" }
            for word in text.split(whereSeparator: { !$0.isLetter && $0 != "-" && $0 != "+" })
            where badNumbers.contains(word.lowercased()) {
                return "report.html shows '\(word)'"
            }
            continue
        }
        if name == "report.md" {
            guard text.hasSuffix("\n") else { return "report.md does not end with a newline" }
            for word in text.split(whereSeparator: { " |\n()".contains($0) })
            where badNumbers.contains(word.lowercased()) {
                return "report.md shows '\(word)'"
            }
            continue
        }
        guard text.hasSuffix("\n") else { return "\(name) does not end with a line break" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        guard let header = lines.first.map(fields) else { return "\(name) has no header" }
        for line in lines.dropFirst() {
            let row = fields(line)
            guard row.count == header.count else { return "\(name) row with \(row.count) of \(header.count) fields" }
            for (column, cell) in zip(header, row) {
                if badNumbers.contains(cell.lowercased()) { return "\(name) \(column) = \(cell)" }
                // Week-over-week changes may be negative; nothing else in the reports may be.
                let signed =
                    column.contains("change") || column.contains("pct") || column.contains("delta")
                    || column.contains("temperature") || column == "source" || column == "type"
                if !signed, cell.hasPrefix("-"), Double(cell) != nil { return "\(name) \(column) = \(cell) (negative)" }
            }
        }
    }
    return nil
}

let seedFiles = ((try? FileManager.default.contentsOfDirectory(atPath: options.seeds)) ?? []).sorted()
let seeds = seedFiles.compactMap { FileManager.default.contents(atPath: options.seeds + "/" + $0).map { [UInt8]($0) } }
precondition(!seeds.isEmpty, "no seeds in \(options.seeds)")
/// GPX seeds (route files); without any, a two-point route.
let gpxSeeds: [[UInt8]] = {
    let dir = options.gpxSeeds
    let found =
        dir.isEmpty
        ? []
        : ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().compactMap {
            FileManager.default.contents(atPath: dir + "/" + $0).map { [UInt8]($0) }
        }
    return found.isEmpty
        ? [
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
                 <trk>
                  <name>Route</name>
                  <trkseg>
                   <trkpt lon="13.344403" lat="52.516534"><ele>39.88</ele><time>2025-10-01T16:05:00Z</time><extensions><speed>3.0</speed><course>-1.0</course><hAcc>3.5</hAcc><vAcc>2.4</vAcc></extensions></trkpt>
                   <trkpt lon="13.344215" lat="52.516324"><ele>39.99</ele><time>2025-10-01T16:05:10Z</time><extensions><speed>3.0</speed><course>-1.0</course><hAcc>3.5</hAcc><vAcc>2.4</vAcc></extensions></trkpt>
                  </trkseg>
                 </trk>
                </gpx>

                """.utf8)
        ] : found
}()
try? FileManager.default.removeItem(atPath: options.work)
try! FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
try! FileManager.default.createDirectory(atPath: options.artifacts, withIntermediateDirectories: true)
let out = options.work + "/out"
let out2 = options.work + "/out-threads-2"

var failures = 0
var exits: [String: Int] = [:]
var shapes: [String: Int] = [:]
var reportsWritten = 0
var threadComparisons = 0
var importCases = 0
var dbReports = 0
let start = Date()
var caseNumber = options.first
let extraOptions: [[String]] = [
    [], [], ["--no-dedup"], ["--week-start", "sunday"], ["--from", "2025-10-01", "--to", "2025-11-30"],
    ["--tz", "Europe/Berlin"],
]
/// What ExportReader says when the parallel read stopped where a one-thread read does not: a
/// splitter bug, never an answer to bad input.
let parallelBug = "the parallel read stopped on an error that a one-thread read does not find"

/// This case's input (a file or a folder) and how it was made.
var input = ""
var inputIsFolder = false
/// This case's export holds source names of megabytes: a report's files must stay small.
var longNames = false
var caseDescription = ""

func fail(_ what: String) {
    failures += 1
    let ext = inputIsFolder ? "" : "." + (input as NSString).pathExtension
    let name = options.artifacts + "/cli-case-\(caseNumber)\(ext)"
    try? FileManager.default.removeItem(atPath: name)
    try? FileManager.default.copyItem(atPath: input, toPath: name)
    print("FAIL case \(caseNumber) (\(caseDescription)): \(what) (input saved as \(name))")
}

/// Checks a run's end: no timeout, no parallel-read bug, no signal, an allowed exit code.
/// Returns false (after `fail`) when something is wrong.
func checkRun(_ label: String, _ o: Outcome, allowed: [Int32]) -> Bool {
    exits["\(label) \(o.signaled ? "signal " : "")\(o.status)", default: 0] += 1
    if o.timedOut {
        fail("\(label) ran past \(options.timeout) s")
    } else if o.stderr.contains(parallelBug) {
        fail("\(label): \(o.stderr.prefix(300))")
    } else if o.signaled || !allowed.contains(o.status) {
        fail("\(label) ended with \(o.signaled ? "signal" : "exit") \(o.status): \(o.stderr.prefix(300))")
    } else {
        return true
    }
    return false
}

/// The names of the files that differ between two sets (or are in one only).
func differences(_ a: [String: Data], _ b: [String: Data]) -> [String] {
    Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
}

func removeArchive(_ db: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
}

/// `sqlite3 <db> <sql>`'s standard output, trimmed.
func sqlite3(_ db: String, _ sql: String) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    p.arguments = [db, sql]
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return "" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

var damagedArchives = 0

/// A copy of the imported archive with one numeric column of one row of a random table (or one
/// numeric field of a record in a block) set to an out-of-range value: `inspect --db` and
/// `report --db` must end with exit 0 or 1 (the one-line damaged-archive message), never a
/// signal or a hang, and a refusal leaves the archive byte-identical.
func damageAndRead(_ db: String, _ r: inout Random) {
    let copy = options.work + "/damaged.sqlite"
    removeArchive(copy)
    guard (try? FileManager.default.copyItem(atPath: db, toPath: copy)) != nil else { return }
    defer { removeArchive(copy) }
    let value = ["1e308", "-1e308", "4611686018427387904", "999999999999999999", "-1", "1e16"][r.below(6)]
    var what: String
    if r.below(4) == 0 {
        let k = r.below(14)
        what = "record_blocks field \(k) = \(value)"
        _ = sqlite3(copy, "UPDATE record_blocks SET records = json_set(records, '$[0][\(k)]', \(value)) WHERE id = (SELECT min(id) FROM record_blocks)")
    } else {
        let columns = sqlite3(
            copy,
            "SELECT m.name || '.' || c.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table'"
                + " AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '%_results' AND c.type IN ('INTEGER', 'REAL')"
        ).split(separator: "\n").map(String.init)
        guard !columns.isEmpty else { return }
        let pick = columns[r.below(columns.count)].split(separator: ".").map(String.init)
        what = "\(pick[0]).\(pick[1]) = \(value)"
        _ = sqlite3(copy, "UPDATE \(pick[0]) SET \(pick[1]) = \(value) WHERE rowid = (SELECT min(rowid) FROM \(pick[0]))")
        // (A WITHOUT ROWID table has no rowid: the update does nothing and the case reads an intact copy.)
    }
    damagedArchives += 1
    shapes["damaged archive", default: 0] += 1
    let before = FileManager.default.contents(atPath: copy)
    for arguments in [["inspect", "--db", copy], ["report", "--db", copy, "--out", options.work + "/out-damaged"]] {
        try? FileManager.default.removeItem(atPath: options.work + "/out-damaged")
        let o = run(arguments)
        caseDescription += arguments[0] == "inspect" ? "; damaged archive: \(what)" : ""
        guard checkRun("\(arguments[0]) --db on a damaged copy", o, allowed: [0, 1]) else { continue }
        if o.status == 1 {
            if !o.stderr.contains("the archive is damaged") && !o.stderr.contains("no data") {
                exits["\(arguments[0]) --db damaged: other message", default: 0] += 1
            }
            if FileManager.default.contents(atPath: copy) != before {
                fail("\(arguments[0]) --db on a damaged copy refused and changed the archive")
            }
        }
    }
}

/// Writes this case's input: XML, zip, or GPX (folder or zip), by the case number.
func makeCase(_ random: inout Random) throws {
    for name in ["case.xml", "case.zip", "case"] { try? FileManager.default.removeItem(atPath: options.work + "/" + name) }
    let xml = mutate(seeds[random.below(seeds.count)], &random)
    inputIsFolder = false
    longNames = false
    switch caseNumber % 10 {
    case 0...4 where random.below(3) == 0:
        // Every quantity at an extreme but finite value; half of these in a folder that also holds
        // a FIFO and links named *.xml (a FIFO, a dangling link, a link to /dev/zero and to the
        // FIFO), which the folder search must pass over without blocking.
        let extreme = withExtremeValues(xml, &random)
        if random.below(2) == 0 {
            shapes["xml extreme values", default: 0] += 1
            caseDescription = "xml, extreme values"
            input = options.work + "/case.xml"
            _ = FileManager.default.createFile(atPath: input, contents: Data(extreme))
        } else {
            shapes["folder with FIFO and links, extreme values", default: 0] += 1
            caseDescription = "folder with a FIFO and links, extreme values"
            input = options.work + "/case"
            inputIsFolder = true
            let folder = input + "/apple_health_export"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = mkfifo(folder + "/a.xml", 0o644)
            try? FileManager.default.createSymbolicLink(atPath: folder + "/b.xml", withDestinationPath: "/nonexistent/x.xml")
            try? FileManager.default.createSymbolicLink(atPath: folder + "/c.xml", withDestinationPath: "/dev/zero")
            try? FileManager.default.createSymbolicLink(atPath: folder + "/d.xml", withDestinationPath: folder + "/a.xml")
            _ = FileManager.default.createFile(atPath: folder + "/export.xml", contents: Data(extreme))
        }
    case 0...4 where random.below(5) == 0:
        switch random.below(4) {
        case 0, 1:
            var extra: [UInt8] = []
            for k in 0..<3 {
                let name = String(repeating: (["A", "B", "C"] as [Character])[k], count: 1_500_000 + random.below(1_500_000))
                extra += Array(
                    ("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(name)\" unit=\"count\""
                        + " value=\"\(k + 1)\" startDate=\"2025-10-01 0\(k):00:00 +0000\""
                        + " endDate=\"2025-10-01 0\(k):00:00 +0000\"/>\n").utf8)
            }
            shapes["xml long source names", default: 0] += 1
            caseDescription = "xml, three source names of megabytes"
            longNames = true
            input = options.work + "/case.xml"
            _ = FileManager.default.createFile(atPath: input, contents: Data(inserting(extra, into: xml)))
        case 2:
            shapes["xml comment over 10 MB", default: 0] += 1
            caseDescription = "xml, a comment of 10,000,010 bytes"
            input = options.work + "/case.xml"
            let comment = Array("<!--".utf8) + [UInt8](repeating: 0x63, count: 10_000_010) + Array("-->\n".utf8)
            _ = FileManager.default.createFile(atPath: input, contents: Data(inserting(comment, into: xml)))
        default:
            let utf16 = String(decoding: xml, as: UTF8.self).data(using: .utf16) ?? Data()
            if random.below(2) == 0 {
                shapes["xml UTF-16", default: 0] += 1
                caseDescription = "xml, UTF-16"
                input = options.work + "/case.xml"
                _ = FileManager.default.createFile(atPath: input, contents: utf16)
            } else {
                shapes["zip UTF-16 entry", default: 0] += 1
                caseDescription = "zip, a UTF-16 export entry"
                input = options.work + "/case.zip"
                let (bytes, _) = makeZip(
                    [("apple_health_export/export.xml", [UInt8](utf16))], zip64: false, descriptors: false)
                _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
            }
        }
    case 0...4:
        shapes["xml", default: 0] += 1
        caseDescription = "xml"
        input = options.work + "/case.xml"
        _ = FileManager.default.createFile(atPath: input, contents: Data(xml))
    case 5...7:
        var entries: [(name: String, bytes: [UInt8])] = []
        if random.below(4) == 0 { entries.append(("__MACOSX/apple_health_export/._export.xml", [0, 5, 22, 7, 0, 2])) }
        if random.below(4) == 0 { entries.append(("apple_health_export/", [])) }
        if random.below(4) == 0 { entries.append(("apple_health_export/export_cda.xml", Array("<ClinicalDocument/>\n".utf8))) }
        if random.below(6) == 0 { entries.append(("a/b/c/apple_health_export/export.xml", xml)) }
        let name = ["apple_health_export/export.xml", "apple_health_export/Exportar.xml", "export.xml"][random.below(3)]
        entries.append((name, xml))
        if random.below(3) == 0 {
            entries.append(("apple_health_export/workout-routes/route_fuzz.gpx", mutateGPX(gpxSeeds[random.below(gpxSeeds.count)], &random)))
            entries[entries.count - 2].bytes = inserting(workoutNaming("route_fuzz.gpx"), into: xml)
        }
        let zip64 = random.below(2) == 0
        let descriptors = random.below(6) == 0
        let (bytes, layout) = makeZip(entries, zip64: zip64, descriptors: descriptors)
        let (mutated, what) = random.below(5) == 0 ? (bytes, "unchanged structure") : mutateZip(bytes, layout, &random)
        shapes["zip\(zip64 ? " zip64" : "")\(descriptors ? " descriptors" : "")", default: 0] += 1
        caseDescription = "zip, \(entries.count) entries\(zip64 ? ", zip64" : "")\(descriptors ? ", descriptors" : ""): \(what)"
        input = options.work + "/case.zip"
        _ = FileManager.default.createFile(atPath: input, contents: Data(mutated))
    default:
        let route = ["route_fuzz.gpx", "route_2025-10-01_6.05pm.gpx", "r\u{00FC}te fuzz.gpx"][random.below(3)]
        let gpx = mutateGPX(gpxSeeds[random.below(gpxSeeds.count)], &random)
        let export = inserting(workoutNaming(route), into: xml)
        if random.below(2) == 0 {
            shapes["gpx folder", default: 0] += 1
            caseDescription = "gpx in a folder"
            input = options.work + "/case"
            inputIsFolder = true
            let routes = input + "/apple_health_export/workout-routes"
            try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: input + "/apple_health_export/export.xml", contents: Data(export))
            _ = FileManager.default.createFile(atPath: routes + "/" + route, contents: Data(gpx))
        } else {
            shapes["gpx zip", default: 0] += 1
            caseDescription = "gpx in a zip"
            input = options.work + "/case.zip"
            let (bytes, _) = makeZip(
                [("apple_health_export/export.xml", export), ("apple_health_export/workout-routes/\(route)", gpx)],
                zip64: random.below(2) == 0, descriptors: false)
            _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
        }
    }
}

while caseNumber - options.first < options.cases, Date().timeIntervalSince(start) < options.seconds {
    var random = Random(state: UInt64(caseNumber) &* 7919 &+ 1)
    try! makeCase(&random)

    _ = checkRun("inspect", run(["inspect", input]), allowed: [0, 1])

    let before = contents(out)
    let extra = extraOptions[random.below(extraOptions.count)]
    let report = run(["report", input, "--out", out, "--threads", "1"] + extra)
    let after = contents(out)
    if checkRun("report", report, allowed: [0, 1, 64]) {
        if report.status == 0 {
            reportsWritten += 1
            let bytes = after.values.reduce(0) { $0 + $1.count }
            if let problem = checkSet(after) {
                fail(problem)
            } else if longNames && bytes > 2_000_000 {
                fail("the report of three source names of megabytes holds \(bytes) bytes: a name was not cut")
            } else {
                // The same report with two parser threads: byte-identical files.
                try? FileManager.default.removeItem(atPath: out2)
                let two = run(["report", input, "--out", out2, "--threads", "2"] + extra)
                if checkRun("report --threads 2", two, allowed: [0, 1, 64]) {
                    threadComparisons += 1
                    if two.status != 0 {
                        fail("report --threads 2 exit \(two.status) where --threads 1 wrote a report: \(two.stderr.prefix(200))")
                    } else if case let d = differences(after, contents(out2)), !d.isEmpty {
                        fail("report --threads 1 and --threads 2 differ in \(d)")
                    }
                }
            }
        } else if after != before {
            fail("a failed report changed --out (\(report.stderr.prefix(200)))")
        }
    }
    let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: options.work)) ?? []).filter {
        $0.contains(".tmp-")
    }
    if !leftovers.isEmpty { fail("left \(leftovers) beside --out") }

    // A share of the cases goes through the archive: import with 1 and with 2 threads into two
    // new archives, report --db from each; what succeeds with both must agree byte for byte.
    if caseNumber % 3 == 0 {
        // A FIFO, a device and a dangling link as --db: exit 1 naming them, no hang, nothing created.
        let special = options.work + "/special"
        try? FileManager.default.removeItem(atPath: special)
        try? FileManager.default.createDirectory(atPath: special, withIntermediateDirectories: true)
        _ = mkfifo(special + "/fifo.sqlite", 0o644)
        try? FileManager.default.createSymbolicLink(atPath: special + "/link.sqlite", withDestinationPath: special + "/gone/x.sqlite")
        for db in [special + "/fifo.sqlite", "/dev/zero", special + "/link.sqlite"] {
            for arguments in [["inspect", "--db", db], ["import", input, "--db", db]] {
                let o = run(arguments)
                if checkRun(arguments[0] + " --db special", o, allowed: [1]), !o.stderr.contains("not an archive file") {
                    fail("\(arguments[0]) --db \(db): \(o.stderr.prefix(200))")
                }
            }
        }
        if FileManager.default.fileExists(atPath: special + "/gone") { fail("--db through a dangling link created its target") }
        importCases += 1
        var sets: [String: [String: Data]] = [:]
        var importStatus: [String: Int32] = [:]
        for threads in ["1", "2"] {
            let db = options.work + "/archive-\(threads).sqlite"
            let dbOut = options.work + "/out-db-\(threads)"
            removeArchive(db)
            try? FileManager.default.removeItem(atPath: dbOut)
            let imported = run(["import", input, "--db", db, "--threads", threads])
            guard checkRun("import", imported, allowed: [0, 1, 64]) else { continue }
            importStatus[threads] = imported.status
            guard imported.status == 0 else { continue }
            let fromDB = run(["report", "--db", db, "--out", dbOut])
            guard checkRun("report --db", fromDB, allowed: [0, 1, 64]), fromDB.status == 0 else { continue }
            dbReports += 1
            let set = contents(dbOut)
            if let problem = checkSet(set) { fail("report --db: \(problem)") }
            sets[threads] = set
            if threads == "1" { damageAndRead(db, &random) }
        }
        if let one = importStatus["1"], let two = importStatus["2"], one != two {
            fail("import exits \(one) with --threads 1 and \(two) with --threads 2")
        }
        if let one = sets["1"], let two = sets["2"] {
            threadComparisons += 1
            let d = differences(one, two)
            if !d.isEmpty { fail("report --db after import --threads 1 and --threads 2 differ in \(d)") }
        }
        for threads in ["1", "2"] { removeArchive(options.work + "/archive-\(threads).sqlite") }
    }
    caseNumber += 1
    if (caseNumber - options.first) % 100 == 0 {
        print("\(caseNumber - options.first) cases, \(failures) failures, \(Int(Date().timeIntervalSince(start))) s")
    }
}
print(
    "cli: \(caseNumber - options.first) cases (numbers \(options.first) ..< \(caseNumber)) in \(Int(Date().timeIntervalSince(start))) s; "
        + "\(failures) failures; \(reportsWritten) reports written; \(importCases) cases imported (x2 threads), "
        + "\(dbReports) report --db sets; \(damagedArchives) damaged archives read; "
        + "\(threadComparisons) --threads 1 / 2 comparisons"
)
for (key, n) in shapes.sorted(by: { $0.key < $1.key }) { print("  shape \(key): \(n)") }
for (key, n) in exits.sorted(by: { $0.key < $1.key }) { print("  \(key): \(n)") }
exit(failures == 0 ? 0 : 1)

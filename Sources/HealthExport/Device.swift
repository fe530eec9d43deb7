/// The `device` attribute of a sample: `HKDevice`'s debug description, parsed (docs/export-format.md §10).
///
/// The raw attribute looks like
/// `<<HKDevice: 0x283a4c460>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>`.
/// The hex number is a per-record memory address and is dropped: two records from the same
/// device get equal `Device` values. A string that does not match the pattern is kept whole as
/// `name`; parsing never fails.
public final class Device: Hashable, Sendable, CustomStringConvertible {
    public let name: String?
    public let manufacturer: String?
    public let model: String?
    public let hardware: String?
    public let software: String?
    /// `creation date` (newer exports), as written.
    public let creationDate: String?
    /// Keys the parser does not name (`firmware`, `localIdentifier`, `UDIDeviceIdentifier`, …),
    /// in order of appearance.
    public let otherFields: [MetadataEntry]

    public init(
        name: String?, manufacturer: String? = nil, model: String? = nil, hardware: String? = nil,
        software: String? = nil, creationDate: String? = nil, otherFields: [MetadataEntry] = []
    ) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardware = hardware
        self.software = software
        self.creationDate = creationDate
        self.otherFields = otherFields
    }

    private static let keys = [
        "name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier",
        "UDIDeviceIdentifier", "creation date",
    ]

    /// Parses a raw `device` attribute (after XML entity decoding).
    public convenience init(parsing raw: String) {
        self.init(parsingWithoutAddress: Device.stripAddress(raw))
    }

    /// Parses the part of the string after the `<<HKDevice: 0x…>, ` prefix, without the final `>`.
    convenience init(parsingWithoutAddress body: Substring) {
        var fields: [(String, String)] = []
        var rest = body
        var matched = false
        // Split only at ", " followed by a known key and a colon.
        while !rest.isEmpty {
            guard let colon = rest.firstIndex(of: ":") else { break }
            let key = String(rest[rest.startIndex..<colon])
            guard Device.keys.contains(key) || (matched && !key.isEmpty) else { break }
            var valueEnd = rest.endIndex
            var search = rest.index(after: colon)
            while let sep = rest[search...].firstRange(of: ", ") {
                let after = rest[sep.upperBound...]
                if Device.keys.contains(where: { after.hasPrefix($0 + ":") }) {
                    valueEnd = sep.lowerBound
                    break
                }
                search = sep.upperBound
            }
            fields.append((key, String(rest[rest.index(after: colon)..<valueEnd])))
            matched = true
            rest = valueEnd == rest.endIndex ? rest[rest.endIndex...] : rest[rest.index(valueEnd, offsetBy: 2)...]
        }
        if !matched || !rest.isEmpty && fields.isEmpty {
            self.init(name: String(body))
            return
        }
        var name: String?
        var manufacturer: String?
        var model: String?
        var hardware: String?
        var software: String?
        var creation: String?
        var others: [MetadataEntry] = []
        for (k, v) in fields {
            switch k {
            case "name": name = v
            case "manufacturer": manufacturer = v
            case "model": model = v
            case "hardware": hardware = v
            case "software": software = v
            case "creation date": creation = v
            default: others.append(MetadataEntry(key: k, value: v))
            }
        }
        self.init(
            name: name, manufacturer: manufacturer, model: model, hardware: hardware,
            software: software, creationDate: creation, otherFields: others)
    }

    /// Removes one trailing `>` and a leading `<<HKDevice: 0x…>` (with or without the address)
    /// plus the following `, `.
    static func stripAddress(_ raw: String) -> Substring {
        var s = Substring(raw)
        if s.hasPrefix("<<HKDevice:"), let close = s.firstIndex(of: ">") {
            s = s[s.index(after: close)...]
            if s.hasPrefix(", ") { s = s.dropFirst(2) }
            if s.hasSuffix(">") { s = s.dropLast() }
        }
        return s
    }

    /// True for an Apple Watch (`model:Watch` or `hardware:Watch…`).
    public var isAppleWatch: Bool {
        model == "Watch" || (hardware?.hasPrefix("Watch") ?? false)
    }

    /// True for an iPhone (`model:iPhone` or `hardware:iPhone…`).
    public var isIPhone: Bool {
        model == "iPhone" || (hardware?.hasPrefix("iPhone") ?? false)
    }

    public static func == (a: Device, b: Device) -> Bool {
        a === b
            || (a.name == b.name && a.manufacturer == b.manufacturer && a.model == b.model
                && a.hardware == b.hardware && a.software == b.software
                && a.creationDate == b.creationDate && a.otherFields == b.otherFields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(model)
        hasher.combine(hardware)
        hasher.combine(software)
    }

    /// `name (model hardware, software)` with the parts that are present.
    public var description: String {
        var parts: [String] = []
        if let model { parts.append(model) }
        if let hardware, hardware != model { parts.append(hardware) }
        var s = name ?? "unknown device"
        if !parts.isEmpty { s += " (" + parts.joined(separator: " ") + (software.map { ", " + $0 } ?? "") + ")" }
        return s
    }
}

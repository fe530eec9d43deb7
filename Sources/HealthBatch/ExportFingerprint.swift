import HealthExport

/// What tells whether a person's export changed since their last run: its path, size,
/// modification time and a hash of its first and last MiB. Reading 2 MiB instead of the whole
/// export (1-8 GB) keeps an unchanged rerun of 1,000 people to seconds; an export that Health
/// wrote again changes its size or time, and the hash catches a copy that kept both.
public struct ExportFingerprint: Codable, Hashable, Sendable {
    /// The export as given (a manifest's path resolved against its folder), made absolute.
    public var export: String
    /// The file hashed: the export itself, or for an unzipped folder the XML file found in it.
    public var file: String
    public var size: Int64
    /// Modification time, nanoseconds since 1970 (UTC).
    public var modifiedNanoseconds: Int64
    /// FNV-1a 64 of the first MiB followed by the last MiB (the whole file when shorter;
    /// the two parts overlap for a file under 2 MiB), 16 hex digits.
    public var edgeHash: String

    /// How much of each end is hashed.
    public static let edgeBytes = 1 << 20

    /// The fingerprint of `export` (a zip, an XML file, or an unzipped export folder).
    /// - Throws: a one-line reason when the export is missing or unreadable.
    public static func of(_ export: String) throws(BatchFailure) -> ExportFingerprint {
        let absolute = BatchPlatform.absolute(export)
        var file = absolute
        switch BatchPlatform.kind(of: export) {
        case .missing: throw BatchFailure("\(export): no such file or folder")
        case .directory:
            guard let found = ExportReader.exportFile(inFolder: absolute) else {
                throw BatchFailure("\(export): no export .xml file in this folder")
            }
            file = found
        case .file: break
        case .other: throw BatchFailure("\(export): not a file or a folder")
        }
        do {
            let status = try BatchPlatform.fileStatus(file)
            var hash = FNV1a64()
            hash.add(try BatchPlatform.readBytes(file, offset: 0, count: edgeBytes))
            hash.add(
                try BatchPlatform.readBytes(file, offset: max(0, status.size - Int64(edgeBytes)), count: edgeBytes))
            return ExportFingerprint(
                export: absolute, file: file, size: status.size, modifiedNanoseconds: status.modifiedNanoseconds,
                edgeHash: hash.hex)
        } catch {
            throw BatchFailure("\(export): cannot read: \(error.text)")
        }
    }
}

/// FNV-1a 64 (offset basis 14695981039346656037, prime 1099511628211).
struct FNV1a64 {
    private(set) var value: UInt64 = 14_695_981_039_346_656_037

    mutating func add(_ bytes: [UInt8]) {
        var h = value
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 1_099_511_628_211
        }
        value = h
    }

    /// 16 lower-case hex digits.
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Why one person of a batch failed, as one line (an error's description).
public struct BatchFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

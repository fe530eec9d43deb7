import Foundation
import TestSupport
import Testing

@testable import HealthBatch

@Suite("Export fingerprints and status records")
struct FingerprintTests {
    /// A 3 MiB file: a byte changed in its last MiB, with size and modification time put back,
    /// changes the edge hash; the same bytes give the same fingerprint.
    @Test func theEdgeHashSeesAChangeInTheLastMiB() throws {
        let dir = try TestScratch.folder("fingerprint")
        let url = dir.appendingPathComponent("export.xml")
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        try Data(bytes).write(to: url)
        let time = Date(timeIntervalSince1970: 1_750_000_000)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
        let first = try ExportFingerprint.of(url.path)
        #expect(try ExportFingerprint.of(url.path) == first)
        #expect(first.size == 3 << 20 && first.modifiedNanoseconds == 1_750_000_000 * 1_000_000_000)
        bytes[bytes.count - 10] = UInt8(ascii: "y")
        try Data(bytes).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
        let second = try ExportFingerprint.of(url.path)
        #expect(second.size == first.size && second.modifiedNanoseconds == first.modifiedNanoseconds)
        #expect(second.edgeHash != first.edgeHash)
        #expect(throws: BatchFailure("\(dir.path)/nope.zip: no such file or folder")) {
            try ExportFingerprint.of(dir.path + "/nope.zip")
        }
    }

    /// FNV-1a 64 of "" and of "a" (the published test vectors), as 16 hex digits.
    @Test func theEdgeHashIsFNV1a64() {
        var empty = FNV1a64()
        empty.add([])
        #expect(empty.hex == "cbf29ce484222325")
        var a = FNV1a64()
        a.add([UInt8(ascii: "a")])
        #expect(a.hex == "af63dc4c8601ec8c")
    }

    @Test func aStatusRecordIsWrittenAtomicallyAndReadBack() throws {
        let out = try TestScratch.folder("status")
        try FileManager.default.createDirectory(
            atPath: PersonStatus.folder(in: out.path), withIntermediateDirectories: true)
        let status = PersonStatus(
            id: "p1", export: "/x/p1.zip", outcome: .failed, message: "it broke", fingerprint: nil,
            options: "tz=", toolVersion: "health-analyzer 0.1.0", report: nil)
        try status.write(in: out.path)
        #expect(PersonStatus.read("p1", in: out.path) == status)
        #expect(PersonStatus.all(in: out.path) == [status])
        // Nothing but the record: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: PersonStatus.folder(in: out.path)) == ["p1.json"])
        // A failed record is never "unchanged".
        let fingerprint = ExportFingerprint(
            export: "/x/p1.zip", file: "/x/p1.zip", size: 1, modifiedNanoseconds: 1, edgeHash: "0")
        var done = status
        done.outcome = .done
        done.fingerprint = fingerprint
        done.report = PersonStatus.Report(
            export: "/x/p1.zip", exportDate: nil, firstDay: nil, lastDay: nil, daysWithData: 0, records: 0, seconds: 0)
        #expect(done.isUnchanged(fingerprint, options: "tz=", toolVersion: "health-analyzer 0.1.0"))
        #expect(!done.isUnchanged(fingerprint, options: "tz=UTC", toolVersion: "health-analyzer 0.1.0"))
        #expect(!done.isUnchanged(fingerprint, options: "tz=", toolVersion: "health-analyzer 0.2.0"))
        var failed = done
        failed.outcome = .failed
        #expect(!failed.isUnchanged(fingerprint, options: "tz=", toolVersion: "health-analyzer 0.1.0"))
    }
}

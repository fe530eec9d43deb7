import Testing

@testable import HealthExport

/// The splitter finds the quotes and the '>' of a start tag eight bytes at a time. Start tags
/// whose attribute names and spaces are 1 to 19 bytes long put each of `"`, `'` and `>` (and
/// the `/` of `/>`) at every offset of an 8-byte word, and the chunk sizes move the words'
/// starts and the ends of the buffers across them; every read must equal the one-thread read.
@Suite("Splitter scan of start tags")
struct SplitterScanTests {
    static func export() -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        xml += " <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n"
        for i in 0..<120 {
            let pad = String(repeating: " ", count: i % 8)
            let name = "n" + String(repeating: "x", count: i % 19)
            let minute = String(format: "%02d", i % 60)
            let dates = "startDate=\"2025-01-10 10:\(minute):00 +0100\" endDate=\"2025-01-10 10:\(minute):30 +0100\""
            switch i % 4 {
            case 0:
                // Double quotes, an unknown attribute of varying length, spaces before "/>".
                xml +=
                    " <Record type=\"HKQuantityTypeIdentifierStepCount\" \(name)=\"v>\" sourceName=\"Phone\" unit=\"count\" \(dates) value=\"\(i)\"\(pad)/>\n"
            case 1:
                // Single quotes holding '"' and '>', and spaces around '='.
                xml +=
                    " <Record type='HKQuantityTypeIdentifierStepCount' \(name)\(pad)=\(pad)'a\"b>c' sourceName='Phone' unit='count' \(dates) value='\(i)'/>\n"
            case 2:
                // A start tag ending in '>' after spaces, with a child: depth goes to 2 and back.
                xml +=
                    " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" unit=\"count\" \(dates) value=\"\(i)\"\(pad)><MetadataEntry \(name)=\"1\" key=\"k\" value=\"/>\"\(pad)/></Record>\n"
            default:
                // An unknown element with only names and spaces before "/>".
                xml += " <Unknown\(name)\(pad)/>\n"
            }
        }
        xml += "</HealthData>\n"
        return xml
    }

    @Test func startTagsWithEveryOffsetOfQuotesAndBrackets() throws {
        let path = try temporaryFile(Self.export())
        try expectParallelMatchesSerial(
            .path(path), chunkSizes: [1, 3, 8, 13, 4096], segmentSizes: [1, 100, 4096], threads: [2, 3])
        // 120 start tags of children of the root, 30 of them with a MetadataEntry child, and the
        // ExportDate: every record of the 90 is read, and the unknown elements are counted.
        let serial = try readAll(.path(path))
        #expect(serial.records.count == 90)
        #expect(serial.summary.elementCounts["MetadataEntry"] == 30)
        #expect(serial.summary.elementCounts.filter { $0.key.hasPrefix("Unknown") }.values.reduce(0, +) == 30)
    }
}

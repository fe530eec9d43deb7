import Testing

@testable import SyntheticExport

@Suite("Record order")
struct RecordOrderTests {
    /// The `Record` lines of an export with device addresses (handed out in writing order) blanked.
    static func recordLines(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(" <Record ") }.map { line in
            guard let r = line.range(of: "&lt;&lt;HKDevice: 0x") else { return line }
            return line[..<r.upperBound] + line[line.index(r.upperBound, offsetBy: 9)...]
        }
    }

    @Test func byDayWritesTheSameRecordsAndTruthInAnotherOrder() {
        var config = SyntheticExportConfiguration(firstDay: "2026-03-27", days: 3, seed: 7)
        let byType = SyntheticExport.makeExport(config)
        config.recordOrder = .byDay
        let byDay = SyntheticExport.makeExport(config)
        #expect(byDay.truth == byType.truth)
        #expect(byDay.bytes.count == byType.bytes.count)

        let a = Self.recordLines(byType.bytes)
        let b = Self.recordLines(byDay.bytes)
        #expect(a.count > 5000)
        #expect(a != b)
        #expect(a.sorted() == b.sorted())
        // By type: the first line's type fills a block; by day, types alternate within a day.
        func type(_ line: Substring) -> Substring { line.split(separator: "\"")[1] }
        let typeRuns = { (lines: [Substring]) in zip(lines, lines.dropFirst()).filter { type($0) != type($1) }.count + 1
        }
        #expect(typeRuns(a) == Set(a.map(type)).count)
        #expect(typeRuns(b) > 3 * (typeRuns(a) - 1))
    }
}

import HealthAnalysis
import Testing

@Suite("Counts in words (no \"1 day(s)\", \"1 days\" or \"1800 days\")")
struct CountedNounTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(counted(1, "day") == "1 day")
        #expect(counted(0, "day") == "0 days")
        #expect(counted(2, "night") == "2 nights")
        #expect(counted(1, "person", plural: "people") == "1 person")
        #expect(counted(3, "person", plural: "people") == "3 people")
    }

    /// Grouped by threes from the right, as report.md's `1,213 MB`: 1800 → `1,800`;
    /// 1234567 → `1,234,567`; 999 and 1000 sit on either side of the first comma.
    @Test func countsAreGroupedByThrees() {
        #expect(counted(1800, "day") == "1,800 days")
        #expect(grouped(999) == "999")
        #expect(grouped(1000) == "1,000")
        #expect(grouped(1_234_567) == "1,234,567")
        #expect(grouped(-1200) == "-1,200")
        #expect(grouped(Int.min) == "-9,223,372,036,854,775,808")
    }
}

import HealthExport
import Testing

@testable import HealthAnalysis

/// `Analyzer.parts`: the analyzers of parallel parser threads share one sample-buffer budget.
@Suite("Analyzers for parallel parts")
struct ParallelPartsTests {
    /// The cumulative-sample and heart-rate buffer limits of each part.
    static func limits(_ analyzers: [Analyzer]) -> [[Int]] {
        analyzers.map { a in
            let cumulative = a.domains.compactMap { $0 as? CumulativeTypes }.map(\.store.bufferLimit)
            let heartRate = a.domains.compactMap { $0 as? HeartRate }.map(\.series.bufferLimit)
            return cumulative + heartRate
        }
    }

    @Test func thePartsShareTheBudgetOfOneAnalyzer() {
        let scratch = InMemoryScratchSpace()
        // One part keeps the whole default budget: 262,144 samples (4 MiB), heart rate half of it.
        let one = Analyzer.parts(1, options: AnalysisOptions(), scratch: scratch)
        #expect(Self.limits(one) == [[262_144, 131_072]])
        // Two parts: 262,144 / 2 = 131,072 each, heart rate 65,536 each; together one budget.
        let two = Analyzer.parts(2, options: AnalysisOptions(), scratch: scratch)
        #expect(Self.limits(two) == [[131_072, 65_536], [131_072, 65_536]])
        // 1,000 over 3: 333 each (the remainder is not handed out), heart rate 333 / 2 = 166.
        let three = Analyzer.parts(3, options: AnalysisOptions(), scratch: scratch, sampleBufferLimit: 1000)
        #expect(Self.limits(three) == Array(repeating: [333, 166], count: 3))
        // A budget smaller than the part count still leaves every part room for one sample.
        let four = Analyzer.parts(4, options: AnalysisOptions(), scratch: scratch, sampleBufferLimit: 2)
        #expect(Self.limits(four) == Array(repeating: [1, 1], count: 4))
        // No parts asked for: one.
        #expect(Analyzer.parts(0, options: AnalysisOptions(), scratch: scratch).count == 1)
    }
}

import Testing

@testable import HealthAnalysis

@Suite("Ring tolerances, one statement (docs/rings.md §4)")
struct RingToleranceTests {
    /// Energy: ±max(1 kcal, 1 %): 5 kcal at 500, 1 kcal at 60 (1 % is 0.6). Minutes ±1. Stand
    /// exact. Deviation in tolerances: 510 against 500 is 10 ÷ 5 = 2; stand 11 against 12 is 1
    /// (whole hours, divided by max(1, 0)).
    @Test func tolerancesAndDeviations() {
        #expect(RingTolerance.energy.allowed(500) == 5)
        #expect(RingTolerance.energy.allowed(60) == 1)
        #expect(RingTolerance.energy.agrees(505, 500))
        #expect(!RingTolerance.energy.agrees(505.1, 500))
        #expect(RingTolerance.energy.deviation(510, 500) == 2)
        #expect(RingTolerance.minutes.agrees(31, 30) && !RingTolerance.minutes.agrees(31.5, 30))
        #expect(RingTolerance.standHours.agrees(12, 12) && !RingTolerance.standHours.agrees(11, 12))
        #expect(RingTolerance.standHours.deviation(11, 12) == 1)
    }
}

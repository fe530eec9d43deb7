/// An iPhone-only user (`SyntheticExportConfiguration.hasAppleWatch == false`): the same days
/// without any Watch sample, and iPhone active energy for the iPhone's step samples.
extension Generator {
    /// Drops the Watch's samples of `kind`; for active energy, adds the iPhone's: 0.04 kcal per
    /// step of each iPhone step sample, over the same interval (values in 1e-3 kcal).
    func phoneOnly(_ kind: RecordKind, _ plan: DayPlan, _ samples: inout [Sample]) {
        samples.removeAll { $0.source == .watch }
        guard kind == .activeEnergy else { return }
        var steps: [Sample] = []
        factory.samples(.stepCount, plan, into: &steps)
        for s in steps where s.source == .phone && s.end > s.start {
            samples.append(
                Sample(start: s.start, end: s.end, value: s.value * 40, created: s.created + 7, source: .phone))
        }
    }
}

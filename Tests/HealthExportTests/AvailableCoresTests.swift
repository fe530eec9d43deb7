import HealthExport
import Testing

@Suite("The default number of parser threads")
struct AvailableCoresTests {
    /// cgroup v2 `cpu.max` is "<quota> <period>" in microseconds, or "max <period>".
    @Test func cgroupQuotaIsRoundedUpToWholeCores() {
        #expect(ExportReader.quotaCores(cpuMax: "max 100000\n") == nil)  // no limit
        #expect(ExportReader.quotaCores(cpuMax: "100000 100000\n") == 1)  // 1 core
        #expect(ExportReader.quotaCores(cpuMax: "150000 100000\n") == 2)  // 1.5 cores: 2 threads
        #expect(ExportReader.quotaCores(cpuMax: "50000 100000") == 1)  // half a core: still 1
        #expect(ExportReader.quotaCores(cpuMax: "400000 100000") == 4)
        #expect(ExportReader.quotaCores(cpuMax: "-1 100000") == nil)  // cgroup v1's "no limit"
        #expect(ExportReader.quotaCores(cpuMax: "garbage") == nil)
        #expect(ExportReader.quotaCores(cpuMax: "100000 0") == nil)
    }
}

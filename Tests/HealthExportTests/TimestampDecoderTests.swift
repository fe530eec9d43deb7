import Testing

@testable import HealthExport

@Suite("The reader's caching date decoder")
struct TimestampDecoderTests {
    /// The decoder reuses the previous date's day number and offset; whatever the order, it
    /// must agree with `decodeTimestamp` on every input, valid or not.
    @Test func agreesWithTheStatelessDecoderInAnyOrder() {
        // The third is a bad hour on a date the decoder has cached.
        let inputs = [
            "2025-01-11 10:00:00 +0100", "2025-01-11 23:59:59 +0100", "2025-01-11 25:00:00 +0100",
            "2025-01-11 10:00:00 +0530", "2025-01-11 10:60:00 +0530", "2025-01-12 00:00:00 +0530",
            "2025-02-30 10:00:00 +0530", "2025-02-28 10:00:00 -0000", "2025-02-28 10:00:0x -0000",
            "2025-02-28T10:00:00 -0000", "2024-12-31 23:59:59 +1400", "2024-12-31 00:00:00 +1400",
        ]
        func stateless(_ s: String) -> Timestamp? {
            var b = Array(s.utf8)
            return b.withUnsafeMutableBufferPointer { decodeTimestamp(UnsafeBufferPointer($0)) }
        }
        for order in [inputs, inputs.reversed(), inputs + inputs, inputs.sorted()] {
            var decoder = TimestampDecoder()
            for s in order {
                var b = Array(s.utf8)
                let t = b.withUnsafeMutableBufferPointer { decoder.decode(UnsafeBufferPointer($0)) }
                #expect(t == stateless(s), "\(s)")
                #expect(t?.printedOffsetSeconds == stateless(s)?.printedOffsetSeconds, "\(s)")
            }
        }
    }
}

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

    /// The time of day of a cached date is checked as one 8-byte word: every byte value at every
    /// position of `HH:mm:ss` must be accepted or refused exactly as the byte-by-byte decoder does
    /// ('/' and ':' are the neighbours of '0' and '9'; 0xB0-0xB9 differ from digits by one bit).
    @Test func timeOfDayAgreesForEveryByteAtEveryPosition() {
        func stateless(_ b: [UInt8]) -> Timestamp? {
            var b = b
            return b.withUnsafeMutableBufferPointer { decodeTimestamp(UnsafeBufferPointer($0)) }
        }
        // 2024-02-29 (a leap day) 23:59:60 +0545: the date and offset are cached by the first
        // decode; 23:59:60 is accepted (a leap second, second < 61): 2024-02-29 is day 19 782
        // after 1970-01-01, so the instant is 19 782 × 86 400 + 86 400 − 20 700 = 1 709 230 500.
        let base = Array("2024-02-29 23:59:60 +0545".utf8)
        var decoder = TimestampDecoder()
        var first = base
        let t0 = first.withUnsafeMutableBufferPointer { decoder.decode(UnsafeBufferPointer($0)) }
        #expect(t0?.secondsSince1970 == 1_709_230_500)
        #expect(t0?.printedOffsetSeconds == 20_700)
        var accepted = 0
        for position in 11..<19 {
            for byte in 0...255 {
                var b = base
                b[position] = UInt8(byte)
                let expected = stateless(b)
                let t = b.withUnsafeMutableBufferPointer { decoder.decode(UnsafeBufferPointer($0)) }
                #expect(t == expected, "byte \(byte) at \(position)")
                if t != nil { accepted += 1 }
            }
        }
        // Accepted: hour digits 0-2 at 11 ("03:59:60" … "23:59:60"; 3 values), 0-3 at 12
        // ("20" … "23"; 4 values), 0-5 at 14 (6), 0-9 at 15 (10), 0-6 at 17 ("00" … "60"; 7),
        // only 0 at 18 (60 is the largest second; 1), the colons only as ':' (1 + 1): 33.
        #expect(accepted == 33)
    }
}

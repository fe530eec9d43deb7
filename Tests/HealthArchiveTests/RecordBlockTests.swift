import HealthExport
import Testing

@testable import HealthArchive

/// The stored form of top-level records (docs/archive.md §6.1).
@Suite("Record blocks")
struct RecordBlockTests {
    /// A record of block 2^17 + 5 (type 1): start bits s = 7, n = 1, so its id is
    /// (2^17 + 5) << 37 | 7 << 21 | 1.
    static func record(_ value: Double?) -> StoredRecord {
        StoredRecord(
            id: (131_077 << 37) | (7 << 21) | 1, source: 2, duration: 60, value: value, unit: 3, offsetMinutes: 60,
            export: 1, line: 42, version: nil, device: nil, creationDelay: nil, original: nil, text: nil)
    }

    static func encoded(_ records: [StoredRecord]) -> String {
        var out: [UInt8] = []
        RecordBlock.encode(records, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func decoded(_ text: String, block: Int64 = 131_077) throws -> [StoredRecord] {
        var out: [StoredRecord] = []
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBufferPointer { b in
            try RecordBlock.decode(UnsafeBufferPointer(b), block: block, into: &out)
        }
        return out
    }

    /// Fields in order [s, n, source, duration, value, unit, offset, export, line, …], the
    /// trailing nulls left out; a value that is an integer is written as one.
    @Test func aRecordIsItsFieldsInOrderWithoutTrailingNulls() throws {
        #expect(Self.encoded([Self.record(12)]) == "[[7,1,2,60,12,3,60,1,42]]")
        var r = Self.record(nil)
        r.text = 9
        r.unit = nil
        #expect(Self.encoded([r]) == "[[7,1,2,60,null,null,60,1,42,null,null,null,null,9]]")
        #expect(Self.encoded([]) == "[]")
        #expect(try Self.decoded("[[7,1,2,60,12,3,60,1,42]]") == [Self.record(12)])
        #expect(
            try Self.decoded(" [ [7, 1,2,60,12,3,60,1,42] ] ") == [Self.record(12)],
            "JSON spacing, as sqlite3 may write")
    }

    /// Each value reads back as the same double: 0.1 is "0.1" (0.1 == 1 / 10 in doubles),
    /// 2.328 is "2.328"; 1e-20 and 1/3 need Swift's shortest form; -0 is stored as 0, as SQLite
    /// stored it in version 1.
    @Test(arguments: [0.1, 2.328, -72.5, 1e-20, 1.0 / 3.0, 123_456.789, 9.007199254740993e15, 1e300, -5e-324, 0.0])
    func everyValueReadsBackExactly(value: Double) throws {
        let text = Self.encoded([Self.record(value)])
        let back = try #require(try Self.decoded(text).first?.value)
        #expect(back.bitPattern == value.bitPattern, "\(text)")
    }

    @Test func minusZeroIsStoredAsZero() throws {
        #expect(Self.encoded([Self.record(-0.0)]) == "[[7,1,2,60,0,3,60,1,42]]")
    }

    @Test func theShortestDecimalIsWritten() {
        #expect(Self.encoded([Self.record(0.1)]) == "[[7,1,2,60,0.1,3,60,1,42]]")
        #expect(Self.encoded([Self.record(2.328)]) == "[[7,1,2,60,2.328,3,60,1,42]]")
        #expect(Self.encoded([Self.record(-0.05)]) == "[[7,1,2,60,-0.05,3,60,1,42]]")
    }

    /// Every optional field present, with negative numbers, survives the round trip.
    @Test func everyFieldRoundTrips() throws {
        let r = StoredRecord(
            id: (131_077 << 37) | (65_535 << 21) | 2_097_151, source: 1, duration: -5, value: 3.5, unit: 2,
            offsetMinutes: -570, export: 3, line: 1_234_567_890, version: 4, device: 5, creationDelay: -1,
            original: 3.0e-3, text: 6)
        #expect(try Self.decoded(Self.encoded([r, Self.record(1)])) == [r, Self.record(1)])
    }

    /// A record's metadata (field 14: `[key_id, "value"]` pairs) and heartbeats (field 15:
    /// `[bpm, "time"]` pairs) follow its numbers, with the nulls before them written out; no
    /// metadata before heartbeats is `null`.
    @Test func metadataAndHeartbeatsFollowTheNumbers() throws {
        var r = Self.record(12)
        r.metadata = [StoredMetadataEntry(key: 5, value: "Europe/Berlin"), StoredMetadataEntry(key: 2, value: "1")]
        #expect(
            Self.encoded([r]) == #"[[7,1,2,60,12,3,60,1,42,null,null,null,null,null,[[5,"Europe/Berlin"],[2,"1"]]]]"#)
        var h = Self.record(45.5)
        h.heartbeats = [
            InstantaneousBeatsPerMinute(bpm: 61, time: "6:14:48.94 PM"),
            InstantaneousBeatsPerMinute(bpm: 60.5, time: "6:14:49.93 PM"),
        ]
        #expect(
            Self.encoded([h])
                == #"[[7,1,2,60,45.5,3,60,1,42,null,null,null,null,null,null,[[61,"6:14:48.94 PM"],[60.5,"6:14:49.93 PM"]]]]"#
        )
        var both = h
        both.metadata = r.metadata
        #expect(try Self.decoded(Self.encoded([r, h, both, Self.record(1)])) == [r, h, both, Self.record(1)])
    }

    /// A value is any text the export held: `"` and `\` are escaped with a backslash, control
    /// characters as `\u00XX`, the rest is its UTF-8; the decoder also reads the escapes
    /// another JSON writer (sqlite3's `json_set`) may use: `\/`, `\n`, `\u00e9`, and a
    /// surrogate pair for U+1F600.
    @Test func stringsAreEscapedAndReadBack() throws {
        var r = Self.record(1)
        r.metadata = [StoredMetadataEntry(key: 1, value: "a\"b\\c\u{1}\tdé😀")]
        let text = Self.encoded([r])
        #expect(text.hasSuffix(#"[[1,"a\"b\\c\u0001\u0009dé😀"]]]]"#), "\(text)")
        #expect(try Self.decoded(text) == [r])
        let other = #"[[7,1,2,60,1,3,60,1,42,null,null,null,null,null,[[1,"\/\n\u00e9\ud83d\ude00"]]]]"#
        #expect(try Self.decoded(other).first?.metadata == [StoredMetadataEntry(key: 1, value: "/\né😀")])
    }

    /// What `encode` never writes is a `DamagedRow` naming the block and the byte, not a crash;
    /// a record whose fields read but one is missing or out of range names the block, the record
    /// and the field instead ("[[7,1,2,60]]" has no printed_offset_min; s = 70000 is past 2^16;
    /// unit_id 3.5 is no id: docs/archive.md §9). The byte is where the parser stands: before the 17th field, at the
    /// first byte after the block's array ("… x": byte 22). The lists start at byte 32, after
    /// `[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,` (2 brackets, 14 numbers of one byte but "60" twice,
    /// 14 commas). So `[[` is 32–33, a key 34, its comma 35, a string's quote 36: a field 14
    /// that is not a list stops at 32; an empty list at its `]` (33); the key "1.5" (34–36) at
    /// 37; a string cut short at its end (39); a control character at 38 (after `"a`); the
    /// unknown escape `\x` at its letter (39); `\ud83d` (37–42) at 43, where no low surrogate
    /// follows; `null,null` at 41; and a 17th field at 48 (after `null,[[60,"a"]],`, 16 bytes).
    @Test(arguments: [
        ("", "record block 131077 is damaged at byte 0: expected '['"),
        ("[[1,2", "record block 131077 is damaged at byte 5: expected ',' or ']'"),
        (
            "[[7,1,2,60]]",
            "table record_blocks, row 131077, column records (record 0, field printed_offset_min): null is not an offset of any zone in minutes"
        ),
        (
            "[[70000,1,2,60,1,3,60,1]]",
            "table record_blocks, row 131077, column records (record 0, field s): 70000 is not the low 16 bits of a start"
        ),
        (
            "[[7,1,2,60,1,3.5,60,1]]",
            "table record_blocks, row 131077, column records (record 0, field unit_id): 3.5 is not an id"
        ),
        ("[[7,1,2,60,\"x\",3,60,1]]", "record block 131077 is damaged at byte 11: not a number"),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,null,[[60,"a"]],1]]"#,
            "record block 131077 is damaged at byte 48: more than 16 fields in a record"
        ),
        ("[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,1]]", "record block 131077 is damaged at byte 32: expected '['"),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[[1.5,"a"]]]]"#,
            "record block 131077 is damaged at byte 37: a metadata key is not an integer"
        ),
        ("[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[]]]", "record block 131077 is damaged at byte 33: an empty list"),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[[1,"ab"#,
            "record block 131077 is damaged at byte 39: a string is not closed"
        ),
        (
            "[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[[1,\"a\u{1}\"]]]]",
            "record block 131077 is damaged at byte 38: a control character in a string"
        ),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[[1,"a\x"]]]]"#,
            "record block 131077 is damaged at byte 39: an unknown escape in a string"
        ),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,[[1,"\ud83d"]]]]"#,
            "record block 131077 is damaged at byte 43: a lone surrogate in a string"
        ),
        (
            #"[[7,1,2,60,1,3,60,1,1,1,1,1,1,1,null,null]]"#,
            "record block 131077 is damaged at byte 41: a heartbeat list is null"
        ),
        ("[[7,1,2,60,1,3,60,1]] x", "record block 131077 is damaged at byte 22: text after the block's array"),
    ])
    func damagedTextIsAnError(text: String, problem: String) {
        #expect(throws: DamagedRow(problem: problem)) { try Self.decoded(text) }
    }
}

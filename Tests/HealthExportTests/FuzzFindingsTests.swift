import CHealthSAX
import Foundation
import HealthExport
import Testing

/// Inputs that scripts/fuzz found defects with, read the way the fuzz target read
/// them: the first byte chooses the chunk size (1-64 bytes, or 512 KiB from 0xC0 up), the
/// second one (glue_chunked) a stop, the rest is the file.
@Suite("Fuzz findings stay fixed")
struct FuzzFindingsTests {
    private func chunk(_ b: UInt8) -> Int { b >= 0xC0 ? 512 * 1024 : Int(b & 63) + 1 }

    /// glue_chunked found UBSan's "applying zero offset to null pointer" in the glue's `&`
    /// decoding: the first value holding `&` after another known attribute compared pointers
    /// against the not yet allocated scratch block. The file (NULs, a broken root) must end in a
    /// read error, not in a result or a crash.
    @Test func theNullScratchInputEndsInAReadError() throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL("fuzz/ubsan-null-scratch.bin")))
        let path = try temporaryFile(Array(bytes.dropFirst(2)))
        #expect(throws: ExportReadError.self) { _ = try readAll(.path(path), chunkSize: chunk(bytes[0])) }
    }

    /// The same path with well-formed input: a decoded `&` in a value that follows other known
    /// attributes, the first `&` of the parse, comes out whole, at every chunk size.
    @Test(arguments: [1, 7, 64, 512 * 1024])
    func anAmpersandAfterOtherAttributesIsDecoded(chunkSize: Int) throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
            <Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="5" sourceName="A &amp; B &#38; C" startDate="2025-06-01 10:00:00 +0000" endDate="2025-06-01 10:05:00 +0000"/>
            </HealthData>

            """
        let r = try readAll(.path(try temporaryFile(xml)), chunkSize: chunkSize)
        #expect(r.records.map(\.sourceName) == ["A & B & C"])
    }
}

private func fixtureURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
}

@Suite("Fuzz findings stay fixed: interning")
struct FuzzInternFindingsTests {
    /// glue_chunked found UBSan's "applying zero offset to null pointer" in `hsax_intern`: an
    /// empty string interned first copied zero bytes into the not yet allocated arena. An empty
    /// `sourceName` on the first record is that case; it is a source like any other.
    @Test func anEmptyFirstStringIsInterned() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="" unit="count" value="5" startDate="2025-06-01 10:00:00 +0000" endDate="2025-06-01 10:05:00 +0000"/>
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="" unit="count" value="6" startDate="2025-06-01 11:00:00 +0000" endDate="2025-06-01 11:05:00 +0000"/>
            </HealthData>

            """
        let r = try readAll(.path(try temporaryFile(xml)), chunkSize: 3)
        #expect(r.records.map(\.sourceName) == ["", ""])
        #expect(r.records.map(\.sourceSymbol) == [r.records[0].sourceSymbol, r.records[0].sourceSymbol])
    }

    /// The input itself (a broken root after NULs and a BOM inside an attribute name) ends in a
    /// read error.
    @Test func theEmptyInternInputEndsInAReadError() throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL("fuzz/ubsan-empty-intern.bin")))
        let path = try temporaryFile(Array(bytes.dropFirst(2)))
        #expect(throws: ExportReadError.self) { _ = try readAll(.path(path), chunkSize: Int(bytes[0] & 63) + 1) }
    }
}

@Suite("Fuzz findings stay fixed: the parallel read")
struct FuzzSplitFindingsTests {
    /// glue_split_differential found: a file that declares `encoding="UT-F8"` (glibc's iconv
    /// takes it for UTF-8, so libxml2 converts the input through iconv) and holds a byte that is
    /// not UTF-8 (0xF2 before `<Record`). libxml2's iconv path then succeeds or stops
    /// ("libxml2 error -1", no message) depending on where its chunks start: the one-thread read
    /// succeeded while the parallel read's worker (fed the same filtered bytes from another
    /// offset) stopped, so the parallel read ended in "stopped on an error that a one-thread read
    /// does not find". Whatever the verdict on such a file, both reads must reach the same one,
    /// at every chunk size.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 64])
    func aBadByteUnderAnIconvEncodingEndsAlikeInBothReads(chunkSize: Int) throws {
        try expectBothReadsEndAlike(chunkSize: chunkSize)
    }

    /// glue_split_differential found: a prolog comment that starts "<!-->" (the
    /// fuzzer put 23 '>' after "<!--"; one is enough). libxml2 2.9.14's push parser, looking
    /// for the comment's end from its "<", takes "-->" inside "<!-->" for it and, when the real
    /// "-->" is not yet in its buffer, fails with "Comment not terminated". The one-thread read's
    /// filter hands the whole prolog on at once and succeeded; the parallel read's workers fed
    /// the prefix in chunks of the feed size (here 64 bytes, ending inside the comment) and
    /// stopped: "the parallel read stopped on an error that a one-thread read does not find".
    /// Workers now feed the prefix in one piece. Both reads give the file's 2 records (a
    /// StepCount of 5 and one of 6; the other elements are a workout, comments, PIs, CDATA).
    @Test(arguments: [1, 7, 64, 4096])
    func aPrologCommentStartingWithAGreaterThanSignReadsAlike(chunkSize: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL("fuzz/split-prolog-comment.bin")))
        let path = try temporaryFile(Array(bytes.dropFirst(5)))  // the glue_split header: 5 bytes
        let serial = try readAll(.path(path), chunkSize: chunkSize)
        let parallel = try readParallel(.path(path), threads: 3, chunkSize: chunkSize, segmentSize: 64)
        #expect(serial.records.count == 2 && serial.workouts.count == 1)
        #expect(parallel.elements == serial.dump.sorted())
    }

    /// The same libxml2 flaw outside the prolog (found with the finding above; a small C program
    /// feeding libxml2 2.9.14's push parser in 1-24-byte pieces refuses a comment starting
    /// `<!-->` or `<!--->` before the root and after it at nearly every piece size, never inside
    /// it): a valid file with such comments after `</HealthData>` was refused wherever a feed
    /// boundary fell in one ("Comment not terminated"). The parser's comment guard now turns
    /// their first `>` into a space (hsax_comment_guard, CHealthSAXInternal.h). Both reads give the
    /// file's one record (a StepCount of 5, on line 5), at every chunk size.
    @Test(arguments: [1, 2, 3, 5, 9, 17, 64, 4096])
    func commentsStartingWithAGreaterThanSignReadAfterTheRoot(chunkSize: Int) throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!--> before the root -->
            <!---> and again -->
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" value="5" startDate="2025-06-01 10:00:00 +0000" endDate="2025-06-01 10:05:00 +0000"/>
             <!--> inside the root -->
            </HealthData>
            <!--> after the root -->
            <!---> and again -->
            <!---->
            <?pi after?>

            """
        let path = try temporaryFile(xml)
        let serial = try readAll(.path(path), chunkSize: chunkSize)
        #expect(serial.records.map(quantityValue) == [5] && serial.records.map(\.line) == [5])
        let parallel = try readParallel(.path(path), threads: 2, chunkSize: chunkSize, segmentSize: 64)
        #expect(parallel.elements == serial.dump.sorted())
    }

    /// A prolog comment starting `<!-->` longer than the pre-filter's 1 MiB buffer: the one-thread
    /// read handed libxml2 its first MiB, which ends inside the comment, and libxml2 took the `-->`
    /// of `<!-->` for its end ("Comment not terminated"). The pre-filter now turns that `>` into
    /// a space. 1.2 MB of comment text, then one record (on line 4).
    @Test func aPrologCommentStartingWithAGreaterThanSignLongerThanTheFilterBufferReads() throws {
        let xml =
            "<?xml version=\"1.0\"?>\n<!-->" + String(repeating: "comment text ", count: 96_000) + "-->\n"
            + "<HealthData locale=\"en_US\">\n"
            + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" value=\"7\""
            + " startDate=\"2025-06-01 10:00:00 +0000\" endDate=\"2025-06-01 10:05:00 +0000\"/>\n</HealthData>\n"
        let path = try temporaryFile(xml)
        let serial = try readAll(.path(path))
        #expect(serial.records.map(quantityValue) == [7] && serial.records.map(\.line) == [4])
    }

    private func quantityValue(_ record: Record) -> Double? {
        if case .quantity(let q) = record.value { return q.originalValue }
        return nil
    }

    private func expectBothReadsEndAlike(chunkSize: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL("fuzz/split-iconv-chunking.bin")))
        let path = try temporaryFile(Array(bytes.dropFirst(5)))  // the glue_split header: 5 bytes
        let serial = Result { try readAll(.path(path), chunkSize: chunkSize).summary }
        let parallel = Result {
            try readParallel(.path(path), threads: 2, chunkSize: chunkSize, segmentSize: 64).summary
        }
        switch (serial, parallel) {
        case (.success(let s), .success(let p)):
            #expect(s.map(canonical) == canonical(p))
        case (.failure(let s), .failure(let p)):
            #expect("\(p)" == "\(s)")
        default:
            Issue.record("one-thread read: \(serial); parallel read: \(parallel)")
        }
    }
}

@Suite("Fuzz findings stay fixed: the attribute rewriter")
struct FuzzRewriterFindingsTests {
    /// glue_rewrite_differential found (finding F1 of the issue-10 fuzzing note; fixed by the
    /// rewriter skipping values after a name with non-ASCII bytes): a start tag whose attribute
    /// name holds a byte that is not UTF-8 (0xF5), right before a value the rewriter replaces
    /// (`A &amp; B`). libxml2's error
    /// quoted the four bytes from the bad one on; with the rewriter on they were 0xF5 '=' '"' and
    /// the token's DEL (0x7F), a byte the file does not hold, instead of 'A' (0x41). The glue now
    /// names only the byte where the bad sequence starts (the fuzzer's second finding), so the
    /// message cannot quote a byte of the rewriter's; the error, line 3 column 59 (the bad byte
    /// is the 59th character of the Record line), must be the same with the rewriter on and off.
    @Test func anErrorNextToARewrittenValueQuotesTheFilesBytes() throws {
        let bytes = try [UInt8](Data(contentsOf: fixtureURL("fuzz/rewriter-error-bytes.bin")))
        let file = Array(bytes.dropFirst(2))  // header FF 00: one 512 KiB chunk, the serial path
        let off = glueTrace(file, chunk: 512 * 1024, rewrite: false)
        let on = glueTrace(file, chunk: 512 * 1024, rewrite: true)
        #expect(off.code == Int32(HSAX_ERR_XML))
        #expect(off.line == 3 && off.column == 59)
        #expect(
            off.message
                == "Input is not proper UTF-8: the bytes from 0xF5 on are not a UTF-8 character "
                + "(Apple Health exports are UTF-8, so the file is damaged)")
        #expect(on == off, "rewriter on: \(on); off: \(off)")
        #expect(on.message == off.message)
    }
}

import Foundation
import HealthExport
import SyntheticExport
import Testing

// Parallel reading (ExportReader.read(_:threads:makeConsumer:)) against the one-thread read:
// the multiset of delivered elements, the summary and every error must be the same for any
// number of threads, chunk size and segment size.

/// What the consumers of one parallel read received, and the summary.
struct ParallelReadResult {
    var summary: ExportSummary
    /// `ReadResult.dump` of every worker, merged and sorted (the multiset of elements).
    var elements: [String]
    /// Workers that received at least one batch.
    var busyWorkers: Int
}

final class WorkerSink {
    var result = ReadResult()
    /// symbol -> name per kind, to check that a worker's symbols are stable.
    var types: [Int32: String] = [:]
    var sources: [Int32: String] = [:]
    var unstableSymbols = 0
}

func readParallel(
    _ input: ExportInput, threads: Int, chunkSize: Int = 512 * 1024, segmentSize: Int = 512 * 1024,
    batchSize: Int = 4096
) throws -> ParallelReadResult {
    let sinks = (0..<threads).map { _ in WorkerSink() }
    let reader = ExportReader(
        options: ReaderOptions(batchSize: batchSize, chunkSize: chunkSize, segmentSize: segmentSize))
    let summary = try reader.read(input, threads: threads) { worker in
        let sink = sinks[worker]
        return { b in
            sink.result.batches += 1
            sink.result.records += b.records
            sink.result.correlations += b.correlations
            sink.result.workouts += b.workouts
            sink.result.activitySummaries += b.activitySummaries
            sink.result.clinicalRecords += b.clinicalRecords
            sink.result.audiograms += b.audiograms
            for r in b.records {
                if sink.types[r.typeSymbol, default: r.type] != r.type { sink.unstableSymbols += 1 }
                if sink.sources[r.sourceSymbol, default: r.sourceName] != r.sourceName { sink.unstableSymbols += 1 }
                sink.types[r.typeSymbol] = r.type
                sink.sources[r.sourceSymbol] = r.sourceName
            }
        }
    }
    for sink in sinks {
        #expect(sink.unstableSymbols == 0, "a worker's symbols must name one string each")
        // Within one worker, elements come in document order.
        let lines = sink.result.records.map(\.line)
        #expect(lines == lines.sorted())
    }
    return ParallelReadResult(
        summary: summary, elements: sinks.flatMap(\.result.dump).sorted(),
        busyWorkers: sinks.filter { $0.result.batches > 0 }.count)
}

/// Every field of a summary, dictionaries in key order, diagnostics in their own order.
func canonical(_ s: ExportSummary) -> [String] {
    func sorted(_ d: [String: Int]) -> String {
        d.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
    return [
        "input \(s.inputName)", "exportDate \(s.exportDate.map { "\($0)" } ?? "nil")",
        "version \(s.exportVersion.map(String.init) ?? "nil")", "locale \(s.locale ?? "nil")",
        "me \(String(describing: s.me))", "bytes \(s.bytesRead)", "removed \(s.removedControlCharacters)",
        "doctype \(s.droppedDoctype)", "elements \(sorted(s.elementCounts))",
        "unmodeled \(sorted(s.unmodeledElementCounts))", "zones \(sorted(s.timeZoneCounts))",
    ] + s.diagnostics.map(\.description)
}

/// Reads `input` with one thread, then with 2, 3 and 4 threads and each chunk and segment
/// size, and expects the same elements and summary every time.
func expectParallelMatchesSerial(
    _ input: ExportInput, chunkSizes: [Int], segmentSizes: [Int], threads: [Int] = [2, 3, 4],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let serial = try readAll(input)
    let expectedElements = serial.dump.sorted()
    let expectedSummary = canonical(serial.summary)
    for t in threads {
        for chunk in chunkSizes {
            for segment in segmentSizes {
                let p = try readParallel(input, threads: t, chunkSize: chunk, segmentSize: segment)
                #expect(
                    p.elements == expectedElements, "threads \(t), chunk \(chunk), segment \(segment)",
                    sourceLocation: sourceLocation)
                #expect(
                    canonical(p.summary) == expectedSummary, "threads \(t), chunk \(chunk), segment \(segment)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

/// A hand-made export with everything a splitter can trip on: comments, PIs and CDATA with
/// markup characters inside, quoted values holding '>' and the other quote, elements on one
/// line and spread over lines, tabs, CRLF and lone CR, control characters, bad records (diagnostics on
/// many lines), unknown elements, and a comment after the root.
func trickyExport(records: Int = 240) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<!-- before the root: <HealthData> </Record> \"quoted' -->\n<?pi-before with > and <?>\n"
    xml += "<HealthData locale=\"de_DE\">\n <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n"
    xml += " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-02-02\"/>\n"
    for i in 0..<records {
        let minute = String(format: "%02d", i % 60)
        let hour = String(format: "%02d", (i / 60) % 24)
        let dates =
            "startDate=\"2025-01-10 \(hour):\(minute):00 +0100\" endDate=\"2025-01-10 \(hour):\(minute):30 +0100\""
        switch i % 12 {
        case 0:
            xml += " <!-- a comment between records: </HealthData> <Record type=\"x\"/> -->\n"
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A &gt; B\" unit=\"count\" \(dates) value=\"\(i)\"><MetadataEntry key=\"k\" value=\"a>b'c/>\"/></Record>\n"
        case 1:
            xml +=
                "\t<Record type='HKQuantityTypeIdentifierStepCount' sourceName='single \"quoted\" />' unit='count' \(dates) value='\(i)'/>\r\n"
        case 2:
            // Two records on one line: a cut may fall in the middle of a line.
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" \(dates) value=\"6\(i % 10)\"/><Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" \(dates) value=\"7\(i % 10)\"/>\n"
        case 3:
            xml += " <![CDATA[ </Record> <HealthData> ]] > ]]>\n <?pi-inside <Record/> ?>\n"
            xml +=
                " <Record\n   type=\"HKQuantityTypeIdentifierStepCount\"\n   sourceName=\"Phone\"\n   unit=\"furlong\"\n   \(dates)\n   value=\"3\"\n />\n"
        case 4:
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\"\rsourceName=\"Phone\" unit=\"count\" \(dates) value=\"abc\(i % 3)\"/>\r"
        case 5:
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"yesterday\" endDate=\"today\" value=\"1\"/>\n"
        case 6:
            xml += " <Unknown\(i % 2) a=\"1\"><Child/></Unknown\(i % 2)>\n <VisionPrescription type=\"glasses\"/>\n"
        case 7:
            xml +=
                " <Record type=\"HKCategoryTypeIdentifierAppleStandHour\" sourceName=\"Watch\u{01}\" \(dates) value=\"HKCategoryValueAppleStandHourStood\">\n  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Berlin\"/>\n </Record>\n"
        case 8:
            xml +=
                " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" \(dates)>\n  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Paris\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" \(dates) sum=\"100\" unit=\"kcal\"/>\n </Workout>\n"
        case 9:
            xml +=
                " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health\" \(dates)>\n  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Health\" unit=\"mmHg\" \(dates) value=\"120\"/>\n </Correlation>\n"
        case 10:
            xml +=
                " <ActivitySummary dateComponents=\"2025-01-\(String(format: "%02d", 1 + i % 28))\" activeEnergyBurned=\"400\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleExerciseTime=\"x\"/>\n"
        default:
            xml +=
                "    \n\n <Record type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" sourceName=\"Phone\" unit=\"mi\" \(dates) value=\"0.5\"/>\n"
        }
    }
    xml += " <ExportDate value=\"2025-01-21 22:00:00 +0100\"/>\n"
    xml += "</HealthData>\n<!-- after the root -->\n<?pi-after?>\n"
    return xml
}

@Suite("Parallel reading equals the one-thread read")
struct ParallelReaderTests {
    @Test func aTrickyExportInEveryChunkAndSegmentSize() throws {
        let path = try temporaryFile(trickyExport())
        try expectParallelMatchesSerial(
            .path(path), chunkSizes: [1, 7, 4096, 512 * 1024], segmentSizes: [1, 64, 4096, 512 * 1024])
        // With tiny segments, every worker gets work (so the merge really merges).
        let p = try readParallel(.path(path), threads: 3, segmentSize: 1)
        #expect(p.busyWorkers >= 2)
        // The diagnostics name the file's lines: the first bad unit is on record 3's line.
        let serial = try readAll(.path(path))
        #expect(serial.summary.diagnostics.contains { $0.kind == .unknownUnit && $0.firstLine > 0 })
        #expect(serial.summary.elementCounts["HealthData"] == 1)
        #expect(p.summary.elementCounts["HealthData"] == 1)
        #expect(p.summary.exportDate == ts("2025-01-21 22:00:00 +0100"))  // the last ExportDate, as serially
    }

    /// `ReaderOptions.marksSegments`: every batch names its segment, each segment (numbered 0,
    /// 1, 2, ... with none skipped) ends with exactly one batch marked `endsSegment`, and the
    /// batches put in segment order hold the one-thread read's records in its document order.
    /// The tricky export in 1-byte segments (a segment per child of the root), 3 threads.
    @Test(arguments: [1, 3])
    func markedSegmentsPutTheBatchesBackInDocumentOrder(threads: Int) throws {
        let path = try temporaryFile(trickyExport())
        let serial = try readAll(.path(path))
        final class Log: @unchecked Sendable { var batches: [ExportBatch] = [] }  // one per worker
        let logs = (0..<threads).map { _ in Log() }
        let options = ReaderOptions(batchSize: 2, segmentSize: 1, marksSegments: true)
        _ = try ExportReader(options: options).read(.path(path), threads: threads) { worker in
            { batch in logs[worker].batches.append(batch) }
        }
        let batches = logs.flatMap(\.batches)
        let segments = Set(batches.map(\.segment))
        let ends = batches.filter(\.endsSegment).map(\.segment)
        if threads == 1 {
            // A one-thread read is one segment and marks nothing.
            #expect(segments == [0] && ends.isEmpty)
        } else {
            #expect(segments.count > 10 && segments == Set(0..<segments.count))
            #expect(ends.sorted() == Array(0..<segments.count), "one end mark per segment")
        }
        // Stable sort: a segment's batches keep their order (one worker read the segment).
        let ordered = batches.enumerated().sorted { ($0.element.segment, $0.offset) < ($1.element.segment, $1.offset) }
        let records = ordered.flatMap { $0.element.records.map(\.line) }
        #expect(records == serial.records.map(\.line) && records.count == serial.records.count)
    }

    @Test(arguments: [SyntheticExportConfiguration.Prolog.version14, .version12Malformed, .none])
    func generatedExports(prolog: SyntheticExportConfiguration.Prolog) throws {
        let (bytes, _) = SyntheticExport.makeExport(
            SyntheticExportConfiguration(firstDay: "2025-03-28", days: 2, prolog: prolog))
        let path = try temporaryFile(bytes)
        try expectParallelMatchesSerial(.path(path), chunkSizes: [4096, 512 * 1024], segmentSizes: [1, 512 * 1024])
        try expectParallelMatchesSerial(.path(path), chunkSizes: [7], segmentSizes: [64 * 1024], threads: [3])
    }

    @Test func generatedExportInAZip() throws {
        // The reading thread inflates; tiny segments, so that all workers share the export.
        let (bytes, _) = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2025-03-28", days: 2))
        let zip = try makeZip([("apple_health_export/export.xml", bytes)])
        try expectParallelMatchesSerial(.path(zip), chunkSizes: [4096, 512 * 1024], segmentSizes: [1, 512 * 1024])
        // A damaged zip: the same archive error as a serial read.
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: zip)))
        damaged.removeLast(damaged.count / 3)
        let path = try temporaryFile(damaged, name: "export.zip")
        var serialError: ExportReadError?
        do { _ = try readAll(.path(path)) } catch let e as ExportReadError { serialError = e }
        for t in [2, 3] {
            #expect(throws: serialError!) { try readParallel(.path(path), threads: t, segmentSize: 4096) }
        }
    }

    @Test(arguments: ["all-elements.xml", "ios16-malformed-dtd.xml"])
    func fixtures(name: String) throws {
        try expectParallelMatchesSerial(
            .path(fixture(name)), chunkSizes: [1, 7, 4096, 512 * 1024], segmentSizes: [1, 64, 512 * 1024])
    }

    @Test(
        .enabled(if: corpusAvailable, "../shared/corpus is not beside this clone; parallel corpus tests skipped"),
        arguments: [
            "healthkit-to-sqlite/tests/export.xml", "healthkit-to-sqlite/tests/zip_contents",
            "apple-health-parser/tests/data/export.xml", "aleksi-applehealth/testdata/testdata.xml",
        ])
    func corpusFiles(path: String) throws {
        try expectParallelMatchesSerial(
            .path(corpus(path)), chunkSizes: [1, 7, 4096, 512 * 1024], segmentSizes: [1, 64, 512 * 1024])
    }

    @Test func oneThreadIsTheSerialRead() throws {
        let path = try temporaryFile(trickyExport(records: 30))
        let serial = try readAll(.path(path), chunkSize: 7)
        let p = try readParallel(.path(path), threads: 1, chunkSize: 7)
        #expect(p.elements == serial.dump.sorted())
        #expect(canonical(p.summary) == canonical(serial.summary))
    }

    struct Stop: Error, Equatable {}

    @Test func aConsumerErrorStopsTheReadAndIsRethrown() throws {
        let path = try temporaryFile(trickyExport())
        #expect(throws: Stop()) {
            _ = try ExportReader(options: ReaderOptions(batchSize: 1, segmentSize: 1)).read(.path(path), threads: 2) {
                worker in
                { _ in if worker == 1 { throw Stop() } }
            }
        }
    }
}

@Suite("Parallel reading fails exactly as the one-thread read")
struct ParallelReaderErrorTests {
    /// Expects the same ExportReadError from every parallel read as from the serial one: every
    /// chunk size with small segments, and every segment size with 4 KiB chunks.
    func expectSameError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try temporaryFile(bytes)
        var serialError: ExportReadError?
        do {
            _ = try readAll(.path(path))
            Issue.record("the serial read must fail", sourceLocation: sourceLocation)
            return
        } catch let e as ExportReadError {
            serialError = e
        }
        #expect(!(serialError!.description.contains("\n")), "one line", sourceLocation: sourceLocation)
        let sizes = [(1, 64), (7, 64), (4096, 64), (512 * 1024, 64), (4096, 1), (4096, 512 * 1024)]
        for t in [2, 3, 4] {
            for (chunk, segment) in sizes {
                do {
                    _ = try readParallel(.path(path), threads: t, chunkSize: chunk, segmentSize: segment)
                    Issue.record(
                        "threads \(t), chunk \(chunk), segment \(segment): must fail", sourceLocation: sourceLocation)
                } catch let e as ExportReadError {
                    #expect(
                        e == serialError, "threads \(t), chunk \(chunk), segment \(segment)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    func expectSameError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectSameError(Array(text.utf8), sourceLocation: sourceLocation)
    }

    var tricky: String { trickyExport() }

    @Test func truncatedExactlyBetweenTwoRecords() throws {
        // Keep the first 100 lines: the cut is right after a record's end tag and its newline.
        let lines = tricky.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(100).joined(separator: "\n") + "\n"
        try expectSameError(cut)
        // And without the newline, right after the '>'.
        let text = tricky
        let end = text.range(
            of: "/>", options: .backwards,
            range: text.startIndex..<text.index(text.startIndex, offsetBy: text.count / 2))!
        try expectSameError(String(text[..<end.upperBound]))
    }

    @Test func truncatedInTheMiddleOfARecord() throws {
        let text = tricky
        try expectSameError(String(text.prefix(text.count * 2 / 3)))
        try expectSameError(String(text.prefix(text.count - 20)))  // inside </HealthData> or the comment after it
    }

    @Test func mismatchedTags() throws {
        try expectSameError(tricky.replacingOccurrences(of: "value=\"60\"/>", with: "value=\"60\"></Workout>"))
        // An extra end tag early: the splitter sees the root end there, then a record.
        try expectSameError(tricky.replacingOccurrences(of: "</Correlation>", with: "</Correlation></Record>"))
    }

    @Test func badAttributeSyntax() throws {
        let text = tricky
        let i = text.range(of: "sourceName=\"Phone\"", options: .backwards)!
        try expectSameError(text.replacingCharacters(in: i, with: "sourceName=Phone"))
        // A raw '<' in a value, and an unclosed quote.
        try expectSameError(tricky.replacingOccurrences(of: "value=\"a>b'c/>\"", with: "value=\"a<b\""))
        let j = text.range(of: "value=\"0.5\"", options: .backwards)!
        try expectSameError(text.replacingCharacters(in: j, with: "value=\"0.5"))
        // Broken markup in the root's start tag.
        try expectSameError(
            tricky.replacingOccurrences(of: "<HealthData locale=\"de_DE\">", with: "<HealthData locale=de_DE>"))
    }

    @Test func unclosedCommentInTheMiddle() throws {
        let text = tricky
        let i = text.range(of: "<ActivitySummary")!
        try expectSameError(text.replacingCharacters(in: i, with: "<!-- never closed <ActivitySummary"))
    }

    /// The workers' rewriter makes short tokens, which would move a later error on the same line
    /// to the left; the parallel read must still name the file's column, as the one-thread read
    /// does. The inserted line follows the indentation of `<ActivitySummary`'s line, so it starts
    /// with two spaces; before `count` stand 2 + 7 ("<Record") + 41 (` type="…StepCount"`: 1 + 4
    /// + 1 + 1 + 33 + 1) + 27 (` sourceName="Alex’s iPhone"`: 1 + 10 + 1 + 1 + 13 + 1) + 52
    /// (` device="…"`: 1 + 6 + 1 + 1 + 42 + 1) + 6 (` unit=`) = 135 characters, so libxml2's
    /// "AttValue: \" or ' expected" is at column 136.
    @Test func anErrorAfterADeviceValueIsAtTheFilesColumn() throws {
        let broken =
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Alex\u{2019}s iPhone\""
            + " device=\"&lt;&lt;HKDevice: 0x1&gt;, name:iPhone&gt;\" unit=count value=\"5\"/>\n"
        var text = tricky
        text.insert(contentsOf: broken, at: text.range(of: "<ActivitySummary")!.lowerBound)
        try expectSameError(text)
        let path = try temporaryFile(text)
        do {
            _ = try readParallel(.path(path), threads: 2, segmentSize: 64)
            Issue.record("the parallel read must fail")
        } catch let ExportReadError.notWellFormed(_, line, column, message, _) {
            #expect(column == 136 && message == "AttValue: \" or ' expected", "line \(line)")
        }
    }

    @Test func garbageAfterTheRoot() throws {
        try expectSameError(tricky + "<Record/>\n")
        try expectSameError(tricky + "junk\n")
        try expectSameError(tricky + "</HealthData>\n")
    }

    @Test func emptyNotXMLAndOtherRoots() throws {
        try expectSameError([UInt8]())
        try expectSameError("date,steps\n2025-01-01,1000\n")
        try expectSameError(
            "<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><a/></ClinicalDocument>\n")
        try expectSameError("<?xml version=\"1.0\"?>\n<!DOCTYPE Other [ <!ELEMENT Other ANY> ]>\n<Other/>\n")
        try expectSameError("<?xml version=\"1.0\"?>\n")
        try expectSameError([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    }
}

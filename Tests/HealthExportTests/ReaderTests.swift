import Foundation
import HealthExport
import Testing

@Suite("Reading every element kind")
struct ElementTests {
    let r: ReadResult

    init() throws {
        r = try readAll(.path(fixture("all-elements.xml")))
    }

    @Test func readsTheHeader() {
        // 2025-01-20 22:00:00 +0100 = 21:00 UTC; 2025-01-20 is day 20 108 → 20 108 × 86 400 + 75 600.
        #expect(r.summary.exportDate == Timestamp(secondsSince1970: 20_108 * 86_400 + 75_600))
        #expect(r.summary.exportDate?.printedOffsetSeconds == 3600)
        #expect(r.summary.exportVersion == 14)
        #expect(r.summary.locale == "en_US")
        #expect(r.summary.droppedDoctype)
        #expect(r.summary.me?.bloodType == "HKBloodTypeONegative")
        #expect(r.summary.me?.cardioFitnessMedicationsUse == "None")
    }

    @Test func countsRecordsAndFlagsTheOnesNestedInACorrelation() {
        // 19 <Record> start tags; 3 are skipped (bad date, non-numeric, unknown unit) → 16 top-level,
        // and the 2 inside the Correlation are delivered flagged.
        #expect(r.topLevelRecords.count == 16)
        let nested = r.records.filter { $0.isNestedInCorrelation }.map { $0.type }
        #expect(
            nested == [
                "HKQuantityTypeIdentifierBloodPressureDiastolic", "HKQuantityTypeIdentifierBloodPressureSystolic",
            ])
        #expect(r.correlations.count == 1)
        #expect(r.correlations[0].records.count == 2)
        #expect(r.correlations[0].records.allSatisfy { $0.isNestedInCorrelation })
        #expect(r.correlations[0].metadata == [MetadataEntry(key: "HKWasUserEntered", value: "1")])
        #expect(r.summary.elementCounts["Record"] == 21)
    }

    @Test func decodesAQuantityRecordWithDeviceAndMetadata() throws {
        let hr = try #require(r.records.first)
        #expect(hr.type == "HKQuantityTypeIdentifierHeartRate")
        #expect(hr.quantity == Quantity(value: 61, unit: .countPerMinute, originalValue: 61, originalUnit: "count/min"))
        #expect(hr.sourceName == "Alex\u{2019}s Apple Watch")
        #expect(hr.sourceVersion == "11.2")
        #expect(hr.device?.hardware == "Watch7,2")
        #expect(hr.device?.creationDate == "2025-08-14 23:49:07 +0000")
        // 2025-01-10 08:00:00 +0100 = 07:00 UTC; 2025-01-10 is day 20 098 → 20 098 × 86 400 + 25 200.
        #expect(hr.startDate.secondsSince1970 == 1_736_492_400)
        #expect(hr.creationDate?.secondsSince1970 == 1_736_492_405)
        #expect(hr.metadata == [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "1")])
        #expect(hr.line == 16)
        // Records naming the same device share one Device object (parsed once).
        #expect(r.records[1].device === hr.device)
    }

    @Test func keepsTheHRVBeats() {
        let hrv = r.records[1]
        #expect(hrv.quantity?.value == 48.5 / 60_000)  // ms → minutes, the canonical time unit
        #expect(hrv.quantity?.originalValue == 48.5)
        #expect(
            hrv.heartbeats == [
                InstantaneousBeatsPerMinute(bpm: 95, time: "6:14:48.94 PM"),
                InstantaneousBeatsPerMinute(bpm: 97, time: "6:14:49.56 PM"),
            ])
    }

    @Test func convertsUnitsAndKeepsTheOriginal() {
        func q(_ type: String) -> Quantity? { r.topLevelRecords.first { $0.type == type }?.quantity }
        #expect(abs(q("HKQuantityTypeIdentifierBodyTemperature")!.value - 37.0) < 1e-9)  // (98.6 − 32) × 5/9
        #expect(q("HKQuantityTypeIdentifierOxygenSaturation")?.value == 0.97)
        #expect(abs(q("HKQuantityTypeIdentifierBloodGlucose")!.value - 99.0858) < 1e-9)  // 5.5 × 18.0156
        #expect(q("HKQuantityTypeIdentifierBloodGlucose")?.originalUnit == "mmol<180.15588000005408>/L")
        #expect(q("HKQuantityTypeIdentifierDistanceWalkingRunning")?.value == 0.5 * 1.609344)
        #expect(abs(q("HKQuantityTypeIdentifierActiveEnergyBurned")!.value - 100) < 1e-9)  // 418.4 kJ / 4.184
        #expect(q("HKQuantityTypeIdentifierStepCount")?.value == 1200)
    }

    @Test func mapsCategoryValues() {
        let values = r.topLevelRecords.compactMap { $0.categoryValue }
        #expect(
            values == [
                .sleepAnalysis(.asleepUnspecified),  // the pre-iOS 16 "Asleep"
                .appleStandHour(stood: true), .appleStandHour(stood: false), .notApplicable,
                .other("HKCategoryValueSeverityMild"),
            ])
        #expect(
            r.topLevelRecords.first { $0.type == "HKCategoryTypeIdentifierSleepAnalysis" }?.timeZoneIdentifier
                == "Europe/Berlin")
    }

    @Test func decodesEntitiesInAttributeValues() {
        #expect(r.topLevelRecords.contains { $0.sourceName == "Thermo & Co" })
        #expect(r.topLevelRecords.contains { $0.device?.name == "Polar H10, 1234" })
    }

    @Test func manualEntriesAreRecognized() {
        #expect(r.topLevelRecords.filter(\.wasUserEntered).count == 2)
    }

    @Test func readsAWorkoutInTheCurrentShape() throws {
        let w = try #require(r.workouts.first)
        #expect(w.activityType == "HKWorkoutActivityTypeRunning")
        #expect(w.durationMinutes == 30.5)
        // No total attributes: the totals come from the workout's own statistics (310.5 Cal, 3.1 mi),
        // not from the WorkoutActivity's 150 Cal sub-total.
        #expect(w.totalEnergyBurnedKcal == 310.5)
        #expect(w.totalDistanceKm == 3.1 * 1.609344)
        #expect(w.timeZoneIdentifier == "Europe/Berlin")
        #expect(
            w.events.map(\.type) == [
                "HKWorkoutEventTypePause", "HKWorkoutEventTypeResume", "HKWorkoutEventTypeSegment",
            ])
        #expect(w.events[2].durationMinutes == 10)  // 600 s
        #expect(w.events[2].metadata == [MetadataEntry(key: "HKSWOLFScore", value: "35")])
        #expect(w.statistics.count == 3)
        let hr = try #require(w.statistics(for: "HKQuantityTypeIdentifierHeartRate"))
        #expect((hr.average, hr.minimum, hr.maximum, hr.sum) == (151.2, 98, 172, nil))
        #expect(w.activities.count == 1)
        #expect(w.activities[0].statistics.first?.sum == 150)
        #expect(w.activities[0].events.map(\.type) == ["HKWorkoutEventTypeLap"])
        #expect(w.activities[0].metadata.count == 1)
        #expect(w.routes.first?.filePaths == ["/workout-routes/route_2025-01-12_8.00am.gpx"])
        #expect(w.routes.first?.metadata.count == 1)
        #expect(w.metadata.count == 3)
    }

    @Test func readsActivitySummariesInEveryUnitAndAttributeGeneration() throws {
        let a = try #require(r.activitySummaries.first)
        #expect(a.date == CivilDate(year: 2025, month: 1, day: 11))
        #expect(abs(a.activeEnergyBurnedKcal! - 500) < 1e-9)  // 2092 kJ / 4.184
        #expect(a.activeEnergyBurnedUnit == "kJ")
        #expect(a.appleExerciseTimeMinutes == 32)
        #expect(a.appleStandHours == 9)
        #expect(a.appleStandHoursGoal == 12)
        #expect(!a.isMoveTimeMode)
        let b = r.activitySummaries[1]
        #expect(b.appleMoveTimeMinutes == 45)  // from the iOS 13 appleMoveMinutes attribute
        #expect(b.isMoveTimeMode)
    }

    @Test func readsClinicalRecordsAndAudiograms() {
        #expect(r.clinicalRecords.first?.resourceFilePath == "/clinical-records/Observation-obs-1.json")
        #expect(r.clinicalRecords.first?.fhirVersion == "4.0.1")
        #expect(
            r.audiograms.first?.sensitivityPoints == [
                SensitivityPoint(frequencyHz: 250, leftEarDBHL: 35.0459, rightEarDBHL: 20.0452),
                SensitivityPoint(frequencyHz: 1000, leftEarDBHL: 15, rightEarDBHL: nil),
            ])
    }

    @Test func countsElementsItDoesNotModel() {
        #expect(r.summary.unmodeledElementCounts == ["VisionPrescription": 1, "RightEye": 1, "StateOfMind": 1])
    }

    @Test func skipsBadRecordsWithADiagnosticNamingTheLine() {
        #expect(
            r.summary.diagnostics.map(\.description) == [
                "1 × bad date: HKQuantityTypeIdentifierStepCount startDate='2025-01-11 25:00:00 +0100' (first at line 44)",
                "1 × non-numeric value: value='ten' on HKQuantityTypeIdentifierStepCount (first at line 45)",
                "1 × unknown unit: unit 'furlong' on HKQuantityTypeIdentifierStepCount (first at line 46)",
            ])
        #expect(r.summary.timeZoneCounts == ["Europe/Berlin": 2])
        #expect(r.summary.mostFrequentTimeZone == "Europe/Berlin")
    }
}

@Suite("Chunk boundaries")
struct ChunkTests {
    /// Chunk boundaries are where SAX bugs live: every chunk size must give the same elements.
    @Test(arguments: [1, 7, 4096, Int.max])
    func identicalResultsAtEveryChunkSize(chunk: Int) throws {
        for name in ["all-elements.xml", "ios16-malformed-dtd.xml"] {
            let whole = try readAll(.path(fixture(name)), chunkSize: 1 << 24)
            let chunked = try readAll(.path(fixture(name)), chunkSize: min(chunk, 1 << 24))
            #expect(chunked.dump == whole.dump)
            #expect(chunked.summary.diagnostics == whole.summary.diagnostics)
            #expect(chunked.summary.exportVersion == whole.summary.exportVersion)
            #expect(chunked.summary.elementCounts == whole.summary.elementCounts)
        }
    }

    @Test func batchesAddUpToTheWholeExport() throws {
        let small = try readAll(.path(fixture("all-elements.xml")), batchSize: 2)
        let big = try readAll(.path(fixture("all-elements.xml")))
        #expect(small.batches > 5)
        #expect(big.batches == 1)
        #expect(small.dump == big.dump)
    }
}

@Suite("The byte pre-filter")
struct PreFilterTests {
    @Test func parsesAnExportWithTheMalformedIOS16DTD() throws {
        // The fixture carries the Version 12 defects of docs/export-format.md §6 (unterminated ATTLIST
        // VisionPrescription, stray "device CDATA #IMPLIED" line, duplicate MetadataEntry
        // declaration, extra ">" before "]>"); plain libxml2 delivers zero elements on it.
        let r = try readAll(.path(fixture("ios16-malformed-dtd.xml")))
        #expect(r.summary.exportVersion == 12)
        #expect(r.records.count == 3)
        #expect(r.workouts.count == 1)
        #expect(r.activitySummaries.count == 1)
        // The dropped DOCTYPE is replaced by its newlines: line numbers are the file's own.
        #expect(r.records.map(\.line) == [72, 73, 74])
        #expect(r.workouts[0].events.count == 1)
    }

    @Test func controlCharactersAreDeletedNotTruncatingTheValue() throws {
        let xml = export(
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Bad\u{0B}App\u{01}\" unit=\"count\" startDate=\"2025-01-11 10:00:00 +0100\" endDate=\"2025-01-11 10:10:00 +0100\" value=\"42\"/>\n"
        )
        let r = try readAll(.path(temporaryFile(xml)))
        #expect(r.records.map(\.sourceName) == ["BadApp"])
        #expect(r.records.first?.quantity?.value == 42)
        #expect(r.summary.removedControlCharacters == 2)
        #expect(r.summary.diagnostics.map(\.kind) == [.controlCharactersRemoved])
        #expect(r.summary.diagnostics.first?.count == 2)
    }

    @Test func aDoctypeWithoutHealthDataIsNotAnExport() throws {
        // 22 + 17 + 20 + 3 + 8 = 70 bytes, every line with its newline.
        let path = try temporaryFile("<?xml version=\"1.0\"?>\n<!DOCTYPE note [\n<!ELEMENT note ANY>\n]>\n<note/>\n")
        #expect(
            throws: ExportReadError.notHealthExport(
                input: path,
                reason: "no <HealthData> element follows its DOCTYPE before the file ends (after 70 bytes): it is"
                    + " truncated, or not an Apple Health export; export again from the Health app")
        ) {
            try readAll(.path(path))
        }
    }
}

@Suite("Bad input")
struct BadInputTests {
    @Test func aTruncatedFileFailsWithItsLineNumber() throws {
        let full = try String(contentsOfFile: fixture("all-elements.xml"), encoding: .utf8)
        // Cut in the middle of the Workout (line 53 starts it; keep 60 lines).
        let cut =
            full.split(separator: "\n", omittingEmptySubsequences: false).prefix(60).joined(separator: "\n") + "\n"
        let path = try temporaryFile(cut)
        do {
            _ = try readAll(.path(path))
            Issue.record("a truncated export must not read as complete")
        } catch let ExportReadError.notWellFormed(input, line, _, message, elementsRead) {
            #expect(input == path)
            #expect(line == 60)  // the last line of the cut file, where the data ends
            #expect(message.contains("Premature end of data") || message.contains("end"))
            #expect(elementsRead == 19)  // 16 top-level records + 2 nested + the correlation; the workout was cut
        }
    }

    /// A cut inside a value: libxml2 waits for the rest of the tag and reports its error only at
    /// the last feed, standing at the end of the bytes, so the read calls it truncated, where the
    /// bytes end. Lines 1-3 hold the XML declaration, `<HealthData>` and `<ExportDate>`; the cut
    /// record is line 4: ` <Record type="HKQuantityTypeIdentifierSt` is 1 + 7 + 1 + 4 + 1 + 1 +
    /// 26 = 41 characters, so libxml2 stands at column 42. The same record broken but followed
    /// by more bytes (`brokenMarkupNamesLineAndColumn`) stays "not well-formed".
    @Test func aCutInsideAValueIsCalledTruncatedWhereTheBytesEnd() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n <Record type=\"HKQuantityTypeIdentifierSt"
        let path = try temporaryFile(text)
        do {
            _ = try readAll(.path(path))
            Issue.record("a cut export must fail")
        } catch let e as ExportReadError {
            guard case .truncated(_, let line, let column, _, _) = e else {
                Issue.record("expected .truncated, got \(e)")
                return
            }
            #expect(line == 4 && column == 42, "\(line):\(column)")
            #expect(e.description.contains("the export is truncated: it ends before </HealthData>"))
        }
    }

    /// A file that ends inside its DOCTYPE (a copy cut after a few KB) is called truncated, not
    /// "not followed by a <HealthData> element within 1 MiB". Its bytes: the declaration (38) and
    /// `<!DOCTYPE HealthData [` (22), each with a newline, and `<!ELEMENT HealthData (ExportDate`
    /// (32): 39 + 23 + 32 = 94.
    @Test func aCutInsideTheDOCTYPEIsCalledThat() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate"
        let path = try temporaryFile(text)
        #expect(text.utf8.count == 94)
        #expect(
            throws: ExportReadError.notHealthExport(
                input: path,
                reason: "no <HealthData> element follows its DOCTYPE before the file ends (after 94 bytes): it is"
                    + " truncated, or not an Apple Health export; export again from the Health app")
        ) { try readAll(.path(path)) }
    }

    @Test func brokenMarkupNamesLineAndColumn() throws {
        let path = try temporaryFile(export(" <Record type=\"x\" sourceName=\"y\"\n  <Oops/>\n"))
        do {
            _ = try readAll(.path(path))
            Issue.record("broken markup must fail")
        } catch let ExportReadError.notWellFormed(_, line, column, _, _) {
            // Line 4 opens a Record start tag that line 5 breaks with a new '<': libxml2 stops at
            // that '<', the third character of "  <Oops/>".
            #expect(line == 5)
            #expect(column == 3)
        }
    }

    @Test func anEmptyFileFailsClearly() throws {
        let path = try temporaryFile([UInt8]())
        #expect(throws: ExportReadError.empty(input: path)) { try readAll(.path(path)) }
        #expect(ExportReadError.empty(input: path).description.contains("the file is empty"))
    }

    @Test func aFileThatIsNotXMLFailsClearly() throws {
        let path = try temporaryFile("date,steps\n2025-01-01,1000\n", name: "steps.csv")
        do {
            _ = try readAll(.path(path))
            Issue.record("CSV must not read as an export")
        } catch let e as ExportReadError {
            guard case .notXML(let input, let line, _, _) = e else {
                Issue.record("expected notXML, got \(e)")
                return
            }
            #expect(input == path)
            #expect(line == 1)
            #expect(e.description.contains("not an XML document"))
        }
    }

    @Test func otherXMLIsNotAnExport() throws {
        let path = try temporaryFile("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>\n")
        #expect(
            throws: ExportReadError.notHealthExport(
                input: path, reason: "the root element is <ClinicalDocument>, not <HealthData>")
        ) {
            try readAll(.path(path))
        }
    }

    @Test func aMissingFileFails() {
        #expect(
            throws: ExportReadError.cannotOpen(path: "/nonexistent/export.xml", reason: "No such file or directory")
        ) {
            try readAll(.path("/nonexistent/export.xml"))
        }
    }

    @Test func aQuantityWithoutUnitIsSkippedWithItsLine() throws {
        let xml = export(
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"a\" startDate=\"2025-01-11 10:00:00 +0100\" endDate=\"2025-01-11 10:10:00 +0100\" value=\"50\"/>\n"
                + " <Record type=\"HKDataTypeSleepDurationGoal\" sourceName=\"Health\" startDate=\"2025-01-11 00:00:00 +0100\" endDate=\"2025-01-11 00:00:00 +0100\" value=\"8\"/>\n"
        )
        let r = try readAll(.path(temporaryFile(xml)))
        // Line 1 is the XML declaration, 2 HealthData, 3 ExportDate, 4 the step record.
        #expect(
            r.summary.diagnostics.map(\.description) == [
                "1 × missing attribute: HKQuantityTypeIdentifierStepCount with a value but no unit (first at line 4)"
            ])
        // Types that are neither quantities nor categories keep their value as text.
        #expect(r.records.map(\.value) == [.none("8")])
    }

    struct Stop: Error, Equatable {}

    @Test func aConsumerErrorStopsTheReadAndIsRethrown() throws {
        var seen = 0
        #expect(throws: Stop()) {
            _ = try ExportReader(options: ReaderOptions(batchSize: 1)).read(.path(fixture("all-elements.xml"))) { _ in
                seen += 1
                if seen == 3 { throw Stop() }
            }
        }
        #expect(seen == 3)
    }
}

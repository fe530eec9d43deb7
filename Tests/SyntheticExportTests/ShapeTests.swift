import SyntheticExport
import Testing

@Suite("Document shape")
struct ShapeTests {
    static func text(_ config: SyntheticExportConfiguration) -> String {
        String(decoding: SyntheticExport.makeExport(config).bytes, as: UTF8.self)
    }

    @Test func version14PrologIsWellFormedInternalDTD() throws {
        let text = String(decoding: Fixtures.spring.bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 14 -->\n"
            ))
        let dtd = String(text[..<text.range(of: "]>\n<HealthData locale=\"en_US\">\n")!.lowerBound])
        #expect(Fixtures.spring.truth.exportVersion == 14)
        // Every ATTLIST is closed by a ">" line before the next declaration starts.
        let lines = dtd.split(separator: "\n", omittingEmptySubsequences: false)
        var open = false
        for line in lines {
            if line.hasPrefix("<!") { #expect(!open, "unclosed ATTLIST before: \(line)") }
            if line.hasPrefix("<!ATTLIST") { open = true }
            if line == ">" { open = false }
            if !line.hasPrefix("<") && line != ">" && !line.isEmpty {
                #expect(line.hasPrefix("  ") && (line.hasSuffix("#REQUIRED") || line.hasSuffix("#IMPLIED")))
            }
        }
        #expect(dtd.components(separatedBy: "<!ELEMENT MetadataEntry EMPTY>").count == 2)
        for element in [
            "HealthData", "Record", "Workout", "WorkoutStatistics", "ActivitySummary", "VisionPrescription", "RightEye",
            "LeftEye",
        ] {
            #expect(dtd.contains("<!ELEMENT \(element) "))
        }
        #expect(dtd.contains("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED"))
        #expect(lines.count > 200)
    }

    /// The iOS 16 defects of docs/export-format.md §6.
    @Test func version12PrologHasTheIOS16Defects() throws {
        let text = Self.text(SyntheticExportConfiguration(firstDay: "2026-03-27", days: 1, prolog: .version12Malformed))
        #expect(text.contains("<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 12 -->\n"))
        // 1. ATTLIST VisionPrescription not closed: its last attribute line runs straight into RightEye.
        let vision = try #require(text.range(of: "<!ATTLIST VisionPrescription\n"))
        let rightEye = try #require(text.range(of: "<!ELEMENT RightEye EMPTY>"))
        let between = text[vision.upperBound..<rightEye.lowerBound]
        #expect(!between.contains(">"))
        #expect(between.contains("expirationDate CDATA #REQUIRED"))
        // 2.–4. stray device line, duplicate MetadataEntry declaration, extra ">" before "]>".
        let tail = String(text[rightEye.upperBound..<text.range(of: "<HealthData locale")!.lowerBound])
        #expect(tail.contains("\n  device CDATA #IMPLIED\n<!ELEMENT MetadataEntry EMPTY>\n"))
        #expect(text.components(separatedBy: "<!ELEMENT MetadataEntry EMPTY>").count == 3)
        #expect(tail.hasSuffix(">\n>\n]>\n"))
        // The v12 content differences: Me without medications, Workout without statistics.
        #expect(!text.contains("CardioFitnessMedicationsUse CDATA"))
        #expect(text.contains("<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute)*)>"))
        // The body is the same as with the v14 prolog.
        let v14 = Self.text(SyntheticExportConfiguration(firstDay: "2026-03-27", days: 1))
        #expect(text[text.range(of: "<HealthData")!.lowerBound...] == v14[v14.range(of: "<HealthData")!.lowerBound...])
    }

    @Test func noProlog() {
        let text = Self.text(SyntheticExportConfiguration(firstDay: "2026-03-27", days: 1, prolog: .none))
        #expect(
            text.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\""))
    }

    @Test func tagsBalanceAndStructureIsApples() throws {
        let e = Fixtures.springElements  // parsing throws on unbalanced tags
        #expect(e[0].name == "HealthData" && e[1].name == "ExportDate" && e[2].name == "Me")
        #expect(e[2]["HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse"] == "None")
        // Order: Records, then Correlations, then Workouts, then ActivitySummaries.
        let topNames = e.filter { $0.depth == 1 }.map(\.name)
        let order = ["ExportDate", "Me", "Record", "Correlation", "Workout", "ActivitySummary"]
        let ranks = topNames.map { order.firstIndex(of: $0)! }
        #expect(ranks == ranks.sorted())
        // Records grouped by type: each type's records are contiguous.
        let types = e.filter { $0.depth == 1 && $0.name == "Record" }.map { $0["type"]! }
        var seen: Set<String> = []
        for (i, t) in types.enumerated() where i == 0 || types[i - 1] != t {
            #expect(seen.insert(t).inserted, "\(t) not contiguous")
        }
        #expect(seen.count == 14)
    }

    /// Apple's attribute order and one-space indentation per level.
    @Test func recordLinesLookLikeApples() throws {
        let text = String(decoding: Fixtures.spring.bytes, as: UTF8.self)
        let line = try #require(
            text.split(separator: "\n").first {
                $0.hasPrefix(
                    " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Alex\u{2019}s Apple Watch\""
                )
            })
        let keys = line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 0 }.map {
            $0.element.trimmingCharacters(in: .whitespaces)
        }
        #expect(
            Array(keys.prefix(9)) == [
                "<Record type=", "sourceName=", "sourceVersion=", "device=", "unit=", "creationDate=", "startDate=",
                "endDate=", "value=",
            ])
        #expect(line.contains("device=\"&lt;&lt;HKDevice: 0x"))
        #expect(
            line.contains(
                "&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,2, software:11.1&gt;\""))
        #expect(
            text.contains("\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n </Record>\n"))
        #expect(text.contains("\n  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\""))
        #expect(text.contains("sourceName=\"Alex\u{2019}s iPhone\""))
        #expect(text.contains("<FileReference path=\"/workout-routes/route_2026-03-29_"))
    }

    /// The HKDevice address changes from record to record, as in real exports.
    @Test func deviceAddressesDiffer() {
        let devices = Fixtures.springElements.compactMap { $0["device"] }.prefix(500)
        #expect(devices.count == 500)
        #expect(Set(devices).count == 500)
        for d in devices { #expect(d.hasPrefix("<<HKDevice: 0x") && d.hasSuffix(">")) }
    }

    /// Correlation children are also top-level records (Apple's own DTD comment).
    @Test func bloodPressureChildrenAlsoAppearTopLevel() throws {
        let e = Fixtures.springElements
        let children = e.filter { $0.name == "Record" && $0.parent == "Correlation" }
        #expect(children.count == 2)
        for c in children {
            #expect(
                e.contains {
                    $0.depth == 1 && $0["type"] == c["type"] && $0["startDate"] == c["startDate"]
                        && $0["value"] == c["value"]
                })
        }
        #expect(Fixtures.spring.truth.days.map(\.bloodPressureReadings) == [0, 0, 0, 1])
    }
}

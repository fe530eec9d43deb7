/// The internal DTDs written after the XML declaration.
///
/// Version 14 is reconstructed from docs/export-format.md §5 (Apple's declarations, one attribute per
/// line as the exporter lays them out). Version 12 reproduces the iOS 16 defects of docs/export-format.md §6
/// and the v12 content-model differences of docs/export-format.md §5.
enum PrologText {
    static func text(_ prolog: SyntheticExportConfiguration.Prolog) -> String {
        switch prolog {
        case .version14: return version14
        case .version12Malformed: return version12Malformed
        case .none: return ""
        }
    }

    static func exportVersion(_ prolog: SyntheticExportConfiguration.Prolog) -> Int? {
        switch prolog {
        case .version14: return 14
        case .version12Malformed: return 12
        case .none: return nil
        }
    }

    // MARK: Shared pieces

    private static func attlist(_ element: String, _ attributes: [(String, String)]) -> String {
        let width = attributes.map(\.0.count).max() ?? 0
        var s = "<!ATTLIST \(element)\n"
        for (name, decl) in attributes {
            s += "  \(name)\(String(repeating: " ", count: width - name.count + 1))\(decl)\n"
        }
        return s + ">\n"
    }

    private static let req = "CDATA #REQUIRED"
    private static let imp = "CDATA #IMPLIED"

    private static let eyeAttributes: [(String, String)] = [
        "sphere", "sphereUnit", "cylinder", "cylinderUnit", "axis", "axisUnit", "add", "addUnit",
        "vertex", "vertexUnit", "prismAmount", "prismAmountUnit", "prismAngle", "prismAngleUnit",
        "farPD", "farPDUnit", "nearPD", "nearPDUnit", "baseCurve", "baseCurveUnit", "diameter",
        "diameterUnit",
    ].map { ($0, imp) }

    private static func meAttributes(withMedications: Bool) -> [(String, String)] {
        var a: [(String, String)] = [
            ("HKCharacteristicTypeIdentifierDateOfBirth", req),
            ("HKCharacteristicTypeIdentifierBiologicalSex", req),
            ("HKCharacteristicTypeIdentifierBloodType", req),
            ("HKCharacteristicTypeIdentifierFitzpatrickSkinType", req),
        ]
        if withMedications { a.append(("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", req)) }
        return a
    }

    private static let recordAttributes: [(String, String)] = [
        ("type", req), ("unit", imp), ("value", imp), ("sourceName", req), ("sourceVersion", imp),
        ("device", imp), ("creationDate", imp), ("startDate", req), ("endDate", req),
    ]
    private static let sampleAttributes: [(String, String)] = [
        ("sourceName", req), ("sourceVersion", imp), ("device", imp), ("creationDate", imp),
        ("startDate", req), ("endDate", req),
    ]

    private static func workoutStatistics(withUnit: Bool) -> [(String, String)] {
        var a: [(String, String)] = [
            ("type", req), ("startDate", req), ("endDate", req), ("average", imp), ("minimum", imp),
            ("maximum", imp), ("sum", imp),
        ]
        if withUnit { a.append(("unit", imp)) }
        return a
    }

    private static let sensitivityPoint: [(String, String)] = [
        ("frequencyValue", req), ("frequencyUnit", req), ("leftEarValue", imp), ("leftEarUnit", imp),
        ("leftEarMasked", imp), ("leftEarClampingRangeLowerBound", imp),
        ("leftEarClampingRangeUpperBound", imp), ("rightEarValue", imp), ("rightEarUnit", imp),
        ("rightEarMasked", imp), ("rightEarClampingRangeLowerBound", imp),
        ("rightEarClampingRangeUpperBound", imp),
    ]

    // MARK: Version 14

    static let version14: String = {
        var s = declarations(exportVersion: 14)
        s += "<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>\n"
        s += attlist("Audiogram", [("type", req)] + sampleAttributes)
        s += "<!ELEMENT SensitivityPoint EMPTY>\n" + attlist("SensitivityPoint", sensitivityPoint)
        s += "<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>\n"
        s += visionPrescription(expirationDate: imp)
        s += eyesAndAttachment
        return s + "]>\n"
    }()

    // MARK: Version 12 (iOS 16), malformed

    /// As iOS 16 wrote it: no Audiogram in the HealthData list, `Me` without
    /// CardioFitnessMedicationsUse, no WorkoutStatistics in the Workout model, `WorkoutEvent`
    /// EMPTY, WorkoutStatistics without `unit`, `expirationDate` required — and the defects:
    /// the VisionPrescription ATTLIST runs into `<!ELEMENT RightEye EMPTY>` without its `>`,
    /// then after the last ATTLIST a stray `  device CDATA #IMPLIED` line, a second
    /// MetadataEntry declaration and an extra `>` line before `]>`.
    static let version12Malformed: String = {
        var s = declarations(exportVersion: 12)
        s += "<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>\n"
        // Defect 1: the ATTLIST is not closed; the next declaration starts inside it.
        var vision = visionPrescription(expirationDate: req)
        vision.removeLast(2)  // drop ">\n"
        s += vision
        s += eyesAndAttachment
        // Defect 2: a stray attribute line after the last ATTLIST.
        s += "  device CDATA #IMPLIED\n"
        // Defect 3: MetadataEntry declared a second time.
        s += "<!ELEMENT MetadataEntry EMPTY>\n" + attlist("MetadataEntry", [("key", req), ("value", req)])
        // Defect 4: an extra ">" before the end of the internal subset.
        s += ">\n"
        return s + "]>\n"
    }()

    /// The declarations of both versions, from the DOCTYPE line to ClinicalRecord's ATTLIST.
    /// Version 12 has no Audiogram in the HealthData list, `Me` without
    /// CardioFitnessMedicationsUse, no WorkoutStatistics in the Workout model, `WorkoutEvent`
    /// EMPTY and WorkoutStatistics without `unit` (docs/export-format.md §5).
    private static func declarations(exportVersion: Int) -> String {
        let is14 = exportVersion == 14
        var s = "<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: \(exportVersion) -->\n"
        let audiogram = is14 ? "|Audiogram" : ""
        s +=
            "<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord\(audiogram)|VisionPrescription)*)>\n"
        s += attlist("HealthData", [("locale", req)])
        s += "<!ELEMENT ExportDate EMPTY>\n" + attlist("ExportDate", [("value", req)])
        s += "<!ELEMENT Me EMPTY>\n" + attlist("Me", meAttributes(withMedications: is14))
        s += "<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>\n"
        s += attlist("Record", recordAttributes)
        s +=
            "<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->\n"
        s += "<!ELEMENT Correlation ((MetadataEntry|Record)*)>\n"
        s += attlist("Correlation", [("type", req)] + sampleAttributes)
        let statistics = is14 ? "|WorkoutStatistics" : ""
        s += "<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute\(statistics))*)>\n"
        s += attlist(
            "Workout",
            [
                ("workoutActivityType", req), ("duration", imp), ("durationUnit", imp),
                ("totalDistance", imp), ("totalDistanceUnit", imp), ("totalEnergyBurned", imp),
                ("totalEnergyBurnedUnit", imp),
            ] + sampleAttributes)
        s += "<!ELEMENT WorkoutActivity ((MetadataEntry)*)>\n"
        s += attlist(
            "WorkoutActivity",
            [("uuid", req), ("startDate", req), ("endDate", imp), ("duration", imp), ("durationUnit", imp)])
        s +=
            is14
            ? "<!ELEMENT WorkoutEvent ((MetadataEntry)*)>\n" : "<!ELEMENT WorkoutEvent EMPTY>\n"
        s += attlist(
            "WorkoutEvent", [("type", req), ("date", req), ("duration", imp), ("durationUnit", imp)])
        s += "<!ELEMENT WorkoutStatistics EMPTY>\n"
        s += attlist("WorkoutStatistics", workoutStatistics(withUnit: is14))
        s += "<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>\n"
        s += attlist("WorkoutRoute", sampleAttributes)
        s += "<!ELEMENT FileReference EMPTY>\n" + attlist("FileReference", [("path", req)])
        s += "<!ELEMENT ActivitySummary EMPTY>\n"
        s += attlist(
            "ActivitySummary",
            [
                ("dateComponents", imp), ("activeEnergyBurned", imp), ("activeEnergyBurnedGoal", imp),
                ("activeEnergyBurnedUnit", imp), ("appleMoveTime", imp), ("appleMoveTimeGoal", imp),
                ("appleExerciseTime", imp), ("appleExerciseTimeGoal", imp), ("appleStandHours", imp),
                ("appleStandHoursGoal", imp),
            ])
        s += "<!ELEMENT MetadataEntry EMPTY>\n" + attlist("MetadataEntry", [("key", req), ("value", req)])
        s +=
            "<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->\n"
        s += "<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>\n"
        s += "<!ELEMENT InstantaneousBeatsPerMinute EMPTY>\n"
        s += attlist("InstantaneousBeatsPerMinute", [("bpm", req), ("time", req)])
        s += "<!ELEMENT ClinicalRecord EMPTY>\n"
        s += attlist(
            "ClinicalRecord",
            [
                ("type", req), ("identifier", req), ("sourceName", req), ("sourceURL", req),
                ("fhirVersion", req), ("receivedDate", req), ("resourceFilePath", req),
            ])
        return s
    }

    private static func visionPrescription(expirationDate: String) -> String {
        attlist(
            "VisionPrescription",
            [("type", req), ("dateIssued", req), ("expirationDate", expirationDate), ("brand", imp)])
    }

    private static let eyesAndAttachment =
        "<!ELEMENT RightEye EMPTY>\n" + attlist("RightEye", eyeAttributes) + "<!ELEMENT LeftEye EMPTY>\n"
        + attlist("LeftEye", eyeAttributes) + "<!ELEMENT Attachment EMPTY>\n"
        + attlist("Attachment", [("identifier", imp)])
}

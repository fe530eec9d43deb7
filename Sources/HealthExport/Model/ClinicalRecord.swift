/// A `<ClinicalRecord>` (FHIR resource reference; health data of the most sensitive kind).
public struct ClinicalRecord: Hashable, Sendable {
    public var type: String
    public var identifier: String?
    public var sourceName: String
    public var sourceURL: String?
    public var fhirVersion: String?
    public var receivedDate: Timestamp?
    public var resourceFilePath: String?
    public var line: Int

    public init(
        type: String,
        identifier: String? = nil,
        sourceName: String,
        sourceURL: String? = nil,
        fhirVersion: String? = nil,
        receivedDate: Timestamp? = nil,
        resourceFilePath: String? = nil,
        line: Int = 0
    ) {
        self.type = type
        self.identifier = identifier
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
        self.receivedDate = receivedDate
        self.resourceFilePath = resourceFilePath
        self.line = line
    }
}

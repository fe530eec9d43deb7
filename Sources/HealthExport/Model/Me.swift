/// The `<Me>` characteristics (personal data: never log). Empty strings are kept as written.
public struct Me: Hashable, Sendable {
    public var dateOfBirth: String?
    public var biologicalSex: String?
    public var bloodType: String?
    public var fitzpatrickSkinType: String?
    public var cardioFitnessMedicationsUse: String?
    public init(
        dateOfBirth: String? = nil, biologicalSex: String? = nil, bloodType: String? = nil,
        fitzpatrickSkinType: String? = nil, cardioFitnessMedicationsUse: String? = nil
    ) {
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
        self.bloodType = bloodType
        self.fitzpatrickSkinType = fitzpatrickSkinType
        self.cardioFitnessMedicationsUse = cardioFitnessMedicationsUse
    }
}

/// A value of an advertisement that is missing, misplaced or malformed; the caller names the field
/// as its user spells it (`--major`, `advertise.major`).
package struct AdvertiseSettingsError: Error, Sendable, Equatable {
    package var field: AdvertiseField
    /// Reads after the field's name: "is required for ibeacon".
    package var message: String

    package init(_ field: AdvertiseField, _ message: String) {
        self.field = field
        self.message = message
    }
}

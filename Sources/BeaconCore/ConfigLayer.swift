/// A layer of configuration set over MQTT on top of the file (issue "manage a fleet"): precedence
/// file < fleet < gateway, merged key by key.
package enum ConfigLayer: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    /// `<base>/fleet/config/set`: every gateway.
    case fleet
    /// `<base>/gateways/<gw>/config/set`: this gateway only.
    case gateway

    package static func < (a: ConfigLayer, b: ConfigLayer) -> Bool { a == .fleet && b == .gateway }
}

extension ConfigLayer {
    /// Larger layer payloads are refused unread.
    package static let maximumPayload = 64 * 1024
}

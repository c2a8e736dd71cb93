/// A layer of configuration set over MQTT on top of the file (docs/configuration.md, "Managing a
/// fleet over MQTT"): precedence file < fleet < gateway, merged key by key.
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

    /// The payload's 64-bit FNV-1a as 16 hex digits: what the effective configuration and an error
    /// say a layer was, so `beacon2mqtt config set` can tell its own change confirmed from an older
    /// one — without comparing clocks, and whatever else was applied meanwhile.
    package static func digest(_ payload: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in payload { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

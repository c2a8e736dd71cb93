import BeaconCore
import BeaconWire
import Settings

/// A Home Assistant device, the `device` block of an MQTT discovery config (HA docs, "MQTT
/// Discovery" → device). Each beacon is one device, whichever gateway or locator reports it, so
/// every publisher writes the same block for it; each gateway and each locator is a device of its
/// own, and a beacon's `via_device` names the one whose configs carry it.
package struct HomeAssistantDevice: Sendable, Equatable {
    /// The one identifier HA matches devices by.
    package var identifier: String
    /// Also the first words of every entity id on the device (HA: device name + entity name).
    package var name: String
    package var model: String
    package var softwareVersion: String?
    package var suggestedArea: String?
    /// The identifier of the gateway or locator device this one is reached through.
    package var viaDevice: String?
    /// A page about the device that HA links to ("Visit"): the process's `/metrics`.
    package var configurationURL: String? = nil

    /// A configured beacon: identified by `<uuid hex>_<major>_<minor>` or `<namespace>_<instance>`,
    /// named after `beacons[].name`. No area: a beacon moves (the locator's room tracker says where).
    /// A configured device (`devices:`, a phone, watch or tag) is `beacon2mqtt_device_<name>`.
    package static func beacon(_ id: BeaconIdentity, name: String?, via: String?) -> Self {
        if id.scheme == .device {
            return Self(
                identifier: "beacon2mqtt_device_\(sanitized(name ?? key(id)))", name: name ?? label(id),
                model: "Bluetooth LE device", viaDevice: via)
        }
        return Self(
            identifier: "beacon2mqtt_beacon_\(key(id))", name: name ?? label(id),
            model: id.scheme == .eddystone ? "Eddystone-UID beacon" : "iBeacon/AltBeacon", viaDevice: via)
    }

    /// The gateway itself, in its `gateway.room`.
    package static func gateway(_ c: Configuration, softwareVersion: String) -> Self {
        Self(
            identifier: "beacon2mqtt_gateway_\(sanitized(c.gateway.id))", name: "beacon2mqtt \(c.gateway.id)",
            model: "BLE beacon gateway", softwareVersion: softwareVersion, suggestedArea: c.gateway.room,
            configurationURL: metricsURL(c))
    }

    /// A locator process (`beacon2mqtt locate`, or the one inside `run`), named by its `gateway.id`.
    package static func locator(_ c: Configuration, softwareVersion: String) -> Self {
        Self(
            identifier: "beacon2mqtt_locator_\(sanitized(c.gateway.id))", name: "beacon2mqtt locator \(c.gateway.id)",
            model: "beacon locator", softwareVersion: softwareVersion, configurationURL: metricsURL(c))
    }

    /// `http://<address>:<port>/metrics` with `metrics.listen` (IPv6 in brackets); for every
    /// interface (`0.0.0.0`, `::`) the address is `gateway.id`, which is the host name unless
    /// configured. Nil without an endpoint.
    static func metricsURL(_ c: Configuration) -> String? {
        guard let listen = c.metrics.listen else { return nil }
        let host =
            listen.address == "0.0.0.0" || listen.address == "::"
            ? c.gateway.id : listen.isIPv6 ? "[\(listen.address)]" : listen.address
        return "http://\(host):\(listen.port)/metrics"
    }

    func write(_ w: inout JSONWriter) {
        w.key("device")
        w.beginObject()
        w.key("identifiers")
        w.beginArray()
        w.string(identifier)
        w.endArray()
        w.field("name", name)
        w.field("manufacturer", "beacon2mqtt")
        w.field("model", model)
        if let softwareVersion { w.field("sw_version", softwareVersion) }
        if let suggestedArea { w.field("suggested_area", suggestedArea) }
        if let viaDevice { w.field("via_device", viaDevice) }
        if let configurationURL { w.field("configuration_url", configurationURL) }
        w.endObject()
    }

    // MARK: Names

    /// iBeacon/AltBeacon `<uuid without dashes>_<major>_<minor>`, Eddystone `<namespace>_<instance>`.
    package static func key(_ id: BeaconIdentity) -> String {
        switch id.scheme {
        case .uuid: return "\(id.id.uuidString.filter { $0 != "-" })_\(id.major)_\(id.minor)"
        case .eddystone: return "\(id.eddystoneNamespace)_\(id.eddystoneInstance)"
        // A device's identity is a hash of its name (its HA device is keyed by the name instead).
        case .device: return Hex.string(id.id.bytes)
        }
    }

    /// A readable default name for a beacon without a configured one.
    package static func label(_ id: BeaconIdentity) -> String {
        switch id.scheme {
        case .uuid: return "Beacon \(id.id.uuidString.prefix(8)) \(id.major).\(id.minor)"
        case .eddystone: return "Eddystone \(id.eddystoneInstance)"
        case .device: return "Device"
        }
    }

    /// Characters outside `[a-zA-Z0-9_-]` become `_` (discovery topic levels, identifiers).
    package static func sanitized(_ text: String) -> String {
        String(
            text.unicodeScalars.map { s -> Character in
                switch s {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return Character(s)
                default: return "_"
                }
            })
    }

    /// HA's `slugify` for ASCII text: lower case, every run of other characters one `_`, none at
    /// the ends. Nil for text with other characters (HA transliterates those; we leave it to HA).
    package static func slug(_ text: String) -> String? {
        var out = ""
        var pendingSeparator = false
        for s in text.unicodeScalars {
            guard s.isASCII else { return nil }
            switch s {
            case "a"..."z", "0"..."9", "A"..."Z":
                if pendingSeparator, !out.isEmpty { out.append("_") }
                pendingSeparator = false
                let lower = ("A"..."Z").contains(s) ? Unicode.Scalar(UInt8(s.value) + 32) : s
                out.unicodeScalars.append(lower)
            default:
                pendingSeparator = true
            }
        }
        return out.isEmpty ? nil : out
    }
}

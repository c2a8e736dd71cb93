import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// The one place topic strings are built and parsed (docs/topics.md, docs/locator.md,
/// docs/home-assistant.md). Every topic the gateway, the locator, the
/// restore at start, `status` and Home Assistant use is spelled here and nowhere else.
///
/// Under `<base>`:
/// - `<beacon>/<gw>/<leaf>`: a beacon's messages from one gateway; `<beacon>` is `<uuid>/<major>/<minor>`,
///   `eddystone/<namespace>/<instance>`, or `devices/<name>` for a configured device (phone, watch, tag);
/// - `regions/<region>/<gw>/<leaf>`: a region's messages;
/// - `gateways/<gw>/status|stats|advertising`, `locators/<gw>/status`: availability and statistics;
/// - `fleet/config/set`, `gateways/<gw>/config/set|config|config/error`: configuration over MQTT;
/// - `<beacon>/location`, `<beacon>/event`: the locator's output.
package struct TopicTree: Sendable, Equatable {
    /// `mqtt.base_topic`: one or more levels.
    package var base: String
    /// This process's `gateway.id`; the locator's status uses it too. Empty when only parsing or
    /// building gateway-independent topics.
    package var gateway: String
    /// Device names by identity: a device's topic level is its name, which its identity (a hash of
    /// it) cannot give back. Filled from the configuration, or by `learnDevice(in:)` from topics read.
    package private(set) var deviceNames: [BeaconIdentity: String] = [:]

    package init(base: String, gateway: String = "") {
        self.base = base
        self.gateway = gateway
    }

    package init(_ c: Configuration) {
        self.init(base: c.mqtt.baseTopic, gateway: c.gateway.id)
        for d in c.devices { deviceNames[d.identity] = d.name }
    }

    /// The last level of a beacon's or a region's topic.
    package enum Leaf: String, Sendable, CaseIterable {
        case state, attributes, event, proximity, ranging, telemetry
    }

    /// What a topic names; `parse` returns it, the builders below spell it.
    package enum Topic: Sendable, Equatable {
        case beacon(BeaconIdentity, gateway: String, Leaf)
        case region(String, gateway: String, Leaf)
        case gatewayStatus(gateway: String)
        case gatewayStats(gateway: String)
        case gatewayAdvertising(gateway: String)
        /// A locator's view of the gateway's clock (`GatewayClocks`).
        case gatewayClock(gateway: String)
        case locatorStatus(gateway: String)
        case locatorCalibration(gateway: String)
        case fleetConfigSet
        case gatewayConfigSet(gateway: String)
        case gatewayConfig(gateway: String)
        case gatewayConfigError(gateway: String)
        /// The locator's retained `<base>/<beacon>/location`.
        case location(BeaconIdentity)
        /// The locator's `<base>/<beacon>/event`.
        case locatorEvent(BeaconIdentity)
        /// The locator's retained `<base>/<beacon>/room` (plain text, for Home Assistant's tracker).
        case locatorRoom(BeaconIdentity)
    }

    // MARK: This gateway's topics

    /// `<base>/<beacon>/<gw>/<leaf>`, written as bytes (it is on the per-report path).
    package func beacon(_ id: BeaconIdentity, _ leaf: Leaf) -> String {
        let leafText = leaf.rawValue
        var t: [UInt8] = []
        t.reserveCapacity(base.utf8.count + gateway.utf8.count + leafText.utf8.count + 64)
        ASCIIText.append(base, to: &t)
        t.append(0x2F)
        appendBeaconLevels(id, to: &t)
        t.append(0x2F)
        ASCIIText.append(gateway, to: &t)
        t.append(0x2F)
        ASCIIText.append(leafText, to: &t)
        return String(decoding: t, as: UTF8.self)
    }

    /// `<base>/regions/<region>/<gw>/<leaf>`.
    package func region(_ name: String, _ leaf: Leaf) -> String {
        "\(base)/regions/\(name)/\(gateway)/\(leaf.rawValue)"
    }

    /// `<base>/gateways/<gw>/status`: retained `online` / `offline` / `degraded` (the MQTT will).
    package var gatewayStatus: String { "\(base)/gateways/\(gateway)/status" }

    /// `<base>/gateways/<gw>/stats`: retained counters.
    package var gatewayStats: String { "\(base)/gateways/\(gateway)/stats" }

    /// `<base>/gateways/<gw>/advertising`: retained, what the gateway advertises (`advertise:`).
    package var gatewayAdvertising: String { "\(base)/gateways/\(gateway)/advertising" }

    /// `<base>/gateways/<gw>/clock`: retained, a locator's view of the gateway's clock (`GatewayClocks`).
    package var gatewayClock: String { "\(base)/gateways/\(gateway)/clock" }

    /// `<base>/locators/<gw>/status`: the locator's availability.
    package var locatorStatus: String { "\(base)/locators/\(gateway)/status" }

    /// The locator's retained fit of the site's radio (docs/locator.md, "Calibrating a site").
    package var locatorCalibration: String { "\(base)/locators/\(gateway)/calibration" }

    /// `<base>/gateways/<gw>/config/set`: this gateway's configuration layer (retained; an admin's).
    package var gatewayConfigSet: String { "\(base)/gateways/\(gateway)/config/set" }

    /// `<base>/gateways/<gw>/config`: the retained effective configuration.
    package var gatewayConfig: String { "\(base)/gateways/\(gateway)/config" }

    /// `<base>/gateways/<gw>/config/error`: why a configuration layer was refused.
    package var gatewayConfigError: String { "\(base)/gateways/\(gateway)/config/error" }

    /// What the agent subscribes to at start to read its own retained states and attributes back:
    /// every beacon's (either scheme: three levels) and every region's, of this gateway only. The
    /// attributes restore states; a state or attributes topic of a subject no longer configured is cleared.
    package var restoreSubscriptions: [String] {
        [
            "\(base)/+/+/+/\(gateway)/attributes", "\(base)/regions/+/\(gateway)/attributes",
            "\(base)/+/+/+/\(gateway)/state", "\(base)/regions/+/\(gateway)/state",
            "\(base)/devices/+/\(gateway)/attributes", "\(base)/devices/+/\(gateway)/state",
        ]
    }

    /// The exact `attributes` topics of these regions and beacons, read back beside the wildcard
    /// `restoreSubscriptions`: RabbitMQ 3.x sends retained messages only to filters without a wildcard
    /// (rabbitmq-server#8824), so there only these restore. A broker that matches both sends such a
    /// message twice; the read-back keeps one per topic.
    package func restoreTopics(regions: [String], beacons: [BeaconIdentity]) -> [String] {
        var seen = Set<String>()
        return (regions.map { region($0, .attributes) } + beacons.map { beacon($0, .attributes) }).filter {
            seen.insert($0).inserted
        }
    }

    // MARK: Patterns for people

    /// The tree with placeholder levels (`<base>`, `<gw>`), for the man page and help texts, so
    /// they show the topics these builders spell.
    package static let pattern = TopicTree(base: "<base>", gateway: "<gw>")

    /// `<base>/<uuid>/<major>/<minor>/<gw>/<leaf>` with placeholders (an identity has no placeholder form).
    package func beaconPattern(_ leaf: Leaf) -> String { "\(base)/<uuid>/<major>/<minor>/\(gateway)/\(leaf.rawValue)" }

    /// `<base>/devices/<name>/<gw>/<leaf>` with placeholders.
    package func devicePattern(_ leaf: Leaf) -> String { "\(base)/devices/<name>/\(gateway)/\(leaf.rawValue)" }

    // MARK: Every gateway's topics

    /// `<base>/gateways/`: where every gateway's status and stats live (for messages to people).
    package var gateways: String { "\(base)/gateways/" }

    /// `<base>/gateways/+/status`.
    package var anyGatewayStatus: String { "\(base)/gateways/+/status" }

    /// `<base>/gateways/+/stats`.
    package var anyGatewayStats: String { "\(base)/gateways/+/stats" }

    /// `<base>/gateways/+/advertising`: what each gateway advertises and where it stands.
    package var anyGatewayAdvertising: String { "\(base)/gateways/+/advertising" }

    /// `<base>/fleet/config/set`: the configuration layer of every gateway (retained; an admin's).
    package var fleetConfigSet: String { "\(base)/fleet/config/set" }

    /// `<base>/gateways/+/config/set`: every gateway's own layer (for ACLs).
    package var anyGatewayConfigSet: String { "\(base)/gateways/+/config/set" }

    /// `<base>/gateways/+/config`.
    package var anyGatewayConfig: String { "\(base)/gateways/+/config" }

    /// `<base>/gateways/+/config/error`.
    package var anyGatewayConfigError: String { "\(base)/gateways/+/config/error" }

    /// What a locator subscribes to: every gateway's proximity and beacon events, gateway status,
    /// and the retained locations (read back at start).
    package var locatorSubscriptions: [String] {
        [
            "\(base)/+/+/+/+/proximity", "\(base)/+/+/+/+/event", anyGatewayStatus, anyGatewayAdvertising,
            "\(base)/+/+/+/location",
            "\(base)/devices/+/+/proximity", "\(base)/devices/+/+/event", "\(base)/devices/+/location",
        ]
    }

    /// The locator's retained `<base>/<beacon>/location`.
    package func location(_ id: BeaconIdentity) -> String { beaconPath(id) + "/location" }

    /// The retained locations of these beacons, exact topics a locator reads back beside the wildcard
    /// ones of `locatorSubscriptions` (RabbitMQ sends retained messages only to filters without wildcards).
    package func locations(of beacons: [BeaconIdentity]) -> [String] {
        var seen = Set<String>()
        return beacons.map(location).filter { seen.insert($0).inserted }
    }

    /// The locator's `<base>/<beacon>/event`.
    package func locatorEvent(_ id: BeaconIdentity) -> String { beaconPath(id) + "/event" }

    /// The locator's retained `<base>/<beacon>/room`: the room (else the gateway) or `not_home`.
    package func locatorRoom(_ id: BeaconIdentity) -> String { beaconPath(id) + "/room" }

    private func beaconPath(_ id: BeaconIdentity) -> String {
        var t: [UInt8] = []
        t.reserveCapacity(base.utf8.count + 48)
        ASCIIText.append(base, to: &t)
        t.append(0x2F)
        appendBeaconLevels(id, to: &t)
        return String(decoding: t, as: UTF8.self)
    }

    /// `<uuid>/<major>/<minor>`, `eddystone/<namespace>/<instance>` or `devices/<name>` (a device
    /// whose name this tree does not know shows its identity's 32 hex digits instead).
    private func appendBeaconLevels(_ id: BeaconIdentity, to t: inout [UInt8]) {
        switch id.scheme {
        case .uuid:
            id.id.appendUUID(to: &t)
            t.append(0x2F)
            ASCIIText.appendDigits(UInt64(id.major), minimumWidth: 1, to: &t)
            t.append(0x2F)
            ASCIIText.appendDigits(UInt64(id.minor), minimumWidth: 1, to: &t)
        case .eddystone:
            ASCIIText.append("eddystone/\(id.eddystoneNamespace)/\(id.eddystoneInstance)", to: &t)
        case .device:
            ASCIIText.append("devices/", to: &t)
            ASCIIText.append(deviceNames[id] ?? Hex.string(id.id.bytes), to: &t)
        }
    }

    /// The device name a topic under `<base>/devices/` carries, if it is one.
    package func deviceName(in topic: String) -> String? {
        let prefix = base + "/devices/"
        guard topic.utf8.starts(with: prefix.utf8) else { return nil }
        let rest = topic.utf8.dropFirst(prefix.utf8.count)
        guard let slash = rest.firstIndex(of: 0x2F), slash > rest.startIndex else { return nil }
        return String(topic[rest.startIndex..<slash])
    }

    /// Remembers the device name `topic` carries, so topics built for its identity spell it; true
    /// when it was new. A locator learns the names of devices from the gateways' topics this way.
    @discardableResult
    package mutating func learnDevice(in topic: String) -> Bool {
        guard let name = deviceName(in: topic) else { return false }
        return learnDevice(named: name)
    }

    /// Remembers a device's name (a foreign node's reading of a configured device names it).
    @discardableResult
    package mutating func learnDevice(named name: String) -> Bool {
        guard TopicName.problem(level: name) == nil else { return false }
        return deviceNames.updateValue(name, forKey: .device(named: name)) == nil
    }

    /// Forgets a learnt device name (the locator forgot the device).
    package mutating func forgetDevice(_ id: BeaconIdentity) { deviceNames[id] = nil }

    // MARK: Home Assistant (its own prefix, not under <base>)

    /// `<prefix>/status`: where HA announces itself (birth `online`, will `offline`).
    package static func homeAssistantBirth(prefix: String) -> String { "\(prefix)/status" }

    /// `<prefix>/<component>/<node_id>/<object_id>/config`: one discovery config.
    package static func homeAssistantConfig(
        prefix: String, component: String, node: String, object: String
    )
        -> String
    {
        "\(prefix)/\(component)/\(node)/\(object)/config"
    }

    /// `<room_topic>/<room>`: what HA's `mqtt_room` sensor subscribes to as `<room_topic>/+`.
    package static func roomFeed(_ roomTopic: String, room: String) -> String { "\(roomTopic)/\(room)" }

    // MARK: Parsing

    /// What `topic` names, or nil when it is none of ours: another base topic, an unknown leaf, a
    /// malformed beacon identity, a wrong number of levels.
    package func parse(_ topic: String) -> Topic? {
        let utf8 = topic.utf8
        let baseCount = base.utf8.count
        guard utf8.count > baseCount + 1, utf8.starts(with: base.utf8) else { return nil }
        let slash = utf8.index(utf8.startIndex, offsetBy: baseCount)
        guard utf8[slash] == 0x2F else { return nil }
        // Split on the UTF-8 bytes: splitting the String on a Character walks grapheme breaks,
        // and this runs for every message a locator receives.
        let levels = utf8[utf8.index(after: slash)...].split(separator: 0x2F, omittingEmptySubsequences: false)
            .map { Substring($0) }
        switch levels.count {
        case 3:
            // gateways/<gw>/status|stats, locators/<gw>/status
            guard !levels[1].isEmpty else { return nil }
            let gw = String(levels[1])
            if levels[0] == "fleet" { return levels[1] == "config" && levels[2] == "set" ? .fleetConfigSet : nil }
            switch (levels[0], levels[2]) {
            // devices/<name>/location|event: the locator's output for a device.
            case ("devices", "location"): return .location(.device(named: gw))
            case ("devices", "event"): return .locatorEvent(.device(named: gw))
            case ("gateways", "status"): return .gatewayStatus(gateway: gw)
            case ("gateways", "stats"): return .gatewayStats(gateway: gw)
            case ("gateways", "config"): return .gatewayConfig(gateway: gw)
            case ("gateways", "advertising"): return .gatewayAdvertising(gateway: gw)
            case ("gateways", "clock"): return .gatewayClock(gateway: gw)
            case ("locators", "status"): return .locatorStatus(gateway: gw)
            case ("locators", "calibration"): return .locatorCalibration(gateway: gw)
            default: return nil
            }
        case 4:
            // regions/<region>/<gw>/<leaf>, gateways/<gw>/config/set|error, or <beacon>/location|event
            if levels[0] == "gateways", levels[2] == "config", !levels[1].isEmpty {
                switch levels[3] {
                case "set": return .gatewayConfigSet(gateway: String(levels[1]))
                case "error": return .gatewayConfigError(gateway: String(levels[1]))
                default: return nil
                }
            }
            if levels[0] == "regions" {
                guard let leaf = Leaf(rawValue: String(levels[3])) else { return nil }
                return .region(String(levels[1]), gateway: String(levels[2]), leaf)
            }
            // devices/<name>/<gw>/<leaf>: a device's messages.
            if levels[0] == "devices" {
                guard !levels[1].isEmpty, let leaf = Leaf(rawValue: String(levels[3])) else { return nil }
                return .beacon(.device(named: String(levels[1])), gateway: String(levels[2]), leaf)
            }
            guard let id = Self.beacon(levels[0], levels[1], levels[2]) else { return nil }
            switch levels[3] {
            case "location": return .location(id)
            case "event": return .locatorEvent(id)
            case "room": return .locatorRoom(id)
            default: return nil
            }
        case 5:
            // <beacon>/<gw>/<leaf>
            guard let id = Self.beacon(levels[0], levels[1], levels[2]), let leaf = Leaf(rawValue: String(levels[4]))
            else { return nil }
            return .beacon(id, gateway: String(levels[3]), leaf)
        default:
            return nil
        }
    }

    /// `<uuid>/<major>/<minor>` or `eddystone/<namespace (20 hex)>/<instance (12 hex)>`.
    private static func beacon(_ a: Substring, _ b: Substring, _ c: Substring) -> BeaconIdentity? {
        if a == "eddystone" {
            guard b.utf8.count == 20, c.utf8.count == 12, let id = BeaconID128(uuidString: String(b) + String(c))
            else { return nil }
            return .eddystone(id)
        }
        guard a.utf8.count == 36, let uuid = BeaconID128(uuidString: String(a)), let major = UInt16(b),
            let minor = UInt16(c)
        else { return nil }
        return .uuid(uuid, major: major, minor: minor)
    }
}

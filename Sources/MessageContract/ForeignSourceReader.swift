import BeaconCore
import BeaconWire
import Vocabulary

/// Reads other projects' receivers for the locator (`locator.foreign_sources`, docs/locator.md,
/// "Foreign receivers"): each message on a source's topic becomes one of its node's readings,
/// under the gateway id, floor and room the node is mapped to, on the same footing as a gateway's
/// `proximity` (its RSSI takes that gateway id's `locator.rssi_offset`); each availability message
/// marks the node's gateway online or offline.
///
/// Pure: the messages carry no timestamp of their own, so the caller stamps each with its clock.
/// Bad input (a malformed message, an advertiser with no identity, an unmapped node) is counted
/// and explained in `Outcome.ignored`, never a reading: it changes no decision.
package struct ForeignSourceReader: Sendable {
    /// Foreign messages by what became of them.
    package struct Counters: Sendable, Equatable {
        /// Readings handed to the locator.
        package var readings = 0
        /// Availability messages applied.
        package var statuses = 0
        /// Messages that are not the format's (not JSON, a field missing or of the wrong type).
        package var malformed = 0
        /// Well-formed reports of advertisers that are no beacon and no configured device.
        package var unknownIdentity = 0
        /// Messages from nodes that are not mapped.
        package var unmappedNode = 0

        package init() {}

        /// Everything ignored.
        package var ignored: Int { malformed + unknownIdentity + unmappedNode }

        /// Every outcome with its label value (`beacon2mqtt_locator_foreign_messages_total{outcome}`),
        /// in a fixed order, zero or not.
        package var byOutcome: [(outcome: String, count: Int)] {
            [
                ("reading", readings), ("status", statuses), ("malformed", malformed),
                ("unknown_identity", unknownIdentity), ("unmapped_node", unmappedNode),
            ]
        }
    }

    /// What one message became.
    package enum Outcome: Sendable, Equatable {
        /// A reading; `device` is the configured device's name when it is one.
        case reading(LocatorReading, device: String?)
        /// A node's gateway went online or offline.
        case status(gateway: String, online: Bool)
        /// Ignored, and why (for the debug log).
        case ignored(String)
    }

    package let sources: [ForeignSource]
    private let devicesByAddress: [BluetoothAddress: String]
    private let devicesByKey: [IdentityResolvingKey: String]
    /// Recomputes a distance from RSSI for a node that sends none (Theengs Gateway).
    private let distance: DistanceSettings
    package private(set) var counters = Counters()

    /// `counters`: what an earlier reader counted (a reload keeps counting).
    package init(
        sources: [ForeignSource], devices: [DeviceSettings] = [], distance: DistanceSettings = DistanceSettings(),
        counters: Counters = Counters()
    ) {
        self.sources = sources
        self.counters = counters
        var byAddress: [BluetoothAddress: String] = [:]
        var byKey: [IdentityResolvingKey: String] = [:]
        for d in devices {
            switch d.identification {
            case .address(let a): byAddress[a] = d.name
            case .irk(let k): byKey[k] = d.name
            }
        }
        devicesByAddress = byAddress
        devicesByKey = byKey
        self.distance = distance
    }

    /// The sources' reading and availability topics.
    package var subscriptions: [String] {
        var out: [String] = []
        for s in sources {
            for pattern in [s.topic, s.availability].compactMap(\.self) where !out.contains(pattern) {
                out.append(pattern)
            }
        }
        return out
    }

    /// One received message, stamped `at` (the locator's clock); nil when it is on none of the
    /// sources' topics.
    package mutating func read(topic: String, payload: [UInt8], at: Timestamp) -> Outcome? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for source in sources {
            if let availability = source.availability, Self.matches(availability, levels) {
                return status(source, levels, payload)
            }
            if Self.matches(source.topic, levels) { return reading(source, levels, payload, at) }
        }
        return nil
    }

    private mutating func status(_ source: ForeignSource, _ levels: [Substring], _ payload: [UInt8]) -> Outcome {
        // ESPresense `<prefix>/rooms/<node>/status`, OpenMQTTGateway `<prefix>/<node>/LWT`.
        let node = levels.count >= 2 ? String(levels[levels.count - 2]) : ""
        guard let mapped = source.nodes[node] else { return unmapped(node) }
        let text = String(decoding: payload, as: UTF8.self)
        guard text == "online" || text == "offline" else {
            counters.malformed += 1
            return .ignored("availability of node \(node) is neither online nor offline")
        }
        counters.statuses += 1
        return .status(gateway: mapped.gateway, online: text == "online")
    }

    private mutating func reading(
        _ source: ForeignSource, _ levels: [Substring], _ payload: [UInt8], _ at: Timestamp
    )
        -> Outcome
    {
        let node: String
        let report: Result<ForeignReport, ForeignReport.Malformed>
        switch source.format {
        case .espresense:
            // `<prefix>/devices/<device id>/<node>`
            node = String(levels[levels.count - 1])
            report = Result { () throws(ForeignReport.Malformed) in try .espresense(payload: payload) }
        case .openmqttgateway:
            // `<prefix>/<node>/BTtoMQTT/<address>`
            guard let i = levels.lastIndex(of: "BTtoMQTT"), i > 0 else {
                counters.malformed += 1
                return .ignored("no BTtoMQTT level in the topic")
            }
            node = String(levels[i - 1])
            report = Result { () throws(ForeignReport.Malformed) in try .openMQTTGateway(payload: payload) }
        }
        guard let mapped = source.nodes[node] else { return unmapped(node) }
        let r: ForeignReport
        switch report {
        case .success(let value): r = value
        case .failure(let m):
            counters.malformed += 1
            return .ignored("\(source.format.rawValue) message from node \(node): \(m.reason)")
        }
        guard let (beacon, device) = identity(r.subject) else {
            counters.unknownIdentity += 1
            return .ignored("\(source.format.rawValue) message from node \(node): no beacon or configured device")
        }
        let power = r.measuredPower ?? distance.defaultMeasuredPower
        let metres =
            r.distance ?? DistanceEstimator.accuracy(rssi: r.rssi, measuredPower: Double(power), settings: distance)
        guard metres >= 0 else {
            counters.malformed += 1
            return .ignored("\(source.format.rawValue) message from node \(node): no distance and no usable rssi")
        }
        counters.readings += 1
        return .reading(
            LocatorReading(
                beacon: beacon, name: device, gateway: mapped.gateway, floor: mapped.floor, room: mapped.room,
                filteredRSSI: r.rssi, measuredPower: r.measuredPower, accuracy: metres, timestamp: at),
            device: device)
    }

    private mutating func unmapped(_ node: String) -> Outcome {
        counters.unmappedNode += 1
        return .ignored("node \(node) is not mapped")
    }

    /// The beacon a report is about, and the configured device's name when it is one.
    private func identity(_ subject: ForeignReport.Subject?) -> (BeaconIdentity, String?)? {
        switch subject {
        case .beacon(let b)?: return (b, nil)
        case .address(let a)?: return devicesByAddress[a].map { (.device(named: $0), $0) }
        case .irk(let k)?: return devicesByKey[k].map { (.device(named: $0), $0) }
        case nil: return nil
        }
    }

    /// Whether `topic`'s levels match the subscription `filter` (`+` one level, a final `#` the rest).
    static func matches(_ filter: String, _ topic: [Substring]) -> Bool {
        let f = filter.split(separator: "/", omittingEmptySubsequences: false)
        var i = 0
        for level in f {
            if level == "#" { return true }
            guard i < topic.count, level == "+" || level == topic[i] else { return false }
            i += 1
        }
        return i == topic.count
    }
}

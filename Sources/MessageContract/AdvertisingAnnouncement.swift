import BeaconCore
import BeaconWire
import Settings
import Vocabulary

/// The retained `<base>/gateways/<gw>/advertising` message: what the gateway advertises (the
/// `advertise:` section) and what its radio is doing with it, so a phone app's back end or another
/// gateway can tell which beacon is which gateway, and an operator sees a refusal. The beacon is
/// written as `decode` writes it; an empty retained payload clears the topic when nothing is advertised.
package enum AdvertisingAnnouncement {
    /// - Parameters:
    ///   - state: the radio's state as the source last reported it (nil: not yet, `starting`).
    ///   - waitingFor: the source's degraded reason (the adapter absent, down, silent): `waiting`.
    package static func message(
        _ configuration: Configuration, state: AdvertisingState? = nil, waitingFor: String? = nil
    ) -> OutboundMessage {
        let topic = TopicTree(configuration).gatewayAdvertising
        let qos = configuration.mqtt.qos
        let position = configuration.gateway.position
        guard let settings = configuration.bluetooth.advertise else {
            // A gateway at a known position that does not advertise still tells where it stands:
            // it hears the others (docs/locator.md, "Calibrating a site").
            guard let position else {
                return OutboundMessage(topic: topic, payload: .text(""), qos: qos, retain: true, kind: .status)
            }
            var w = JSONWriter()
            w.beginObject()
            write(position, to: &w)
            w.field("scan_mode", configuration.bluetooth.scanner.mode.rawValue)
            w.field("state", "off")
            w.endObject()
            return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: true, kind: .status)
        }
        let state = state ?? .starting
        // A stopped gateway is not waiting for its adapter.
        let waitingFor = state == .stopped ? nil : waitingFor
        var w = JSONWriter()
        w.beginObject()
        w.key("beacon")
        ReportJSON.write(settings.beacon, to: &w)
        w.key("data")
        w.string(Hex.string(settings.advertisingData))
        w.key("interval_ms")
        if case .advertising(_, let onAir) = state, waitingFor == nil {
            w.int(onAir.microseconds / 1000)
        } else {
            w.int(settings.interval.microseconds / 1000)
        }
        if let power = settings.txPower {
            w.key("tx_power")
            w.int(power)
        }
        if let position { write(position, to: &w) }
        w.key("address")
        w.string(settings.address.rawValue)
        w.key("connectable")
        w.bool(settings.connectable)
        w.key("scan_mode")
        w.string(configuration.bluetooth.scanner.mode.rawValue)
        w.key("state")
        w.string(waitingFor == nil ? state.name : "waiting")
        if case .advertising(let set, _) = state, waitingFor == nil {
            w.key("command_set")
            w.string(set.rawValue)
        }
        if let reason = waitingFor ?? state.reason {
            w.key("reason")
            w.string(reason)
        }
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: true, kind: .status)
    }

    /// `gateway.position` as the members `x`, `y`, `z` (metres).
    private static func write(_ p: SitePosition, to w: inout JSONWriter) {
        w.field("x", p.x, decimals: 3)
        w.field("y", p.y, decimals: 3)
        w.field("z", p.z, decimals: 3)
    }
}

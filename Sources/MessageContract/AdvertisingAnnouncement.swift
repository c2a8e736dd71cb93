import BeaconCore
import BeaconWire

/// The retained `<base>/gateways/<gw>/advertising` message: what the gateway advertises (the
/// `advertise:` section), so a phone app's back end or another gateway can tell which beacon is
/// which gateway. The beacon is written as `decode` writes it; an empty retained payload clears the
/// topic when nothing is advertised.
package enum AdvertisingAnnouncement {
    package static func message(_ configuration: Configuration) -> OutboundMessage {
        let topic = TopicTree(configuration).gatewayAdvertising
        let qos = configuration.mqtt.qos
        guard let settings = configuration.advertise else {
            return OutboundMessage(topic: topic, payload: .text(""), qos: qos, retain: true, kind: .status)
        }
        var w = JSONWriter()
        w.beginObject()
        w.key("beacon")
        ReportJSON.write(settings.beacon, to: &w)
        w.key("data")
        w.string(Hex.string(settings.advertisingData))
        w.key("interval_ms")
        w.int(settings.interval.microseconds / 1000)
        if let power = settings.txPower {
            w.key("tx_power")
            w.int(power)
        }
        w.key("address")
        w.string(settings.address.rawValue)
        w.key("connectable")
        w.bool(settings.connectable)
        w.key("scan_mode")
        w.string(configuration.scanner.mode.rawValue)
        w.endObject()
        return OutboundMessage(topic: topic, payload: .json(w.text), qos: qos, retain: true, kind: .status)
    }
}

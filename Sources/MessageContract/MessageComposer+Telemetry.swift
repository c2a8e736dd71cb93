import BeaconCore
import BeaconWire
import Vocabulary

extension MessageComposer {
    /// `<base>/<beacon>/<gw>/telemetry`, retained, QoS `mqtt.qos`: `{<identity>,"name","gateway",
    /// "address","battery_mv","low_battery","temperature","adv_count","uptime_s","tlm_seen","url",
    /// "tx_power","tx_power_at_m","interval_ms","timestamp"}` (docs/topics.md). What is not known
    /// (no TLM heard, a field the beacon does not support) is null.
    func telemetry(_ b: BeaconTelemetry) -> OutboundMessage {
        var w = JSONWriter(capacity: 420)
        w.beginObject()
        Self.writeIdentity(&w, b.identity)
        w.field("name", b.name)
        w.field("gateway", topics.gateway)
        w.field("address", plain: b.address.appendText)
        w.field("battery_mv", b.tlm?.battery.map { Int($0) })
        if let low = b.lowBattery { w.field("low_battery", low) } else { w.field("low_battery", nil as Int?) }
        w.field("temperature", b.tlm?.temperature, decimals: 2)
        w.field("adv_count", b.tlm.map { Int($0.advertisingCount) })
        w.field("uptime_s", b.tlm?.uptimeSeconds, decimals: 1)
        writeTime(&w, "tlm_seen", b.tlmSeen)
        w.field("url", b.url)
        w.field("tx_power", b.txPower.map { Int($0) })
        w.field("tx_power_at_m", b.txPower == nil ? nil : b.txPowerAtMetres)
        w.field("interval_ms", b.interval.map { Int(($0.microseconds + 500) / 1000) })
        writeTime(&w, "timestamp", b.timestamp)
        w.endObject()
        return OutboundMessage(
            topic: topics.beacon(b.identity, .telemetry), payload: .json(w.text), qos: qos, retain: true,
            kind: .telemetry)
    }
}

import BeaconCore
import BeaconWire
import Vocabulary

/// Topics and payloads the locator publishes (docs/locator.md, "What it reads and writes").
struct LocatorComposer {
    var topics: TopicTree
    var qos: Int

    /// Retained `<base>/<beacon>/location`.
    func location(_ beacon: BeaconIdentity, _ l: LocatorLocation) -> OutboundMessage {
        OutboundMessage(
            topic: topics.location(beacon), payload: .json(l.json), qos: qos,
            retain: true, kind: .location)
    }

    /// Retained `<base>/<beacon>/room`: the room (else the gateway) while home, else `not_home`, as
    /// plain text. Home Assistant's MQTT device tracker takes a payload other than home/not_home as
    /// the location's name, but only the raw payload (2025.4 ignores its value_template there).
    func room(_ beacon: BeaconIdentity, _ l: LocatorLocation) -> OutboundMessage {
        let text = l.isUnknown ? "unknown" : l.isHome ? (l.room ?? l.gateway ?? "home") : "not_home"
        return OutboundMessage(
            topic: topics.locatorRoom(beacon), payload: .text(text), qos: qos, retain: true, kind: .location)
    }

    /// `<base>/<beacon>/event`: `{"event",<identity>,"name","gateway","floor","room","accuracy","confidence",
    /// "previous_gateway","previous_floor","previous_room","timestamp"}`, event `location` or `not_home`.
    func event(
        _ beacon: BeaconIdentity, name: String?, _ l: LocatorLocation, previous p: LocatorLocation?, at t: Timestamp
    ) -> OutboundMessage {
        var w = JSONWriter()
        w.beginObject()
        w.field("event", l.isHome ? "location" : "not_home")
        MessageComposer.writeIdentity(&w, beacon)
        w.field("name", name)
        w.field("gateway", l.gateway)
        w.field("floor", l.floor)
        w.field("room", l.room)
        w.field("accuracy", l.accuracy, decimals: 2)
        w.field("confidence", l.confidence, decimals: 2)
        w.field("previous_gateway", p?.gateway)
        w.field("previous_floor", p?.floor)
        w.field("previous_room", p?.room)
        w.field("timestamp", l.since.rfc3339)
        w.endObject()
        return OutboundMessage(
            topic: topics.locatorEvent(beacon), payload: .json(w.text), qos: qos,
            retain: false, kind: .event)
    }

    /// Home Assistant `mqtt_room`: `{"id","name","distance"}` on `<topic>/<room>`; id is
    /// `<uuid>-<major>-<minor>` or `<namespace>-<instance>`.
    func mqttRoom(_ beacon: BeaconIdentity, name: String?, distance: Double, topic: String) -> OutboundMessage {
        OutboundMessage(
            topic: topic,
            payload: .json(HomeAssistantRoomFeed.payload(identity: beacon, name: name, distance: distance)),
            qos: 0, retain: false, kind: .proximity)
    }
}

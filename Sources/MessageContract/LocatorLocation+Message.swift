import BeaconCore
import BeaconWire
import Vocabulary

/// A location as the locator publishes it and reads it back.
extension LocatorLocation {
    /// `{"gateway","floor","room","accuracy","since","confidence","state","last_seen"[,"x","y","error_radius","position_at"][,"rooms"]}`;
    /// the first six are the documented location, `state` is `home`, `unknown` or `not_home`, `last_seen`
    /// lets a late locator time the away timeout, `x`, `y` and `error_radius` the position on the
    /// site plan (when one is configured) and `position_at` the tick that estimated it, `rooms` (belief engine) the likely rooms.
    package var json: String {
        var w = JSONWriter()
        w.beginObject()
        w.field("gateway", gateway)
        w.field("floor", floor)
        w.field("room", room)
        w.field("accuracy", accuracy, decimals: 2)
        w.field("since", since.rfc3339)
        w.field("confidence", confidence, decimals: 2)
        w.field("state", isUnknown ? "unknown" : isHome ? "home" : "not_home")
        w.field("last_seen", lastSeen?.rfc3339)
        if let position {
            w.field("x", position.x, decimals: 2)
            w.field("y", position.y, decimals: 2)
            w.field("error_radius", position.radius, decimals: 2)
            w.field("position_at", position.at.rfc3339)
        }
        if !likely.isEmpty {
            w.key("rooms")
            w.beginArray()
            for l in likely {
                w.beginObject()
                w.field("floor", l.floor)
                w.field("room", l.room)
                w.field("probability", l.probability, decimals: 2)
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.text
    }

    /// Reads a retained `location` message back: the beacon and its location, or nil when the topic
    /// or payload is not a locator's (an empty payload clears the topic).
    package static func retained(topic: String, payload: String, baseTopic: String) -> (BeaconIdentity, Self)? {
        guard case .location(let beacon)? = TopicTree(base: baseTopic).parse(topic),
            let location = retained(payload: payload)
        else { return nil }
        return (beacon, location)
    }

    /// A retained `location` payload; nil when it is not a locator's. `rooms` is not read back: it
    /// describes the decision it was published with, and the next decision writes it anew.
    static func retained(payload: String) -> Self? {
        guard let o = try? JSONObject(payload),
            let since = o.string("since").flatMap(RetainedAttributes.timestamp(rfc3339:)),
            let state = o.string("state"), state == "home" || state == "not_home" || state == "unknown"
        else { return nil }
        let gateway = state != "not_home" ? o.string("gateway") : nil
        if state != "not_home", gateway == nil { return nil }
        return Self(
            gateway: gateway, floor: o.string("floor"), room: o.string("room"), accuracy: o.number("accuracy"),
            since: since, confidence: o.number("confidence"),
            lastSeen: o.string("last_seen").flatMap(RetainedAttributes.timestamp(rfc3339:)),
            isUnknown: state == "unknown")
    }
}

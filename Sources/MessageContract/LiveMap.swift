import BeaconCore
import BeaconWire
import Vocabulary

/// What the live map shows at one moment (`/map.json`, and every `/map/events` update): the site
/// plan (floors, rooms with their colours, walls), each gateway where it stands with its state,
/// and each beacon the locator places, with its recent track. Built from the locator's state
/// (`Locator.liveMap`) on its own thread; plain values, encoded here (docs/metrics.md, "The live map").
package struct LiveMap: Sendable, Equatable {
    package struct Room: Sendable, Equatable {
        package var floor: String
        package var name: String
        /// `#rrggbb`, from `palette` in the plan's order.
        package var color: String
        package var outline: [SitePlan.Point]
    }

    package struct Gateway: Sendable, Equatable {
        package var id: String
        package var floor: String?
        package var room: String?
        /// nil when the site plan does not place it.
        package var position: SitePosition?
        /// false after its retained status said `offline` or `degraded`.
        package var online: Bool
        /// Its clock is off by more than `locator.clock_tolerance` (its readings are corrected).
        package var clockSkewed: Bool
    }

    package struct Beacon: Sendable, Equatable {
        /// The beacon's topic levels under the base topic, e.g. `<uuid>/1/2` or `devices/<name>`.
        package var id: String
        package var name: String?
        package var location: LocatorLocation
        /// The room's colour, nil when it is in no room of the plan.
        package var color: String?
        /// Its recent positions, oldest first (`LiveMapTrails.capacity` at most).
        package var track: [LiveMapTrails.Point]
    }

    package var at: Timestamp
    package var floors: [String]
    package var rooms: [Room]
    package var walls: [SitePlan.Wall]
    package var gateways: [Gateway]
    package var beacons: [Beacon]

    /// Colours for rooms (Tableau 10), distinct next to each other and readable under dark text.
    package static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]

    /// `{"at","floors","rooms":[{"floor","name","color","points"}],"walls":[{"floor","points"}],
    /// "gateways":[{"id","floor","room","x","y","z","online","clock_skewed"}],
    /// "beacons":[{"id","name","state","floor","room","gateway","confidence","since","x","y","error_radius",
    /// "color","track":[{"x","y","at"}]}]}`.
    package var json: String {
        var w = JSONWriter(capacity: 1024 + beacons.count * 256)
        w.beginObject()
        w.field("at", at.rfc3339)
        Self.array("floors", floors, &w) { f, w in w.string(f) }
        Self.array("rooms", rooms, &w) { r, w in
            w.beginObject()
            w.field("floor", r.floor)
            w.field("name", r.name)
            w.field("color", r.color)
            Self.array("points", r.outline, &w, Self.point)
            w.endObject()
        }
        Self.array("walls", walls, &w) { wall, w in
            w.beginObject()
            w.field("floor", wall.floor)
            Self.array("points", wall.points, &w, Self.point)
            w.endObject()
        }
        Self.array("gateways", gateways, &w) { g, w in
            w.beginObject()
            w.field("id", g.id)
            w.field("floor", g.floor)
            w.field("room", g.room)
            w.field("x", g.position?.x, decimals: 2)
            w.field("y", g.position?.y, decimals: 2)
            w.field("z", g.position?.z, decimals: 2)
            w.field("online", g.online)
            w.field("clock_skewed", g.clockSkewed)
            w.endObject()
        }
        Self.array("beacons", beacons, &w, Self.beacon)
        w.endObject()
        return w.text
    }

    /// `"key":[…]`, each item written by `write`.
    private static func array<T>(
        _ key: String, _ items: [T], _ w: inout JSONWriter, _ write: (T, inout JSONWriter) -> Void
    ) {
        w.key(key)
        w.beginArray()
        for item in items { write(item, &w) }
        w.endArray()
    }

    /// `[x,y]`, metres to the centimetre.
    private static func point(_ p: SitePlan.Point, _ w: inout JSONWriter) {
        w.beginArray()
        w.double(p.x, decimals: 2)
        w.double(p.y, decimals: 2)
        w.endArray()
    }

    private static func beacon(_ b: Beacon, _ w: inout JSONWriter) {
        let l = b.location
        w.beginObject()
        w.field("id", b.id)
        w.field("name", b.name)
        w.field("state", l.isUnknown ? "unknown" : l.isHome ? "home" : "not_home")
        w.field("floor", l.floor)
        w.field("room", l.room)
        w.field("gateway", l.gateway)
        w.field("confidence", l.confidence, decimals: 2)
        w.field("since", l.since.rfc3339)
        w.field("x", l.position?.x, decimals: 2)
        w.field("y", l.position?.y, decimals: 2)
        w.field("error_radius", l.position?.radius, decimals: 2)
        w.field("color", b.color)
        array("track", b.track, &w) { p, w in
            w.beginObject()
            w.field("x", p.x, decimals: 2)
            w.field("y", p.y, decimals: 2)
            w.field("at", p.at.rfc3339)
            w.endObject()
        }
        w.endObject()
    }
}

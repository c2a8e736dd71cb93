import BeaconCore
import BeaconWire
import MessageContract
import Settings
import Vocabulary

/// Section `locator`: the locator's own cost, in process, for a site of N gateways × M beacons
/// (issue #18). Every beacon is heard by its home gateway and the two next to it, once a second
/// each, with the proximity payloads the gateways really write (`MessageComposer`); every 20 s, 5 %
/// of the beacons move nearer to the next of their gateways (or back), so decisions are taken. Building a second's messages is not
/// timed; feeding them to `Locator.handle` (topic parse, JSON read, the rule's bookkeeping) and
/// the tick's `advance` are, on the thread's CPU clock.
///
/// Figures: messages in per CPU second, locations out, the CPU time of one tick's decision
/// (median and worst: it adds to `settle` before a location goes out).
struct LocatorBench {
    var options: BenchOptions

    struct Site {
        var gateways: Int
        var beacons: Int
        /// Seconds between a still beacon's readings from one gateway: 1, or the gateways' 30 s
        /// proximity heartbeat (the default publish policy; a beacon that just moved is read every
        /// second for 3 s, as a proximity change publishes at once).
        var period = 1
        /// With a site plan (`sitePlan`): every beacon placed on its floor as well.
        var positions = false
        /// With room fingerprints (`fingerprints`): every room of a beacon's floor weighed.
        var fingerprints = false
        var name: String {
            "\(gateways) gateways × \(beacons) beacons" + (period > 1 ? ", \(period) s heartbeat" : "")
                + (positions ? ", positions" : "") + (fingerprints ? ", fingerprints" : "")
        }
    }

    static let hearers = 3
    static let moverShare = 20  // one beacon in 20 moves …
    static let movePeriod = 20  // … every 20 s

    func run(into report: inout BenchReport) throws(BenchFailure) {
        let sites =
            options.quick
            ? [Site(gateways: 10, beacons: 200), Site(gateways: 50, beacons: 2_000)]
            : [
                Site(gateways: 10, beacons: 200), Site(gateways: 50, beacons: 2_000),
                Site(gateways: 500, beacons: 20_000),
                Site(gateways: 500, beacons: 20_000, period: 30),
                Site(gateways: 500, beacons: 20_000, positions: true),
                Site(gateways: 500, beacons: 20_000, fingerprints: true),
            ]
        let seconds = options.quick ? 30 : 60
        for site in sites where options.includes(site.name) {
            report.add(try measure(site, seconds: seconds))
        }
    }

    private func measure(_ site: Site, seconds: Int) throws(BenchFailure) -> BenchResult {
        let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z
        var composers = Self.composers(site)
        var settings = LocatorSettings()
        if site.positions { settings.positions.plan = Self.sitePlan(site) }
        if site.fingerprints { settings.belief.fingerprints = Self.fingerprints(site) }
        var locator = Locator(settings: settings)
        var messagesIn = 0
        var locationsOut = 0
        var cpu: UInt64 = 0
        var tickCPU: [Double] = []
        var firstLocating: Int?
        var unread = 0
        var out: [OutboundMessage] = []
        var round: [OutboundMessage] = []
        round.reserveCapacity(site.beacons * Self.hearers)
        for second in 0..<seconds {
            let now = start + TimeSpan.seconds(Int64(second))
            round.removeAll(keepingCapacity: true)
            Self.round(site, second: second, at: now, beacons: 0..<site.beacons, composers: &composers, into: &round)
            let t0 = BenchClock.threadCPUNow()
            for m in round where !locator.handle(topic: m.topic, payload: m.payload.text) { unread += 1 }
            let t1 = BenchClock.threadCPUNow()
            out.removeAll(keepingCapacity: true)
            locator.advance(to: now, into: &out)
            let t2 = BenchClock.threadCPUNow()
            cpu &+= t2 &- t0
            tickCPU.append(Double(t2 &- t1) / 1e9)
            messagesIn += round.count
            let located = out.count(where: { $0.topic.hasSuffix("/location") })
            if located > 0, firstLocating == nil { firstLocating = second }
            locationsOut += located
        }
        guard unread == 0 else { throw BenchFailure("the locator did not read \(unread) proximity messages") }
        guard locationsOut >= site.beacons || site.period > 1 else {
            throw BenchFailure("\(site.name): only \(locationsOut) locations for \(site.beacons) beacons")
        }
        let sorted = tickCPU.sorted()
        let worst = tickCPU.indices.max { tickCPU[$0] < tickCPU[$1] } ?? 0
        var r = BenchResult(section: "locator", name: site.name)
        r.add("messages_per_s", Double(messagesIn) / (Double(cpu) / 1e9), "msg/s/core")
        r.add("input_per_s", Double(messagesIn) / Double(seconds), "msg/s offered")
        r.add("locations", Double(locationsOut), "locations in \(seconds) s")
        r.add("tick_median_ms", Repetitions.Outcome.median(tickCPU) * 1e3, "ms/tick", decimals: 2)
        r.add("tick_max_ms", (sorted.last ?? 0) * 1e3, "ms/tick max", decimals: 2)
        r.add("tick_max_second", Double(worst), "s (worst tick)")
        // The first tick that locates places every beacon heard (a location and an event each): the start-up.
        r.add(
            "tick_steady_max_ms", (tickCPU.dropFirst((firstLocating ?? 0) + 1).max() ?? 0) * 1e3,
            "ms/tick max after the first locating one", decimals: 2)
        r.add("decisions_per_tick", Double(locator.counts.decisions) / Double(seconds), "beacons decided/tick")
        return r
    }

    /// The site drawn to scale: each gateway's room a 5 m square, ten in a row to a floor, the
    /// gateway in its middle 2.5 m up.
    static func sitePlan(_ site: Site) -> SitePlan {
        var plan = SitePlan()
        for g in 0..<site.gateways {
            let x = 5 * Double(g % 10)
            plan.rooms.append(
                .init(
                    floor: "\(g / 10)", name: "room\(g)",
                    outline: [.init(x: x, y: 0), .init(x: x + 5, y: 0), .init(x: x + 5, y: 5), .init(x: x, y: 5)]))
            plan.gateways.append(
                .init(id: "gw\(g)", floor: "\(g / 10)", room: "room\(g)", position: .init(x: x + 2.5, y: 2.5, z: 2.5)))
        }
        return plan
    }

    /// A teach-in of the site: in each gateway's room, every gateway of the floor heard as `round`
    /// writes it, 6 dB weaker a room further off, and rarely beyond the next two rooms.
    static func fingerprints(_ site: Site) -> RoomFingerprints {
        let rooms = (0..<site.gateways).map { g in
            var levels: [String: RoomFingerprints.Level] = [:]
            for h in (g / 10 * 10)..<min(g / 10 * 10 + 10, site.gateways) {
                let apart = abs(h - g)
                levels["gw\(h)"] = .init(
                    mean: Double(-60 - 6 * apart), spread: 4, heard: apart < hearers ? 0.95 : 0.05)
            }
            return RoomFingerprints.Room(place: .init(floor: "\(g / 10)", room: "room\(g)"), levels: levels)
        }
        return RoomFingerprints(rooms: rooms)
    }

    /// The site's gateways as `MessageComposer`s: ids gw0…, ten to a floor, a room each.
    static func composers(_ site: Site) -> [MessageComposer] {
        (0..<site.gateways).map { g in
            var c = Configuration()
            c.gateway.id = "gw\(g)"
            c.gateway.floor = "\(g / 10)"
            c.gateway.room = "room\(g)"
            return MessageComposer(c)
        }
    }

    /// One second of proximity messages of `beacons`: each beacon from its home gateway and the next two.
    static func round(
        _ site: Site, second: Int, at now: Timestamp, beacons: some Sequence<Int>, composers: inout [MessageComposer],
        into round: inout [OutboundMessage]
    ) {
        let epoch = second / movePeriod
        for b in beacons {
            let moves = b % moverShare == 0 && epoch % 2 == 1
            let justMoved = b % moverShare == 0 && second >= movePeriod && second % movePeriod < 3
            if site.period > 1, !justMoved, (b + second) % site.period != 0 { continue }
            let identity = BeaconIdentity.uuid(
                BeaconID128(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0),
                major: UInt16(truncatingIfNeeded: b >> 16), minor: UInt16(truncatingIfNeeded: b))
            for h in 0..<hearers {
                let g = (b + h) % site.gateways
                // Rank 0 is the nearest; a mover is nearest to the second of its gateways.
                let rank = moves ? (h + hearers - 1) % hearers : h
                let distance = 1.2 + 2.5 * Double(rank) + 0.1 * Double((b &+ second) % 3)
                let ranged = RangedBeacon(
                    identity: identity, name: nil, address: BluetoothAddress(rawValue: 0xC000_0000_0000 | UInt64(b)),
                    rssi: Int8(-60 - 6 * rank), filteredRSSI: Double(-60 - 6 * rank), measuredPower: -59,
                    accuracy: distance, proximity: rank == 0 ? .near : .far, lastSeen: now)
                composers[g].compose(.didRangeBeacon(ranged, at: now), into: &round)
            }
        }
    }
}

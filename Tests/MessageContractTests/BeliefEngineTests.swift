import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// The belief engine (`locator.engine: belief`) through the whole `Locator`: what it publishes for
/// readings a second apart. Signals are filtered RSSI in dBm; the distances only have to be valid.
struct BeliefEngineTests {
    static var belief: LocatorSettings {
        var s = LocatorSettings()
        s.engine = .belief
        return s
    }

    /// Deterministic noise in ±amplitude dB (a linear congruential generator), so a failure repeats.
    struct Noise {
        var state: UInt64
        mutating func next(_ amplitude: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * amplitude
        }
    }

    /// One reading of `gw` with filtered RSSI `rssi` at `seconds`, and the free-space distance for
    /// it (−59 dBm at 1 m), which the nearest rule compares.
    static func see(_ h: inout LocatorHarness, _ gw: String, rssi: Double, at seconds: Double) {
        let metres = pow(10, (-59 - rssi) / 20)
        h.locator.observe(LocatorHarness.reading(gw, metres, at: seconds, rssi: rssi))
    }

    /// The `room` of each location message, "?" for unknown, "-" for not_home; a location published
    /// again for a new confidence band, in the same room, once.
    static func rooms(_ h: LocatorHarness) -> [String] {
        let all = h.out.filter { $0.topic.hasSuffix("/location") }.map { m in
            let text = m.payload.text
            if text.contains(#""state":"unknown""#) { return "?" }
            guard let r = text.firstRange(of: #""room":""#) else { return "-" }
            return String(text[r.upperBound...].prefix { $0 != "\"" })
        }
        return all.enumerated().filter { $0.offset == 0 || all[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// A beacon in a room is near one of its gateways: the office's second gateway D hearing it
    /// weakly counts against the office, so the lab's C at −61 outweighs the office's B at −60.
    @Test func aRoomIsAsLikelyAsTheMeanOfItsGatewaysLikelihoods() {
        for dWeak in [false, true] {
            var h = LocatorHarness(Self.belief)
            for t in 0..<10 {
                Self.see(&h, "B", rssi: -60, at: Double(t))
                Self.see(&h, "C", rssi: -61, at: Double(t))
                if dWeak { Self.see(&h, "D", rssi: -75, at: Double(t)) }
                h.advance(Double(t) + 1.5)
            }
            #expect(Self.rooms(h) == [dWeak ? "lab" : "office"])
        }
    }

    /// The newest reading a gateway publishes weighs half: it does not lag a walk as the filtered
    /// RSSI does. B's filter still says −64 against C's −60, but B's newest readings say −52.
    @Test func theNewestReadingCountsWithTheFilteredOne() {
        for newest in [nil, -52.0] {
            var h = LocatorHarness(Self.belief)
            for t in 0..<10 {
                let at = Double(t)
                h.locator.observe(
                    LocatorReading(
                        beacon: LocatorHarness.beacon, gateway: "B", floor: "2", room: "office", filteredRSSI: -64,
                        rssi: newest, measuredPower: -59, accuracy: 2.5, timestamp: Fixtures.at(at)))
                Self.see(&h, "C", rssi: -60, at: at)
                h.advance(at + 1.5)
            }
            #expect(Self.rooms(h) == [newest == nil ? "lab" : "office"])
        }
    }

    @Test func noRoomIsNamedWhileTheEvidenceIsEven() {
        var h = LocatorHarness(Self.belief)
        for t in 0..<20 {
            Self.see(&h, "B", rssi: -62, at: Double(t))
            Self.see(&h, "C", rssi: -62, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h).isEmpty)
        for t in 20..<30 {
            Self.see(&h, "B", rssi: -58, at: Double(t))
            Self.see(&h, "C", rssi: -70, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h) == ["office"])
        #expect(h.eventTimes.first.map { $0 <= 23 } == true)
    }

    @Test func aStillBeaconNeverFlipsWhereTheNearestRuleDoes() {
        func run(_ settings: LocatorSettings) -> [String] {
            var h = LocatorHarness(settings)
            var noise = Noise(state: 7)
            for t in 0..<300 {
                Self.see(&h, "B", rssi: -62 + noise.next(6), at: Double(t))
                Self.see(&h, "C", rssi: -67 + noise.next(6), at: Double(t))
                h.advance(Double(t) + 1.5)
            }
            return Self.rooms(h)
        }
        #expect(run(Self.belief) == ["office"])
        // The same readings hand the nearest rule back and forth: the test can tell them apart.
        var nearest = LocatorSettings()
        nearest.engine = .nearest
        nearest.handOver.minDwell = .zero
        #expect(run(nearest).count > 2)
    }

    @Test func aMovingBeaconIsFollowedWithinSeconds() {
        var h = LocatorHarness(Self.belief)
        for t in 0..<120 {
            let moved = t >= 60
            Self.see(&h, "B", rssi: moved ? -72 : -60, at: Double(t))
            Self.see(&h, "C", rssi: moved ? -60 : -72, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h) == ["office", "lab"])
        let followed = h.eventTimes.last.map { $0 - 60 }
        #expect(followed.map { $0 <= 3 } == true, "lab named \(String(describing: followed)) s after the move")
    }

    @Test func gatewaysOfOneRoomSupportEachOther() {
        var h = LocatorHarness(Self.belief)
        for t in 0..<120 {
            // The strongest gateway changes every 5 s between the office's two; the lab's is close.
            let bLeads = (t / 5) % 2 == 0
            Self.see(&h, "B", rssi: bLeads ? -60 : -66, at: Double(t))
            Self.see(&h, "D", rssi: bLeads ? -66 : -60, at: Double(t))
            Self.see(&h, "C", rssi: -64, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h) == ["office"])
    }

    /// 30 s in the office (its gateway B at −58 dBm, the lab's C at −75), then B's retained status
    /// says `status` (offline, or degraded: its adapter hears nothing) and 30 s more of C at
    /// `lab(t)` dBm.
    static func officeGatewayOffline(
        _ s: LocatorSettings = belief, status: Availability = .offline, lab: (Int) -> Double = { _ in -75 }
    )
        -> LocatorHarness
    {
        var h = LocatorHarness(s)
        for t in 0..<30 {
            see(&h, "B", rssi: -58, at: Double(t))
            see(&h, "C", rssi: -75, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(rooms(h) == ["office"])
        let handled = h.locator.handle(topic: "beacons/gateways/B/status", payload: status.rawValue)
        #expect(handled)
        for t in 30..<60 {
            see(&h, "C", rssi: lab(t), at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        return h
    }

    @Test(arguments: [Availability.offline, .degraded])
    func theNamedRoomTurnsUnknownWhenItsGatewayGoesOffline(_ status: Availability) throws {
        let h = Self.officeGatewayOffline(status: status)
        // Not the lab, whose gateway hears the beacon weakly: unknown, on the office's floor.
        #expect(Self.rooms(h) == ["office", "?"])
        let unknown = try #require(h.out.last { $0.topic.hasSuffix("/location") })
        #expect(unknown.payload.text.contains(#""floor":"2""#))
        #expect(unknown.payload.text.contains(#""room":null"#))
        #expect(h.locator.unknownCount == 1)

        var keeps = Self.belief
        keeps.belief.allowsUnknown = false
        let kept = Self.officeGatewayOffline(keeps)
        #expect(Self.rooms(kept) == ["office"])
        #expect(kept.locator.unknownCount == 0)
    }

    /// A gateway that goes offline while its room holds the beacon: the beacon then walks to the
    /// lab, whose gateway hears it as strongly as the office's did. The office, unheard, does not keep
    /// pace with the lab (its gateway would hear the beacon as weakly as the lab's did before).
    @Test func aRoomWhoseGatewayWentOfflineGivesWayWhenTheBeaconWalksOn() {
        let h = Self.officeGatewayOffline { $0 < 35 ? -75 : -58 }
        // Unknown while nothing changes (`theNamedRoomTurnsUnknownWhenItsGatewayGoesOffline`), the lab
        // once the beacon walks there, and the office never again.
        let rooms = Self.rooms(h)
        #expect(rooms.last == "lab" && rooms.filter { $0 == "office" }.count == 1, "\(rooms)")
    }

    /// The lab's gateway goes offline while the beacon is in the office (B at −58 dBm, C at −75);
    /// then B hears it at `office` dBm. Walked away from B as far as C last heard it, the beacon may
    /// be in the lab as well as in the office, and the lab, whose gateway cannot speak, cannot be
    /// named: unknown, rather than keep the office. A beacon still at B's −58 keeps the office.
    @Test func aRoomWhoseGatewaysAreOfflineHoldingTheDoubtMakesTheLocationUnknown() {
        for (office, allows, expected) in [
            (-75.0, true, ["office", "?"]), (-75, false, ["office"]), (-58, true, ["office"]),
        ] {
            var s = Self.belief
            s.belief.allowsUnknown = allows
            var h = LocatorHarness(s)
            for t in 0..<30 {
                Self.see(&h, "B", rssi: -58, at: Double(t))
                Self.see(&h, "C", rssi: -75, at: Double(t))
                h.advance(Double(t) + 1.5)
            }
            h.locator.setGateway("C", online: false)
            for t in 30..<60 {
                Self.see(&h, "B", rssi: office, at: Double(t))
                h.advance(Double(t) + 1.5)
            }
            #expect(Self.rooms(h) == expected, "B at \(office), allow_unknown \(allows)")
        }
    }

    @Test func anotherFloorIsNeverNamedOnOneReading() {
        var h = LocatorHarness(Self.belief)
        for t in 0..<40 {
            // One very strong reading from the hall's gateway on floor 1 at t = 20.
            Self.see(&h, "A", rssi: t == 20 ? -45 : -80, at: Double(t))
            Self.see(&h, "B", rssi: -62, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h) == ["office"])
        for t in 40..<60 {
            Self.see(&h, "A", rssi: -55, at: Double(t))
            Self.see(&h, "B", rssi: -75, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        #expect(Self.rooms(h) == ["office", "hall"])
        // Named on the second reading that favours it, never the first.
        #expect(h.eventTimes.last.map { $0 >= 41 } == true)
    }

    @Test func theLocationCarriesItsConfidenceAndTheLikelyRooms() throws {
        var h = LocatorHarness(Self.belief)
        for t in 0..<15 {
            Self.see(&h, "B", rssi: -60, at: Double(t))
            Self.see(&h, "C", rssi: -61, at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        let location = try #require(h.out.first { $0.topic == LocatorHarness.locationTopic })
        let o = try JSONObject(location.payload.text)
        #expect(o.string("room") == "office")
        #expect(o.string("state") == "home")
        let confidence = try #require(o.number("confidence"))
        #expect(confidence >= 0.7 && confidence < 1)
        #expect(location.payload.text.contains(#""rooms":[{"floor":"2","room":"office","probability":"#))
        #expect(location.payload.text.contains(#"{"floor":"2","room":"lab","probability":"#))
    }

    /// The location of a room that stays named is published again only when its confidence changes
    /// band (below `min_confidence` by 0.1, above it again by 0.1), with its `since`, and without
    /// an event: Home Assistant's attributes change in steps, not every tick.
    @Test func theLocationIsPublishedAgainOnlyWhenTheConfidenceChangesBand() throws {
        var h = LocatorHarness(Self.belief)
        var noise = Noise(state: 11)
        for t in 0..<150 {
            // Clearly the office's, then even (no room is likely enough to take over), then the
            // office's again: the confidence goes down and back up, without a move.
            let lead: Double = t < 40 ? 12 : t < 90 ? 0 : 12
            Self.see(&h, "B", rssi: -60 + noise.next(1), at: Double(t))
            Self.see(&h, "C", rssi: -60 - lead + noise.next(1), at: Double(t))
            h.advance(Double(t) + 1.5)
        }
        let locations = try h.out.filter { $0.topic == LocatorHarness.locationTopic }.map {
            try JSONObject($0.payload.text)
        }
        let confidences = locations.map { $0.number("confidence") ?? -1 }
        #expect(Set(locations.map { $0.string("room") }) == ["office"])
        #expect(Set(locations.map { $0.string("since") }).count == 1)
        #expect(confidences.count == 3, "\(confidences)")
        #expect(confidences.map { LocatorLocation.band($0, 0.7) } == [1, 0, 1], "\(confidences)")
        #expect(confidences.count == 3 && confidences[1] < 0.6 && confidences[2] >= 0.8, "\(confidences)")
        #expect(h.out.filter { $0.topic.hasSuffix("/event") }.count == 1)
    }
}

extension BeliefEngineTests {
    /// A locator that starts late adopts the retained room: its gateways get `stale_after` to
    /// report (a still beacon's gateway publishes on its heartbeat), and no other room is named
    /// before three ticks of evidence.
    @Test func aRestoredRoomWaitsForItsGatewaysAndForEvidence() {
        let hall = LocatorLocation(
            gateway: "A", floor: "1", room: "hall", accuracy: 1, since: Fixtures.at(0), confidence: 0.9,
            lastSeen: Fixtures.at(0))
        // The hall's gateway reports 10 s after the start, nearer than the office's.
        var kept = LocatorHarness(Self.belief)
        kept.locator.restore(LocatorHarness.beacon, hall)
        for s in stride(from: 100.5, to: 140, by: 1) {
            Self.see(&kept, "B", rssi: -75, at: s)
            if s > 110 { Self.see(&kept, "A", rssi: -60, at: s) }
            kept.advance(s + 1.5)
        }
        #expect(kept.eventTimes.isEmpty, "\(Self.rooms(kept))")
        // It never reports: once the hall's grace has passed (`stale_after` from the first tick,
        // 100 s) the hall is unknown, then the office once its floor has led two ticks.
        var moved = LocatorHarness(Self.belief)
        moved.locator.restore(LocatorHarness.beacon, hall)
        for s in stride(from: 100.5, to: 140, by: 1) {
            Self.see(&moved, "B", rssi: -75, at: s)
            moved.advance(s + 1.5)
        }
        #expect(Self.rooms(moved) == ["?", "office"])
        #expect(moved.eventTimes == [136, 137])
    }

    /// The locator decides a track only when its decision can change; a belief waiting for its
    /// first ticks of evidence, or for a floor lead to last, can change with no new message.
    @Test func aBeliefWaitingForTicksIsDecidedWithoutANewMessage() {
        for everyTrack in [false, true] {
            var h = LocatorHarness(Self.belief)
            h.locator.decidesEveryTrack = everyTrack
            Self.see(&h, "B", rssi: -60, at: 0)
            h.advance(10)
            #expect(Self.rooms(h) == ["office"], "every track: \(everyTrack)")
            #expect(h.eventTimes == [2], "every track: \(everyTrack)")
        }
    }

    /// With fingerprints, the first room waits only for the gateways they weigh on the floor: all
    /// of them heard the beacon at its first tick, so it is named then; with D, which has a level
    /// in each room, not yet heard, after three ticks as without fingerprints.
    @Test func aFirstRoomWaitsOnlyForTheGatewaysTheFingerprintsWeigh() {
        let office = RoomBelief.Place(floor: "2", room: "office")
        let lab = RoomBelief.Place(floor: "2", room: "lab")
        let level = { (mean: Double) in RoomFingerprints.Level(mean: mean, spread: 4, heard: 0.95) }
        var s = Self.belief
        s.belief.fingerprints = RoomFingerprints(rooms: [
            .init(place: office, levels: ["B": level(-60), "C": level(-75), "D": level(-62)]),
            .init(place: lab, levels: ["B": level(-75), "C": level(-60), "D": level(-80)]),
        ])
        for dHeard in [true, false] {
            var h = LocatorHarness(s)
            for t in 0..<4 {
                Self.see(&h, "B", rssi: -60, at: Double(t))
                Self.see(&h, "C", rssi: -75, at: Double(t))
                if dHeard { Self.see(&h, "D", rssi: -62, at: Double(t)) }
                h.advance(Double(t) + 0.5)
            }
            #expect(Self.rooms(h) == ["office"], "D heard: \(dHeard)")
            #expect(h.eventTimes == [dHeard ? 0 : 2], "D heard: \(dHeard)")
        }
    }

    @Test func aFloorLeadIsCountedWithoutANewMessage() {
        for everyTrack in [false, true] {
            var h = LocatorHarness(Self.belief)
            h.locator.decidesEveryTrack = everyTrack
            for t in 0..<10 {
                Self.see(&h, "B", rssi: -60, at: Double(t))
                h.advance(Double(t) + 1.5)
            }
            // One message from each gateway, then silence: the hall's floor leads from then on.
            Self.see(&h, "A", rssi: -50, at: 10)
            Self.see(&h, "B", rssi: -80, at: 10)
            h.advance(20)
            #expect(Self.rooms(h) == ["office", "hall"], "every track: \(everyTrack)")
        }
    }
}

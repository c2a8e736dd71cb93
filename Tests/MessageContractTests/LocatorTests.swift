import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing

/// The `nearest` engine's hand-over rule (docs/locator.md, "The nearest engine").
@Suite struct LocatorTests {
    typealias H = LocatorHarness

    @Test func firstReadingsLocateAtTheNearestGatewayOnTheFirstSettledTick() {
        var h = H(.nearest)
        h.see("A", 2, at: 0.2)
        h.see("B", 5, at: 0.4)
        let quietEarly = h.advance(1.9)
        #expect(quietEarly.isEmpty)  // tick 1 s is decided once the clock passes 1 s + settle
        let o = h.advance(2.0)
        #expect(o.map(\.topic) == [H.locationTopic, H.eventTopic])
        #expect(o[0].retain && o[0].qos == 1 && o[0].kind == .location)
        // confidence = (1/2) / (1/2 + 1/5) = 0.714…
        #expect(
            o[0].payload
                == .json(
                    #"{"gateway":"A","floor":"1","room":"hall","accuracy":2,"since":"2024-05-01T12:00:01.000Z","confidence":0.71,"state":"home","last_seen":"2024-05-01T12:00:00.400Z"}"#
                ))
        #expect(!o[1].retain && o[1].kind == .event)
        #expect(
            o[1].payload
                == .json(
                    #"{"event":"location","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":null,"gateway":"A","floor":"1","room":"hall","accuracy":2,"confidence":0.71,"previous_gateway":null,"previous_floor":null,"previous_room":null,"timestamp":"2024-05-01T12:00:01.000Z"}"#
                ))
    }

    @Test func theFirstDecisionDoesNotDependOnWhenTheClockFirstAdvances() {
        var prompt = H(.nearest)
        var slow = H(.nearest)
        prompt.see("A", 2, at: 0.5)
        slow.see("A", 2, at: 0.5)
        prompt.advance(2)
        slow.advance(7.5)  // a locator whose clock first moves 5 s later decides the same tick
        #expect(prompt.out == slow.out)
        #expect(slow.eventTimes == [1])
    }

    @Test func aChallengerLessThanFifteenPercentCloserNeverTakesOver() {
        var h = H(.nearest)
        for s in stride(from: 0.5, to: 120, by: 1) {
            h.see("B", 3.0, at: s)
            h.see("C", s.truncatingRemainder(dividingBy: 2) < 1 ? 3.3 : 2.7, at: s + 0.1)  // 10 % farther, then closer
            h.advance(s + 1)
        }
        #expect(h.owners == ["B"])
    }

    @Test func thirtyPercentCloserTakesOverAtOnceOnTheSameFloor() {
        var h = H(.nearest)
        h.see("B", 4, at: 0.5)
        h.advance(2)
        h.see("C", 2.9, at: 19.5)  // 27.5 % closer: not outright, one reading: not sustained
        h.advance(21)
        #expect(h.owners == ["B"])
        h.see("C", 2.79, at: 21.5)  // just over 30 % closer
        h.advance(23)
        #expect(h.owners == ["B", "C"])
        #expect(h.eventTimes == [1, 22])
    }

    @Test func fifteenPercentCloserTakesOverAfterThreeConsistentReadings() {
        var h = H(.nearest)
        for s in [0.5, 10.5, 20.5] { h.see("B", 4, at: s) }
        h.advance(2)
        h.see("C", 3.39, at: 20.6)  // just over 15 % closer (0.85 · 4 = 3.4)
        h.see("C", 3.3, at: 21.6)
        h.advance(23)
        #expect(h.owners == ["B"])
        h.see("C", 3.2, at: 22.6)
        h.advance(24)
        #expect(h.owners == ["B", "C"])
        #expect(h.eventTimes == [1, 23])
    }

    @Test func oneReadingBeyondFifteenPercentBreaksTheSustainedRule() {
        var h = H(.nearest)
        h.see("B", 4, at: 0.5)
        h.advance(2)
        for s in [10.5, 20.5] { h.see("B", 4, at: s) }
        h.see("C", 3.3, at: 20.6)
        h.see("C", 3.5, at: 21.6)  // only 12.5 % closer
        h.see("C", 3.3, at: 22.6)
        h.advance(24)
        #expect(h.owners == ["B"])
    }

    @Test func aNewOwnerIsKeptForTheMinimumDwell() {
        var h = H(.nearest)
        h.see("B", 4, at: 0.5)
        h.advance(2)
        h.see("C", 1, at: 3.0)  // far closer, but B became owner at 1 s
        h.advance(11.9)
        #expect(h.owners == ["B"])
        h.advance(12)
        #expect(h.eventTimes == [1, 11])  // 1 s + min_dwell 10 s
    }

    @Test func aStaleOwnerIsReplacedByTheGatewayStillSeeingTheBeacon() {
        var h = H(.nearest)
        h.see("A", 1, at: 0)
        for s in stride(from: 0.0, through: 40, by: 5) { h.see("B", 5, at: s) }
        h.advance(1)
        h.advance(35.9)
        #expect(h.owners == ["A"])
        h.advance(36)  // tick 35: A's reading is 35 s old = stale_after
        #expect(h.owners == ["A", "B"])
        #expect(h.eventTimes == [0, 35])
    }

    @Test func anOfflineGatewayDoesNotCount() {
        var h = H(.nearest)
        h.see("A", 1, at: 0.5)
        h.see("B", 5, at: 0.5)
        h.advance(2)
        h.advance(5)
        h.locator.setGateway("A", online: false)
        h.advance(6)
        #expect(h.owners == ["A", "B"])
        #expect(h.eventTimes == [1, 5])
        let handled = h.locator.handle(topic: "beacons/gateways/B/status", payload: "offline")
        #expect(handled)
        h.advance(7)
        #expect(h.owners == ["A", "B"])  // nobody left: the location stays until away_timeout
    }

    /// A message of a kind the locator reads whose payload it cannot read changes nothing and is
    /// counted; an empty one (a retained message cleared) changes nothing and is not.
    @Test func aMalformedMessageChangesNothingAndIsCounted() {
        var h = H(.nearest)
        h.see("A", 1, at: 0.5)
        h.locator.setGateway("B", online: false)
        let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1"
        let bad = [
            ("\(beacon)/A/proximity", "{not json"),
            ("\(beacon)/A/proximity", #"{"timestamp":"2024-05-01T12:00:01.000Z"}"#),
            ("\(beacon)/A/event", #"{"event":"exit"}"#),
            ("\(beacon)/location", "[]"),
            ("beacons/gateways/B/status", "up"),
        ]
        for (topic, payload) in bad {
            let read = h.locator.handle(topic: topic, payload: payload)
            #expect(!read, "\(topic)")
        }
        #expect(h.locator.counts.malformed == bad.count)
        #expect(!h.locator.hears("B"))
        _ = h.locator.handle(topic: "beacons/gateways/B/status", payload: "")
        #expect(h.locator.counts.malformed == bad.count && !h.locator.hears("B"))
        h.advance(6)
        #expect(h.owners == ["A"])
        let enter = h.locator.handle(
            topic: "\(beacon)/A/event", payload: #"{"event":"enter","timestamp":"2024-05-01T12:00:00.500Z"}"#)
        #expect(enter && h.locator.counts.malformed == bad.count)
    }

    @Test func aGatewaysExitEventDropsItsOlderReadings() {
        var h = H(.nearest)
        h.see("B", 1, at: 0.5)
        h.see("C", 5, at: 0.5)
        h.advance(2)
        h.advance(5)
        h.locator.gatewayLost(H.beacon, gateway: "B", at: Fixtures.at(10.5))
        h.advance(12)
        #expect(h.owners == ["B", "C"])
        #expect(h.eventTimes == [1, 11])
    }

    @Test func anotherFloorNeedsTwoOutrightReadingsNeverOne() {
        var h = H(.nearest)
        h.see("A", 5, at: 0.5)
        h.advance(2)
        h.see("A", 5, at: 19.5)
        h.see("B", 1, at: 19.6)  // 80 % closer, but on floor 2
        h.advance(25)
        #expect(h.owners == ["A"])
        h.see("B", 1.2, at: 25.5)
        h.advance(27)
        #expect(h.owners == ["A", "B"])
        #expect(h.eventTimes == [1, 26])
    }

    @Test func closeReadingsPreferTheFloorWithMoreGateways() {
        var h = H(.nearest)
        h.see("A", 3.0, at: 0.5)  // floor 1, nearest
        h.see("B", 3.3, at: 0.5)  // floor 2, within 30 % …
        h.see("C", 3.5, at: 0.5)  // … and seen by two gateways
        h.advance(2)
        #expect(h.owners == ["B"])

        var clear = H(.nearest)
        clear.see("A", 2.0, at: 0.5)  // 2.0 ≤ 0.7 · 3.3: clearly nearer, floor 1 wins
        clear.see("B", 3.3, at: 0.5)
        clear.see("C", 3.5, at: 0.5)
        clear.advance(2)
        #expect(clear.owners == ["A"])
    }

    @Test func aSustainedWinOnAnotherFloorIsRefusedWhileTheOwnersFloorHasMoreGateways() {
        var h = H(.nearest)
        for s in [0.5, 1.5, 2.5, 13.5, 14.5, 15.5] {
            h.see("B", 4, at: s)
            h.see("C", 4.5, at: s)
            h.see("A", 3.2, at: s + 0.1)  // 20 % closer than B, floor 1 seen by one gateway only
        }
        h.advance(2)
        #expect(h.owners == ["B"])  // close readings: floor 2 has two gateways
        h.advance(17)
        #expect(h.owners == ["B"])
    }

    @Test func notHomeExactlyAwayTimeoutAfterTheLastReading() {
        var h = H(.nearest)
        h.see("A", 1, at: 0.5)
        h.advance(2)
        h.advance(121.9)
        #expect(h.owners == ["A"])
        let o = h.advance(122)  // tick 121 ≥ 0.5 + 120
        #expect(h.owners == ["A", "-"])
        #expect(o.first?.topic == H.locationTopic)
        #expect(o.first?.payload.text.contains(#""state":"not_home","last_seen":"2024-05-01T12:00:00.500Z""#) == true)
        #expect(o.last?.payload.text.hasPrefix(#"{"event":"not_home""#) == true)
        #expect(h.eventTimes == [1, 120.5])
        let quiet300 = h.advance(300)
        #expect(quiet300.isEmpty)
        #expect(h.locator.trackedCount == 0)  // forgotten once away with no readings left
        h.see("B", 2, at: 299.6)
        h.advance(301)
        #expect(h.owners == ["A", "-", "B"])
    }

    @Test func rssiOffsetCalibratesAGatewayBeforeDistancesAreCompared() {
        // log distance, n = 2: d = 10^((−59 − rssi) / 20): −65 dBm → 2.0 m, −71 dBm → 4.0 m, −61 dBm → 1.26 m.
        var distance = DistanceSettings()
        distance.model = .logDistance
        distance.exponent = 2
        var settings = LocatorSettings.nearest
        for offset in [0.0, 10] {
            settings.rssiOffsets = ["B": offset]
            var h = H(settings, distance: distance)
            h.locator.observe(H.reading("A", 2.0, at: 0.5, rssi: -65))
            h.locator.observe(H.reading("B", 4.0, at: 0.5, rssi: -71))
            h.advance(2)
            #expect(h.owners == [offset == 0 ? "A" : "B"])
            #expect(
                h.locator.location(of: H.beacon)?.accuracy.map { ($0 * 100).rounded() } == (offset == 0 ? 200 : 126))
        }
    }

    @Test func unknownDistancesAreIgnored() {
        var h = H(.nearest)
        h.see("A", -1, at: 0.5)
        h.advance(10)
        #expect(h.out.isEmpty)
    }

    @Test func mqttRoomFeedFollowsTheOwnerOnly() {
        var settings = LocatorSettings.nearest
        settings.mqttRoomTopic = "room_presence"
        var h = H(settings)
        h.see("B", 2, at: 0.5)
        h.see("C", 5, at: 0.5)
        h.advance(2)
        h.see("C", 5, at: 2.5)  // not the owner: no feed
        h.advance(4)
        h.see("B", 2.5, at: 4.5)
        h.advance(6)
        let feed = h.out.filter { $0.topic.hasPrefix("room_presence/") }
        #expect(feed.map(\.topic) == ["room_presence/office", "room_presence/office"])
        #expect(
            feed.first?.payload
                == .json(
                    #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","name":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","distance":2}"#
                ))
        #expect(feed.allSatisfy { $0.qos == 0 && !$0.retain })
    }
}

extension LocatorSettings {
    /// The defaults with the `nearest` engine.
    static var nearest: LocatorSettings {
        var s = LocatorSettings()
        s.engine = .nearest
        return s
    }
}

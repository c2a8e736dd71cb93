import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

@Suite struct LocatorConfigTests {
    /// A gateway that loses power or its network is announced by its Last Will one and a half
    /// keepalives later. Before `stale_after` its silent readings still count and the locator can
    /// let its room hold the doubt (docs/locator.md, "When a receiver goes offline"); after it, the
    /// dead gateway would count as not hearing the beacon, and take the belief from its room.
    @Test func theDefaultKeepaliveAnnouncesADeadGatewayWithinStaleAfter() {
        let will = MQTTSettings().keepalive.seconds * 1.5
        #expect(will < LocatorSettings().staleAfter.seconds)
    }

    @Test func everyLocatorKeyLandsInItsField() throws {
        let config = try parse(
            """
            locator:
              enabled: true
              interval: 2s
              settle: 500ms
              stale_after: 40s
              away_timeout: 5m
              switch_outright: 0.4
              switch_sustained: 0.2
              history_window: 6
              min_history: 4
              min_dwell: 20s
              floor_confirmations: 3
              rssi_offset:
                hall: -4
                kitchen: 2.5
              mqtt_room_topic: room_presence
            """)
        let l = config.locator
        #expect(l.enabled)
        #expect(l.interval == .seconds(2))
        #expect(l.settle == .milliseconds(500))
        #expect(l.staleAfter == .seconds(40))
        #expect(l.awayTimeout == .seconds(300))
        #expect(l.handOver.switchOutright == 0.4)
        #expect(l.handOver.switchSustained == 0.2)
        #expect(l.handOver.historyWindow == 6)
        #expect(l.handOver.minHistory == 4)
        #expect(l.handOver.minDwell == .seconds(20))
        #expect(l.floorConfirmations == 3)
        #expect(l.rssiOffsets == ["hall": -4, "kitchen": 2.5])
        #expect(l.mqttRoomTopic == "room_presence")
    }

    @Test func theLocatorIntervalFollowsTheRangingIntervalUnlessSet() throws {
        #expect(try parse("ranging:\n  interval: 2s\n").locator.interval == .seconds(2))
        #expect(try parse("ranging:\n  interval: 2s\nlocator:\n  interval: 3s\n").locator.interval == .seconds(3))
    }

    @Test func inconsistentHandOverSettingsAreErrorsAtTheirKey() {
        #expect(throws: ConfigError.self) { try parse("locator:\n  history_window: 2\n  min_history: 3\n") }
        do {
            _ = try parse("locator:\n  switch_outright: 0.1\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.key == "locator.switch_sustained")
            #expect(error.line == 2)
        }
    }

    @Test func aShardIsKOfN() throws {
        #expect(try parse("locator:\n  shard: 2/3\n").locator.shard == LocatorShard(index: 2, count: 3))
        #expect(try parse("locator:\n  shard: 1/1\n").locator.shard == LocatorShard(index: 1, count: 1))
        #expect(try parse("locator:\n  shard:\n").locator.shard == nil)
        #expect(try parse("").locator.shard == nil)
    }

    @Test func aBadShardIsAnErrorAtItsLineAndKey() {
        for (text, says) in [
            ("0/2", "k must be between 1 and 2"), ("3/2", "k must be between 1 and 2"), ("1/0", "between 1 and 1024"),
            ("1/2000", "between 1 and 1024"), ("a/b", "expected k/n"), ("1/2/3", "expected k/n"), ("2", "expected k/n"),
            ("+1/2", "expected k/n"), ("1 / 2", "expected k/n"), ("[1, 2]", "expected a text value"),
        ] {
            do {
                _ = try parse("locator:\n  enabled: true\n  shard: \(text)\n")
                Issue.record("shard \(text) was accepted")
            } catch {
                #expect(error.key == "locator.shard", "\(text)")
                #expect(error.line == 3, "\(text)")
                #expect(error.message.contains(says), "\(text): \(error.message)")
            }
        }
    }

    @Test func theClockToleranceIsADurationFrom100msToAnHour() throws {
        #expect(try parse("").locator.clockTolerance == .seconds(2))
        #expect(try parse("locator:\n  clock_tolerance: 100ms\n").locator.clockTolerance == .milliseconds(100))
        #expect(try parse("locator:\n  clock_tolerance: 1h\n").locator.clockTolerance == .seconds(3600))
        for (text, says) in [
            ("50ms", "must be between"), ("2h", "must be between"), ("2", "has no unit"), ("soon", "soon"),
        ] {
            do {
                _ = try parse("locator:\n  enabled: true\n  clock_tolerance: \(text)\n")
                Issue.record("clock_tolerance \(text) was accepted")
            } catch {
                #expect(error.key == "locator.clock_tolerance", "\(text)")
                #expect(error.line == 3, "\(text)")
                #expect(error.message.contains(says), "\(text): \(error.message)")
            }
        }
    }

    @Test func fingerprintsAreRoomsWithEachGatewaysLevel() throws {
        #expect(try parse("").locator.belief.fingerprints == nil)
        let f = try #require(
            try parse(
                """
                locator:
                  fingerprints:
                    - {floor: "0", room: "living room", power: -59, rssi: {kitchen-gw: [-52.1, 6.6, 0.998], hall: [-64.8, 4.8, 0.5]}}
                    - {room: hall, rssi: {hall: [-50, 3, 0.9]}}
                """
            ).locator.belief.fingerprints)
        #expect(f.rooms.map(\.place) == [.init(floor: "0", room: "living room"), .init(floor: nil, room: "hall")])
        #expect(f.rooms.map(\.power) == [-59, nil])
        #expect(f.rooms[0].levels["kitchen-gw"] == .init(mean: -52.1, spread: 6.6, heard: 0.998))
        #expect(f.rooms[1].levels == ["hall": .init(mean: -50, spread: 3, heard: 0.9)])
        #expect(f.gateways(on: "0")?.sorted() == ["hall", "kitchen-gw"])
        #expect(f.gateways(on: nil) == ["hall"])
        #expect(try parse("locator:\n  fingerprints: []\n").locator.belief.fingerprints == nil)
    }

    /// What `survey` prints is read back as it was fitted (to its printed precision).
    @Test func printedFingerprintsReadBack() throws {
        let rooms = [
            RoomFingerprints.Room(
                place: .init(floor: "0", room: "living room"),
                levels: ["a": .init(mean: -52.1, spread: 6.6, heard: 0.998)], power: -59.5),
            RoomFingerprints.Room(
                place: .init(floor: nil, room: "hall"), levels: ["b": .init(mean: -50, spread: 3, heard: 0.9)]),
        ]
        let yaml =
            "locator:\n  fingerprints:\n"
            + YAMLText.fingerprints(RoomFingerprints(rooms: rooms)).map { "    - \($0)\n" }.joined()
        #expect(yaml.contains("room: \"living room\", power: -59.5, rssi:"), "\(yaml)")
        #expect(try parse(yaml).locator.belief.fingerprints?.rooms == rooms)
    }

    @Test func aFingerprintsMistakeNamesItsLineAndKey() {
        for (room, says) in [
            ("{room: hall, rssi: {a: [-50, 3]}}", "expected [mean dBm, spread dB, share heard], found 2"),
            ("{room: hall, rssi: {a: [-50, 3, 1]}}", "between"),
            ("{room: hall, rssi: {a: [-50, 0, 0.5]}}", "between"),
            ("{room: hall, rssi: {\"a/b\": [-50, 3, 0.5]}}", "gateway id"),
            ("{room: hall, rssi: {}}", "no gateway"),
            ("{rssi: {a: [-50, 3, 0.5]}}", "missing"),
            ("{room: hall, power: 30, rssi: {a: [-50, 3, 0.5]}}", "between"),
            ("{room: hall, power: loud, rssi: {a: [-50, 3, 0.5]}}", "number"),
        ] {
            do {
                _ = try parse("locator:\n  enabled: true\n  fingerprints:\n    - \(room)\n")
                Issue.record("\(room) was accepted")
            } catch {
                #expect(error.key.hasPrefix("locator.fingerprints"), "\(room): \(error.key)")
                #expect(error.line == 4, "\(room)")
                #expect(error.message.contains(says), "\(room): \(error.message)")
            }
        }
        do {
            _ = try parse(
                "locator:\n  fingerprints:\n    - {room: hall, rssi: {a: [-50, 3, 0.5]}}\n"
                    + "    - {room: hall, rssi: {a: [-60, 3, 0.5]}}\n")
            Issue.record("a room twice was accepted")
        } catch {
            #expect(error.line == 4)
            #expect(error.message.contains("unique"), "\(error.message)")
        }
    }

    @Test func rssiOffsetKeysMustBeGatewayIdsAndValuesDecibels() {
        #expect(throws: ConfigError.self) { try parse("locator:\n  rssi_offset:\n    hall: 99\n") }
        #expect(throws: ConfigError.self) { try parse("locator:\n  rssi_offset:\n    \"a/b\": 1\n") }
        #expect(throws: ConfigError.self) { try parse("locator:\n  enabeld: true\n") }
    }
}

@Suite struct HomeAssistantConfigTests {
    @Test func homeAssistantKeysLandInTheirFields() throws {
        let config = try parse("homeassistant:\n  discovery: true\n  prefix: ha\n  room_topic: room_presence\n")
        #expect(
            config.homeAssistant == HomeAssistantSettings(discovery: true, prefix: "ha", roomTopic: "room_presence"))
        #expect(try parse("").homeAssistant == HomeAssistantSettings())
    }

    @Test func aWildcardInThePrefixIsAnErrorAtItsLine() {
        do {
            _ = try parse("homeassistant:\n  prefix: ha/#\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.key == "homeassistant.prefix")
            #expect(error.line == 2)
        }
    }
}

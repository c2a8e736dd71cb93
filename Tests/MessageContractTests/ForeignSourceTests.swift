import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// Other projects' receivers read as gateways (`ForeignReport`, `ForeignSourceReader`), on the
/// messages in Tests/Fixtures/foreign (see its PROVENANCE.md).
@Suite struct ForeignSourceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/foreign")

    /// `<topic> <payload>` lines.
    static func messages(_ file: String) throws -> [(topic: String, payload: [UInt8])] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let space = line.firstIndex(of: " ")!
            return (String(line[..<space]), Array(line[line.index(after: space)...].utf8))
        }
    }

    static let alice = DeviceSettings(
        name: "alice-phone", identification: .irk(IdentityResolvingKey(text: "c408ac77728161d428a7a226be49b140")!))
    static let keys = DeviceSettings(name: "keys", identification: .address(BluetoothAddress("c1:02:03:04:05:06")!))

    static let espresense = ForeignSource(
        format: .espresense, nodes: ["kitchen": .init(gateway: "esp-kitchen", floor: "1", room: "kitchen")])
    static let omg = ForeignSource(
        format: .openmqttgateway, nodes: ["OpenMQTTGateway": .init(gateway: "omg-hall", floor: "1", room: "hall")])

    @Test func espresenseReportsNameTheirBeaconsAndDevices() throws {
        var reader = ForeignSourceReader(sources: [Self.espresense], devices: [Self.alice, Self.keys])
        let outcomes = try Self.messages("espresense.txt").map {
            reader.read(topic: $0.topic, payload: $0.payload, at: Fixtures.t0)
        }
        func reading(_ i: Int) -> LocatorReading? {
            if case .reading(let r, _)? = outcomes[i] { return r }
            return nil
        }
        let ibeacon = try #require(reading(0))
        #expect(ibeacon.beacon == .uuid(Fixtures.uuidA, major: 1, minor: 2))
        #expect(ibeacon.gateway == "esp-kitchen" && ibeacon.floor == "1" && ibeacon.room == "kitchen")
        #expect(ibeacon.filteredRSSI == -67.43 && ibeacon.measuredPower == -59 && ibeacon.accuracy == 2.15)
        #expect(ibeacon.timestamp == Fixtures.t0)
        #expect(reading(1)?.beacon == .uuid(Fixtures.uuidB, major: 7, minor: 65535))
        // The firmware prints the namespace's fifth octet twice; the namespace is the beacon's own.
        let eddystone = try #require(reading(2)?.beacon)
        #expect(eddystone.eddystoneNamespace == "edd1ebeac04e5defa017" && eddystone.eddystoneInstance == "ebb1cb1c7cc1")
        #expect(outcomes[3] == .reading(try #require(reading(3)), device: "alice-phone"))
        #expect(reading(3)?.beacon == .device(named: "alice-phone") && reading(3)?.name == "alice-phone")
        // known:<mac>, a bare <mac>, and an alias whose mac is the configured address: all the tag.
        for i in [4, 5, 7] { #expect(reading(i)?.beacon == .device(named: "keys"), "line \(i + 1)") }
        // An Apple Continuity fingerprint and a manufacturer-data fingerprint are no identity.
        #expect(outcomes[6] == .ignored("espresense message from node kitchen: no beacon or configured device"))
        if case .ignored? = outcomes[8] {
        } else {
            Issue.record("md: fingerprint was read: \(String(describing: outcomes[8]))")
        }
        #expect(outcomes[9] == .status(gateway: "esp-kitchen", online: false))
        #expect(reader.counters.readings == 7)
        #expect(reader.counters.unknownIdentity == 2)
        #expect(reader.counters.statuses == 1)
        #expect(reader.counters.malformed == 0 && reader.counters.unmappedNode == 0)
    }

    @Test func openMQTTGatewayMessagesAsItsDocsShowThem() throws {
        var reader = ForeignSourceReader(sources: [Self.omg])
        let outcomes = try Self.messages("openmqttgateway.txt").map {
            reader.read(topic: $0.topic, payload: $0.payload, at: Fixtures.t0)
        }
        let beacon = BeaconIdentity.uuid(
            BeaconID128(uuidString: "1de4b189115e45f6b44e509352269977")!, major: 0, minor: 0)
        let expected = LocatorReading(
            beacon: beacon, gateway: "omg-hall", floor: "1", room: "hall", filteredRSSI: -78, measuredPower: -66,
            accuracy: 7.85288, timestamp: Fixtures.t0)
        // By address and with presenceUseBeaconUuid: the same reading.
        #expect(outcomes[0] == .reading(expected, device: nil))
        #expect(outcomes[1] == .reading(expected, device: nil))
        // Service data that is no Eddystone-UID, and a sensor without rssi.
        #expect(
            outcomes[2] == .ignored("openmqttgateway message from node OpenMQTTGateway: no beacon or configured device")
        )
        #expect(
            outcomes[3] == .ignored("openmqttgateway message from node OpenMQTTGateway: no beacon or configured device")
        )
        #expect(outcomes[4] == .ignored("openmqttgateway message from node OpenMQTTGateway: rssi missing"))
        #expect(outcomes[5] == .status(gateway: "omg-hall", online: false))
        #expect(reader.counters.readings == 2 && reader.counters.unknownIdentity == 2 && reader.counters.malformed == 1)
    }

    @Test func theDecodersSignedMinorIsTheBeaconsMinor() {
        var reader = ForeignSourceReader(sources: [Self.omg])
        // What the Theengs decoder makes of minor f2ff (TheengsDecoderTests, on a recorded capture).
        let payload =
            #"{"id":"A4:C1:38:BF:6F:AB","rssi":-49,"brand":"GENERIC","model":"iBeacon","model_id":"IBEACON","type":"BCON","mfid":"4c00","uuid":"494e54454c4c495f524f434b535f4857","major":20594,"minor":-3329,"txpower":-62}"#
        let outcome = reader.read(
            topic: "home/OpenMQTTGateway/BTtoMQTT/A4C138BF6FAB", payload: Array(payload.utf8), at: Fixtures.t0)
        guard case .reading(let r, nil)? = outcome else {
            Issue.record("\(String(describing: outcome))")
            return
        }
        #expect(
            r.beacon == .uuid(BeaconID128(uuidString: "494e54454c4c495f524f434b535f4857")!, major: 20594, minor: 62207))
        #expect(r.measuredPower == -62)
    }

    @Test func anEddystoneUIDFromRawServiceDataAndADistanceFromRSSIWhenTheNodeSendsNone() throws {
        var reader = ForeignSourceReader(sources: [Self.omg])
        // Theengs Gateway with publish_all: the undecoded advertisement, service data under `feaa`.
        let payload =
            #"{"id":"EB:B1:CB:1C:7C:C1","rssi":-59,"servicedatauuid":"feaa","servicedata":"00ededd1ebeac04e5defa017ebb1cb1c7cc10000"}"#
        let outcome = reader.read(
            topic: "home/OpenMQTTGateway/BTtoMQTT/EBB1CB1C7CC1", payload: Array(payload.utf8), at: Fixtures.t0)
        guard case .reading(let r, nil)? = outcome else {
            Issue.record("\(String(describing: outcome))")
            return
        }
        #expect(r.beacon.eddystoneNamespace == "edd1ebeac04e5defa017" && r.beacon.eddystoneInstance == "ebb1cb1c7cc1")
        // Tx power at 0 m −19 dBm: −60 dBm at 1 m; −59 dBm is then a little under a metre.
        #expect(r.measuredPower == -60)
        #expect(r.accuracy == DistanceEstimator.accuracy(rssi: -59, measuredPower: -60, settings: DistanceSettings()))
        #expect(r.accuracy > 0.8 && r.accuracy < 1)
    }

    @Test func badInputIsCountedAndExplainedAndNeverAReading() {
        var reader = ForeignSourceReader(sources: [Self.espresense, Self.omg], devices: [Self.keys])
        let bad: [(String, String, String)] = [
            ("espresense/devices/x/kitchen", "not json", "espresense message from node kitchen: not a JSON object"),
            (
                "espresense/devices/x/kitchen", #"{"rssi":-60,"distance":1}"#,
                "espresense message from node kitchen: id missing"
            ),
            (
                "espresense/devices/x/kitchen", #"{"id":"c10203040506","rssi":-60}"#,
                "espresense message from node kitchen: distance missing"
            ),
            (
                "espresense/devices/x/kitchen", #"{"id":"c10203040506","rssi":"-60","distance":1}"#,
                "espresense message from node kitchen: rssi is not a number in -127.0…20.0"
            ),
            (
                "espresense/devices/x/kitchen", #"{"id":"c10203040506","distance":-1}"#,
                "espresense message from node kitchen: distance is not a number in 0.0…1000.0"
            ),
            (
                "espresense/devices/iBeacon:zz/kitchen", #"{"id":"iBeacon:e2c56db5-1-2","distance":1}"#,
                "espresense message from node kitchen: no beacon or configured device"
            ),
            ("espresense/devices/x/garage", #"{"id":"c10203040506","distance":1}"#, "node garage is not mapped"),
            ("espresense/rooms/garage/status", "offline", "node garage is not mapped"),
            (
                "espresense/rooms/kitchen/status", "sleeping",
                "availability of node kitchen is neither online nor offline"
            ),
            (
                "home/OpenMQTTGateway/BTtoMQTT/x", #"{"id":"x","rssi":-60,"model_id":"IBEACON","uuid":"12"}"#,
                "openmqttgateway message from node OpenMQTTGateway: uuid is not 32 hex digits"
            ),
            (
                "home/OpenMQTTGateway/BTtoMQTT/x",
                #"{"id":"x","rssi":-60,"model_id":"IBEACON","uuid":"1de4b189115e45f6b44e509352269977","major":70000,"minor":1}"#,
                "openmqttgateway message from node OpenMQTTGateway: major is not a number in -32768.0…65535.0"
            ),
            (
                "home/OpenMQTTGateway/BTtoMQTT/x", #"{"rssi":-60}"#,
                "openmqttgateway message from node OpenMQTTGateway: id missing"
            ),
            ("home/OMG_2/BTtoMQTT/x", #"{"id":"c1:02:03:04:05:06","rssi":-60}"#, "node OMG_2 is not mapped"),
        ]
        for (topic, payload, why) in bad {
            #expect(
                reader.read(topic: topic, payload: Array(payload.utf8), at: Fixtures.t0) == .ignored(why),
                "\(topic) \(payload)")
        }
        #expect(reader.counters.malformed == 9)
        #expect(reader.counters.unknownIdentity == 1)
        #expect(reader.counters.unmappedNode == 3)
        #expect(reader.counters.readings == 0 && reader.counters.ignored == bad.count)
        // Topics of no source are not the reader's.
        #expect(reader.read(topic: "beacons/gateways/A/status", payload: Array("offline".utf8), at: Fixtures.t0) == nil)
        #expect(reader.read(topic: "espresense/devices/x/kitchen/query", payload: [], at: Fixtures.t0) == nil)
        #expect(
            reader.subscriptions == [
                "espresense/devices/+/+", "espresense/rooms/+/status", "home/+/BTtoMQTT/+", "home/+/LWT",
            ])
    }
}

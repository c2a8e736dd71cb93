import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

/// file < fleet < gateway over the parsed trees, with the file's own validation.
@Suite struct ConfigLayersTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static let file = """
        gateway:
          id: gw1
          room: hall
        mqtt:
          username: gateway
          password_file: /etc/beacon2mqtt/password
        regions:
          - name: office
            uuid: \(uuid)
          - name: zone
            uuid: \(uuid)
            major: 1
        """
    static let fleet = "beacons/fleet/config/set"
    static let gateway = "beacons/gateways/gw1/config/set"
    let t0 = Timestamp(microseconds: 1_714_564_800_000_000)

    func layers() throws -> ConfigLayers {
        try ConfigLayers(file: "beacon2mqtt.yaml", bytes: Array(Self.file.utf8), defaults: testDefaults)
    }

    func set(_ l: inout ConfigLayers, _ layer: ConfigLayer, _ text: String) throws(ConfigError) -> Configuration {
        try l.set(layer, payload: Array(text.utf8), source: layer == .fleet ? Self.fleet : Self.gateway, at: t0)
    }

    /// The error text for `text` as the fleet layer, and that nothing changed.
    func refusal(_ text: String) throws -> String? {
        var l = try layers()
        _ = try set(&l, .fleet, #"{"gateway": {"floor": "2"}}"#)
        let before = (l.configuration, l.document)
        do {
            _ = try set(&l, .fleet, text)
            return nil
        } catch {
            #expect(l.configuration == before.0)
            #expect(l.document == before.1)
            return error.description
        }
    }

    @Test func aFleetLayerAddsABeaconNameAndTheGatewayLayerBeatsTheFleet() throws {
        var l = try layers()
        let beacon =
            #"{"beacons": [{"uuid": "\#(Self.uuid)", "major": 1, "minor": 2, "name": "keys"}], "gateway": {"room": "lobby"}}"#
        var c = try set(&l, .fleet, beacon)
        #expect(c.beacons.map(\.name) == ["keys"])
        #expect(c.gateway.room == "lobby")
        #expect(c.regions.map(\.name) == ["office", "zone"])  // the file's, untouched
        c = try set(&l, .gateway, "gateway:\n  room: kitchen\n")
        #expect(c.gateway.room == "kitchen")
        #expect(c.beacons.map(\.name) == ["keys"])  // the fleet's, merged key by key
        #expect(c.gateway.id == "gw1")
        // An empty payload removes a layer: the fleet's room shows again.
        c = try set(&l, .gateway, "")
        #expect(c.gateway.room == "lobby")
        #expect(l.layers.keys.sorted() == [.fleet])
    }

    @Test func regionsAndBeaconsChangePerItemByIdentity() throws {
        var l = try layers()
        var c = try set(
            &l, .fleet,
            #"{"regions": {"zone": null, "office": {"exit_timeout": "30s"}, "lab": {"uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e"}}}"#
        )
        #expect(c.regions.map(\.name) == ["office", "lab"])
        #expect(c.regions[0].exitTimeout == .seconds(30))
        #expect(c.regions[0].uuid == BeaconID128(uuidString: Self.uuid))
        c = try set(&l, .fleet, "beacons:\n  \(Self.uuid)/1/2:\n    name: keys\n")
        #expect(
            c.beacons == [
                BeaconOverride(identity: .uuid(BeaconID128(uuidString: Self.uuid)!, major: 1, minor: 2), name: "keys")
            ])
        // The gateway layer renames that beacon (matched without case or dashes) and removes it again.
        let plain = Self.uuid.uppercased().filter { $0 != "-" }
        c = try set(&l, .gateway, #"{"beacons": {"\#(plain)/1/2": {"name": "wallet"}}}"#)
        #expect(c.beacons.map(\.name) == ["wallet"])
        c = try set(&l, .gateway, #"{"beacons": {"\#(Self.uuid)/1/2": null}}"#)
        #expect(c.beacons.isEmpty)
    }

    @Test func badPayloadsSayWhyInCheckConfigsWordsAndChangeNothing() throws {
        // Not JSON, not YAML.
        #expect(
            try refusal(#"{"gateway": {"room": "x"}"#)?.hasPrefix("\(Self.fleet):2:1: did not find expected ',' or '}'")
                == true)
        #expect(try refusal("gateway:\n  room: [a\n")?.hasPrefix("\(Self.fleet):") == true)
        // An unknown key, with a suggestion.
        #expect(
            try refusal(#"{"monitoring": {"exit_timout": "5s"}}"#)
                == "\(Self.fleet):1:17: monitoring.exit_timout: unknown key; did you mean 'exit_timeout'?")
        // A wrong type.
        #expect(
            try refusal("gateway:\n  rssi_offset: loud\n")
                == "\(Self.fleet):2:16: gateway.rssi_offset: expected a number, found 'loud'")
        // Restart-only keys.
        for text in [#"{"mqtt": {"host": "elsewhere"}}"#, "scanner:\n  adapter: hci1\n", "gateway:\n  id: other\n"] {
            let message = try refusal(text)
            #expect(
                message?.contains("takes effect only after a restart, so it cannot be set over MQTT") == true, "\(text)"
            )
        }
        #expect(try refusal(#"{"mqtt": {"host": "x"}}"#)?.hasPrefix("\(Self.fleet):1:2: mqtt: ") == true)
        // Oversize.
        let big = "gateway:\n  room: " + String(repeating: "x", count: ConfigLayer.maximumPayload) + "\n"
        #expect(try refusal(big)?.contains("over the limit of 65536") == true)
        // Not a mapping, and a region item that is not one.
        #expect(try refusal("[1, 2]")?.contains("must be a mapping") == true)
        #expect(
            try refusal(#"{"regions": {"zone": 5}}"#)?.contains("regions.zone: expected a mapping of this item's keys")
                == true)
        // A gateway section that is not a mapping would replace gateway.id (found by the `layer` fuzz
        // target: "gateway:" with nothing made the id "default").
        for text in ["gateway:\n", "gateway: ~\n", "gateway: hall\n", #"{"gateway": [1]}"#] {
            #expect(
                try refusal(text)?.contains(
                    "gateway: a layer sets gateway.floor, gateway.room or gateway.rssi_offset as a mapping") == true,
                "\(text)")
        }
        // An empty key is named as one (found by the `layer` fuzz target: " ?" said "unknown key" of nothing).
        #expect(
            try refusal(" ?")
                == "\(Self.fleet):1:3: \"\": unknown key; known keys here: \(ConfigKeys.sections[""]!.joined(separator: ", "))"
        )
    }

    @Test func theEffectiveDocumentNamesTheLayersAndRedactsSecrets() throws {
        var l = try layers()
        let layer = #"{"gateway": {"floor": 2, "rssi_offset": -3.5}}"#
        _ = try set(&l, .fleet, layer)
        let d = l.document
        #expect(ConfigLayer.digest(Array(layer.utf8)).count == 16)
        #expect(
            d.contains(
                #""layers":[{"layer":"file","source":"beacon2mqtt.yaml"},{"layer":"fleet","source":"beacons/fleet/config/set","applied":"2024-05-01T12:00:00.000Z","digest":"\#(ConfigLayer.digest(Array(layer.utf8)))"}]"#
            ))
        #expect(d.contains(#""username":"<redacted>","password_file":"<redacted>""#))
        #expect(!d.contains("/etc/beacon2mqtt/password"))
        #expect(d.contains(#""gateway":{"id":"gw1","room":"hall","floor":2,"rssi_offset":-3.5}"#))
    }

    /// The map's password file and the endpoint's key are secrets too.
    @Test func theMapsSecretsAreRedacted() throws {
        let file =
            Self.file + "\nmetrics:\n  listen: 127.0.0.1:9851\n  map: true\n"
            + "  map_password_file: /etc/beacon2mqtt/map-passwords\n  tls_certificate: /etc/beacon2mqtt/map.crt\n"
            + "  tls_key: /etc/beacon2mqtt/map.key\n"
        let d = try ConfigLayers(file: "beacon2mqtt.yaml", bytes: Array(file.utf8), defaults: testDefaults).document
        #expect(
            d.contains(
                #""map_password_file":"<redacted>","tls_certificate":"/etc/beacon2mqtt/map.crt","tls_key":"<redacted>""#
            ),
            "\(d)")
        #expect(!d.contains("map-passwords") && !d.contains("map.key"))
    }

    @Test func aReloadedFileKeepsTheLayersOnTop() throws {
        var l = try layers()
        _ = try set(&l, .gateway, "gateway:\n  room: kitchen\n")
        let c = try l.reloadFile(bytes: Array("gateway:\n  id: gw1\n  room: cellar\n  floor: '-1'\n".utf8))
        #expect(c.gateway.room == "kitchen")
        #expect(c.gateway.floor == "-1")
        #expect(c.regions.isEmpty)
        #expect(throws: ConfigError.self) { try l.reloadFile(bytes: Array("gateway: [\n".utf8)) }
        #expect(l.configuration == c)
    }

    @Test func theConfigClientEditsOneKeyOfALayer() throws {
        var d = try ConfigLayerDocument(payload: Array(#"{"gateway": {"room": "hall"}}"#.utf8), source: Self.fleet)
        try d.set("gateway.floor", valueText: "2")
        try d.set("beacons", valueText: #"[{"uuid": "\#(Self.uuid)", "major": 1, "minor": 2, "name": "keys"}]"#)
        #expect(d.value("gateway.floor") == "2")
        #expect(d.value("gateway.room") == #""hall""#)
        #expect(
            d.json
                == #"{"gateway":{"room":"hall","floor":2},"beacons":[{"uuid":"\#(Self.uuid)","major":1,"minor":2,"name":"keys"}]}"#
        )
        let removed = [d.remove("gateway.room"), d.remove("gateway.floor"), d.remove("gateway.floor")]
        #expect(removed == [true, true, false])
        #expect(d.value("gateway") == nil)
        let beaconsRemoved = d.remove("beacons")
        #expect(beaconsRemoved)
        #expect(d.isEmpty)
        #expect(throws: ConfigError.self) { try ConfigLayerDocument(payload: Array("[1]".utf8), source: Self.fleet) }
    }
    @Test func runTimeKeysApplyAndOnlyTheRestartOnlyOnesAreRefused() throws {
        var l = try layers()
        let c = try set(
            &l, .fleet,
            #"{"log_level": "debug", "telemetry": {"enabled": true, "interval": "30s"}, "locator": {"enabled": true, "min_dwell": "5s"}, "devices": [{"name": "phone", "irk": "0123456789abcdef0123456789abcdef"}]}"#
        )
        #expect(c.logLevel == .debug)
        #expect(c.telemetry.enabled && c.telemetry.interval == .seconds(30))
        #expect(c.locator.enabled && c.locator.handOver.minDwell == .seconds(5))
        #expect(c.devices.map(\.name) == ["phone"])
        // A device's key is a secret: never in the effective configuration.
        #expect(!l.document.contains("0123456789abcdef"))
        #expect(l.document.contains(#""devices":[{"name":"phone","irk":"<redacted>"}]"#))
        // Devices change per item by name, like regions.
        let d = try set(&l, .gateway, #"{"devices": {"watch": {"address": "aa:bb:cc:dd:ee:ff"}, "phone": null}}"#)
        #expect(d.devices.map(\.name) == ["watch"])
        for key in [
            "mqtt: {port: 1884}", "scanner: {mode: active}", "gateway: {id: other}", "remote_config: {enabled: false}",
            "metrics: {listen: ':9100'}",
        ] {
            let message = try refusal(key)
            #expect(
                message?.contains("takes effect only after a restart, so it cannot be set over MQTT") == true, "\(key)")
        }
    }

    /// A null document ("~", "null", a comment) is a layer that sets nothing; taking it away again
    /// gives back the document before it (found by the `layer` fuzz target).
    @Test func aNullLayerSetsNothingAndRemovingItGivesBackTheDocument() throws {
        var l = try layers()
        _ = try set(&l, .gateway, #"{"gateway": {"floor": "2"}}"#)
        let before = (l.configuration, l.document)
        let c = try set(&l, .fleet, "~")
        #expect(c == before.0)
        _ = try set(&l, .fleet, "")
        #expect(l.configuration == before.0)
        #expect(l.document == before.1)
    }
}

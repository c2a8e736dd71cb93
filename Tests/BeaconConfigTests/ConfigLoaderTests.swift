import BeaconCore
import BeaconWire
import Glibc
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

/// Happy paths: each key, written differently from its default, lands in the right field.
@Suite struct ConfigLoaderTests {
    @Test func emptyAndCommentOnlyFilesGiveTheDefaults() throws {
        #expect(try parse("") == testDefaults)
        #expect(try parse("# just a comment\n") == testDefaults)
        #expect(try parse("~\n") == testDefaults)
    }

    @Test func emptySectionsAndEmptyValuesKeepTheDefaults() throws {
        #expect(try parse("gateway:\nmqtt:\n  port:\n  tls:\nregions:\nbeacons: []\n") == testDefaults)
    }

    @Test func logLevel() throws {
        #expect(try parse("log_level: debug").logLevel == .debug)
        #expect(try parse("log_level: critical").logLevel == .critical)
    }

    @Test func gatewaySection() throws {
        let config = try parse(
            """
            gateway:
              id: hall-1
              floor: 2
              room: "Kitchen"
              rssi_offset: -4.5
            """)
        #expect(config.gateway.id == "hall-1")
        #expect(config.gateway.floor == "2")
        #expect(config.gateway.room == "Kitchen")
        #expect(config.gateway.rssiOffset == -4.5)
    }

    @Test func gatewayIDDefaultsToTheHostNamePassedIn() throws {
        #expect(try parse("gateway:\n  room: hall\n").gateway.id == "pi-hall")
        #expect(try parse("gateway:\n  id:\n").gateway.id == "pi-hall")
    }

    @Test func numbersForFloorAndRoomAreKeptAsWritten() throws {
        let config = try parse("gateway:\n  floor: 2.50\n  room: 007\n")
        #expect(config.gateway.floor == "2.50")
        #expect(config.gateway.room == "007")
    }

    @Test func scannerSection() throws {
        let config = try parse(
            """
            scanner:
              adapter: hci1
              mode: active
              interval: 1.28s
              window: 30ms
              watchdog: 0
              read_interval: 50ms
            """)
        var expected = ScannerSettings()
        expected.adapter = "hci1"
        expected.mode = .active
        expected.interval = .milliseconds(1280)
        expected.window = .milliseconds(30)
        expected.watchdog = .zero
        expected.readInterval = .milliseconds(50)
        #expect(config.bluetooth.scanner == expected)
        #expect(try parse("scanner:\n  mode: passive\n").bluetooth.scanner.readInterval == nil)
        #expect(try parse("scanner:\n  read_interval: adaptive\n").bluetooth.scanner.readInterval == nil)
        #expect(try parse("scanner:\n  read_interval: 0\n").bluetooth.scanner.readInterval == .zero)
    }

    @Test func scannerAdapterByAddressIsStoredLowercase() throws {
        #expect(try parse("scanner:\n  adapter: 00:1A:7D:DA:71:13\n").bluetooth.scanner.adapter == "00:1a:7d:da:71:13")
        #expect(try parse("scanner:\n  adapter: auto\n").bluetooth.scanner.adapter == "auto")
    }

    @Test func scanTimesAcceptTheSpecLimits() throws {
        // 0x0004 × 0.625 ms and 0x4000 × 0.625 ms (Core Spec Vol 4, Part E, §7.8.10).
        let config = try parse("scanner:\n  interval: 10.24s\n  window: 2.5ms\n")
        #expect(config.bluetooth.scanner.interval == TimeSpan(microseconds: 10_240_000))
        #expect(config.bluetooth.scanner.window == TimeSpan(microseconds: 2_500))
    }

    @Test func mqttSection() throws {
        let config = try parse(
            """
            mqtt:
              host: broker.lan
              port: 8883
              base_topic: home/ble
              client_id: gw-hall
              username: beacon
              password_file: /etc/beacon2mqtt/password
              tls:
                enabled: yes
                ca_file: /etc/ssl/ca.pem
                ca_path: /etc/ssl/certs
                cert_file: /etc/beacon2mqtt/client.pem
                key_file: /etc/beacon2mqtt/client.key
                version: tlsv1.3
              qos: 2
              keepalive: 1m
              protocol: 5
              clean_session: on
              stats_interval: 0
              outbox_limit: 50_000
              require_broker_at_start: true
              reconnect_min: 500ms
              reconnect_max: 2m
            """)
        var expected = MQTTSettings()
        expected.host = "broker.lan"
        expected.port = 8883
        expected.baseTopic = "home/ble"
        expected.clientID = "gw-hall"
        expected.credentials.username = "beacon"
        expected.credentials.passwordFile = "/etc/beacon2mqtt/password"
        expected.tls.enabled = true
        expected.tls.caFile = "/etc/ssl/ca.pem"
        expected.tls.caPath = "/etc/ssl/certs"
        expected.tls.certFile = "/etc/beacon2mqtt/client.pem"
        expected.tls.keyFile = "/etc/beacon2mqtt/client.key"
        expected.tls.version = "tlsv1.3"
        expected.qos = 2
        expected.keepalive = .seconds(60)
        expected.protocolVersion = .v5
        expected.cleanSession = true
        expected.statsInterval = .zero
        expected.outboxLimit = 50_000
        expected.requireBrokerAtStart = true
        expected.reconnect.minimum = .milliseconds(500)
        expected.reconnect.maximum = .seconds(120)
        #expect(config.mqtt == expected)
    }

    @Test(arguments: [
        ("protocol: \"3.1.1\"", MQTTSettings.ProtocolVersion.v311), ("protocol: 3.1.1", .v311),
        ("protocol: 311", .v311), ("protocol: 5", .v5), ("protocol: \"5\"", .v5),
    ])
    func mqttProtocolSpellings(line: String, version: MQTTSettings.ProtocolVersion) throws {
        // Start from the other version so each spelling must actively set its own.
        var defaults = testDefaults
        defaults.mqtt.protocolVersion = version == .v5 ? .v311 : .v5
        let config = try ConfigLoader.parse(yaml: "mqtt:\n  \(line)\n", file: "t.yaml", defaults: defaults)
        #expect(config.mqtt.protocolVersion == version)
    }

    @Test func monitoringSection() throws {
        let config = try parse(
            """
            monitoring:
              exit_timeout: 45s
              restore_max_age: 0
              max_tracked: 16
              per_beacon: false
              attributes_refresh: 1h
            """)
        var expected = MonitoringSettings()
        expected.exitTimeout = .seconds(45)
        expected.restoreMaxAge = .zero
        expected.maxTracked = 16
        expected.perBeacon = false
        expected.attributesRefresh = .seconds(3600)
        #expect(config.monitoring == expected)
    }

    @Test func rangingSection() throws {
        let config = try parse(
            """
            ranging:
              interval: 500ms
              stale_after: 500ms
              filter:
                type: kalman
                window: 3s
                trim: 0.25
                process_noise: 0.01
                measurement_noise: 2.5
              distance:
                model: log_distance
                exponent: 3
                default_measured_power: -65
              proximity:
                immediate: 1
                near: 3.5
              publish:
                on_proximity_change: false
                accuracy_deadband: 0
                rssi_deadband: 2.5
                heartbeat: 0
                ranging_list: no
            """)
        var expected = RangingSettings()
        expected.interval = .milliseconds(500)
        expected.staleAfter = .milliseconds(500)
        expected.filter.kind = .kalman
        expected.filter.window = .seconds(3)
        expected.filter.trim = 0.25
        expected.filter.processNoise = 0.01
        expected.filter.measurementNoise = 2.5
        expected.distance.model = .logDistance
        expected.distance.exponent = 3
        expected.distance.defaultMeasuredPower = -65
        expected.proximity.immediate = 1
        expected.proximity.near = 3.5
        expected.publish.onProximityChange = false
        expected.publish.accuracyDeadband = 0
        expected.publish.rssiDeadband = 2.5
        expected.publish.heartbeat = .zero
        expected.publish.rangingList = false
        #expect(config.ranging == expected)
    }

    @Test func filterTypeTrimmedMean() throws {
        #expect(try parse("ranging:\n  filter:\n    type: trimmed_mean\n").ranging.filter.kind == .trimmedMean)
        #expect(try parse("ranging:\n  filter:\n    type: none\n").ranging.filter.kind == FilterSettings.Kind.none)
    }

    @Test func booleansAcceptYAML11Spellings() throws {
        for (text, value) in [
            ("true", true), ("yes", true), ("on", true), ("True", true), ("false", false), ("no", false),
            ("off", false),
        ] {
            #expect(try parse("monitoring:\n  per_beacon: \(text)\n").monitoring.perBeacon == value, "\(text)")
        }
    }

    @Test func regionsWithUUIDAndMajorMinor() throws {
        let config = try parse(
            """
            regions:
              - name: lobby
                uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0
                major: 1
                minor: 65535
                notify_entry: false
                exit_timeout: 30s
              - name: any-estimote
                uuid: b9407f30f5f8466eaff925556b57fe6d
                notify_exit: false
            """)
        let first = BeaconRegion(
            name: "lobby", scheme: .uuid, uuid: BeaconID128(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0),
            major: 1, minor: 65535, notifyEntry: false, exitTimeout: .seconds(30))
        let second = BeaconRegion(
            name: "any-estimote", scheme: .uuid,
            uuid: BeaconID128(high: 0xB940_7F30_F5F8_466E, low: 0xAFF9_2555_6B57_FE6D),
            notifyExit: false)
        #expect(config.regions == [first, second])
    }

    @Test func regionWithMajorOnly() throws {
        let region = try #require(
            try parse("regions:\n  - name: a\n    uuid: e2c56db5dffb48d2b060d0f5a71096e0\n    major: 7\n").regions.first
        )
        #expect(region.major == 7)
        #expect(region.minor == nil)
    }

    @Test func eddystoneRegionKeepsTheNamespaceInTheHighTenBytes() throws {
        let config = try parse(
            """
            regions:
              - name: warehouse
                namespace: EDD1EBEAC04E5DEFA017
                instance: 0000000000a1
              - name: all-of-namespace
                namespace: edd1ebeac04e5defa017
            """)
        let namespace = BeaconID128(high: 0xEDD1_EBEA_C04E_5DEF, low: 0xA017_0000_0000_0000)
        #expect(
            config.regions == [
                BeaconRegion(name: "warehouse", scheme: .eddystone, uuid: namespace, instance: 0xA1),
                BeaconRegion(name: "all-of-namespace", scheme: .eddystone, uuid: namespace),
            ])
        #expect(BeaconIdentity.eddystone(config.regions[0].uuid).eddystoneNamespace == "edd1ebeac04e5defa017")
    }

    @Test func beaconsOfBothSchemes() throws {
        let config = try parse(
            """
            beacons:
              - uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
                major: 1
                minor: 2
                name: Keys
                measured_power: -61
                exit_timeout: 60s
              - namespace: edd1ebeac04e5defa017
                instance: 0000000000b2
            """)
        let keys = BeaconOverride(
            identity: .uuid(BeaconID128(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0), major: 1, minor: 2),
            name: "Keys", measuredPower: -61, exitTimeout: .seconds(60))
        let cart = BeaconOverride(
            identity: .eddystone(BeaconID128(high: 0xEDD1_EBEA_C04E_5DEF, low: 0xA017_0000_0000_00B2)))
        #expect(config.beacons == [keys, cart])
        #expect(config.beacons[1].identity.eddystoneInstance == "0000000000b2")
    }

    @Test func flowStyleIsAcceptedToo() throws {
        let config = try parse(
            "mqtt: {host: b, port: 1884}\nregions: [{name: a, uuid: e2c56db5dffb48d2b060d0f5a71096e0}]\n")
        #expect(config.mqtt.host == "b")
        #expect(config.mqtt.port == 1884)
        #expect(config.regions.map(\.name) == ["a"])
    }

    @Test func explicitStringTagMakesANumberText() throws {
        #expect(try parse("gateway:\n  id: !!str 42\n").gateway.id == "42")
    }

    @Test func loadReadsAFileAndUsesTheHostName() throws {
        let path = "/tmp/beacon2mqtt-config-test-\(UInt64.random(in: 0...UInt64.max)).yaml"
        let text = "mqtt:\n  port: 1884\n"
        let stream = try #require(fopen(path, "w"))
        fputs(text, stream)
        fclose(stream)
        defer { remove(path) }
        let config = try ConfigLoader.load(path: path, defaultGatewayID: "host-7")
        #expect(config.mqtt.port == 1884)
        #expect(config.gateway.id == "host-7")
    }

    @Test func loadReportsAMissingFileWithoutAPosition() {
        do {
            _ = try ConfigLoader.load(path: "/nonexistent/beacon2mqtt.yaml", defaultGatewayID: "h")
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.description == "/nonexistent/beacon2mqtt.yaml: cannot read: No such file or directory")
        }
    }
}

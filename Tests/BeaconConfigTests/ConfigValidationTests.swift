import BeaconCore
import Settings
import Testing

@testable import BeaconConfig

/// Each validation error's exact text and position. Columns are counted by hand from the YAML:
/// a value after `  key: ` starts at 2 + key length + 3.
@Suite struct ConfigValidationTests {
    // MARK: Keys

    @Test func unknownKeysSuggestTheClosestKnownOne() {
        #expect(failure("mqtt:\n  prot: 1\n") == "test.yaml:2:3: mqtt.prot: unknown key; did you mean 'port'?")
        #expect(failure("mtqq:\n  port: 1\n") == "test.yaml:1:1: mtqq: unknown key; did you mean 'mqtt'?")
        #expect(
            failure("mqtt:\n  base-topic: x\n")
                == "test.yaml:2:3: mqtt.base-topic: unknown key; did you mean 'base_topic'?")
        #expect(failure("mqtt:\n  Port: 1\n") == "test.yaml:2:3: mqtt.Port: unknown key; did you mean 'port'?")
    }

    @Test func unknownKeysWithoutANearMissListTheKnownKeys() {
        #expect(
            failure("gateway:\n  colour: red\n")
                == "test.yaml:2:3: gateway.colour: unknown key; known keys here: id, floor, room, rssi_offset, position"
        )
    }

    @Test func unknownKeysInListItemsNameTheItem() {
        #expect(
            failure("regions:\n  - name: a\n    uuid: e2c56db5dffb48d2b060d0f5a71096e0\n    mayor: 1\n")
                == "test.yaml:4:5: regions[0].mayor: unknown key; did you mean 'major'?")
    }

    @Test func aPasswordKeyIsRefusedWithTheAlternative() {
        #expect(
            failure("mqtt:\n  password: hunter2\n")
                == "test.yaml:2:3: mqtt.password: a password does not belong in the configuration file; put it in a "
                + "file readable only by the agent and set mqtt.password_file")
    }

    @Test func wrongShapesSayWhatWasExpected() {
        #expect(failure("mqtt: localhost\n") == "test.yaml:1:7: mqtt: expected a mapping of keys, found 'localhost'")
        #expect(
            failure("regions:\n  name: a\n")
                == "test.yaml:2:3: regions: expected a list (items start with '- '), found a mapping")
        #expect(failure("mqtt:\n  host: [a, b]\n") == "test.yaml:2:9: mqtt.host: expected a text value, found a list")
        #expect(
            failure("- a\n- b\n")
                == "test.yaml:1:1: the configuration must be a mapping of sections (gateway:, mqtt:, …), found a list")
    }

    // MARK: Scalars

    @Test func numbersAndBooleansMustNotBeQuoted() {
        #expect(
            failure("mqtt:\n  port: \"1883\"\n")
                == "test.yaml:2:9: mqtt.port: expected a whole number, found the quoted string \"1883\"")
        #expect(
            failure("monitoring:\n  per_beacon: 'true'\n")
                == "test.yaml:2:15: monitoring.per_beacon: expected true or false, found the quoted string \"true\"")
    }

    @Test func malformedScalars() {
        #expect(
            failure("monitoring:\n  per_beacon: maybe\n")
                == "test.yaml:2:15: monitoring.per_beacon: expected true or false, found 'maybe'")
        #expect(
            failure("gateway:\n  rssi_offset: abc\n")
                == "test.yaml:2:16: gateway.rssi_offset: expected a number, found 'abc'")
        #expect(
            failure("gateway:\n  rssi_offset: .inf\n")
                == "test.yaml:2:16: gateway.rssi_offset: expected a number, found '.inf'")
        #expect(failure("mqtt:\n  port: 18.83\n") == "test.yaml:2:9: mqtt.port: expected a whole number, found '18.83'")
        #expect(failure("gateway:\n  floor: \"\"\n") == "test.yaml:2:10: gateway.floor: must not be empty")
    }

    @Test func enumerationsListTheChoicesAndSuggest() {
        #expect(
            failure("log_level: warn\n")
                == "test.yaml:1:12: log_level: must be one of trace, debug, info, notice, warning, error, critical, "
                + "found 'warn'; did you mean 'warning'?")
        #expect(
            failure("log_level: verbose\n")
                == "test.yaml:1:12: log_level: must be one of trace, debug, info, notice, warning, error, critical, found 'verbose'"
        )
        #expect(
            failure("ranging:\n  filter:\n    type: kalmann\n")
                == "test.yaml:3:11: ranging.filter.type: must be one of none, median, trimmed_mean, kalman, found 'kalmann'; "
                + "did you mean 'kalman'?")
        #expect(
            failure("scanner:\n  mode: pasive\n")
                == "test.yaml:2:9: scanner.mode: must be one of active, passive, listen, found 'pasive'; did you mean 'passive'?"
        )
    }

    // MARK: gateway

    @Test func gatewayIDMustBeATopicLevel() {
        #expect(
            failure("gateway:\n  id: a/b\n")
                == "test.yaml:2:7: gateway.id: must not contain '/' (it is an MQTT topic level)")
        #expect(
            failure("gateway:\n  id: hall#1\n")
                == "test.yaml:2:7: gateway.id: must not contain the MQTT wildcards '+' or '#' (it is an MQTT topic level)"
        )
        #expect(
            failure("gateway:\n  id: ''\n")
                == "test.yaml:2:7: gateway.id: must not be empty (it is an MQTT topic level)")
    }

    @Test func anUnusableHostNameAsksForGatewayID() {
        var defaults = Configuration()
        defaults.gateway.id = "a+b"
        do {
            _ = try ConfigLoader.parse(yaml: "", file: "t.yaml", defaults: defaults)
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "t.yaml: gateway.id: the host name 'a+b' cannot be a topic level (it must not contain the MQTT "
                    + "wildcards '+' or '#'); set gateway.id")
        }
    }

    @Test func rssiOffsetRange() {
        #expect(
            failure("gateway:\n  rssi_offset: 31\n")
                == "test.yaml:2:16: gateway.rssi_offset: must be between -30 and 30, found 31")
        #expect(
            failure("gateway:\n  rssi_offset: -30.5\n")
                == "test.yaml:2:16: gateway.rssi_offset: must be between -30 and 30, found -30.5")
    }

    // MARK: scanner

    @Test func scannerAdapterForms() {
        let expected = "must be auto, hciN (e.g. hci0) or a controller address like 00:1a:7d:da:71:13"
        #expect(failure("scanner:\n  adapter: hci\n") == "test.yaml:2:12: scanner.adapter: \(expected), found 'hci'")
        #expect(
            failure("scanner:\n  adapter: 00:1a:7d:da:71\n")
                == "test.yaml:2:12: scanner.adapter: \(expected), found '00:1a:7d:da:71'")
        // The kernel's index is 16 bits: a larger one is refused here, not by the scanner at start.
        #expect(
            failure("scanner:\n  adapter: hci70000\n")
                == "test.yaml:2:12: scanner.adapter: \(expected), found 'hci70000'")
        #expect(failure("scanner:\n  adapter: hci65535\n") == nil)
    }

    @Test func scanIntervalLimitsComeFromTheSpec() {
        // 2.5 ms … 10.24 s: Core Spec Vol 4, Part E, §7.8.10.
        #expect(
            failure("scanner:\n  interval: 2ms\n")
                == "test.yaml:2:13: scanner.interval: must be between 2.5ms and 10.24s, found 2ms")
        #expect(
            failure("scanner:\n  interval: 11s\n  window: 11s\n")
                == "test.yaml:2:13: scanner.interval: must be between 2.5ms and 10.24s, found 11s")
    }

    @Test func scanWindowMustFitTheInterval() {
        #expect(
            failure("scanner:\n  interval: 50ms\n  window: 60ms\n")
                == "test.yaml:3:11: scanner.window: 60ms is longer than scanner.interval (50ms); the window must fit in the interval"
        )
        // The default window (100ms) no longer fits: reported where the interval was set.
        #expect(
            failure("scanner:\n  interval: 50ms\n")
                == "test.yaml:2:13: scanner.window: 100ms is longer than scanner.interval (50ms); the window must fit in the interval"
        )
    }

    @Test func watchdogIsOffOrAtLeastASecond() {
        #expect(
            failure("scanner:\n  watchdog: 500ms\n")
                == "test.yaml:2:13: scanner.watchdog: must be at least 1s (or 0 to turn it off), found 500ms")
    }

    @Test func readIntervalIsAtMostAQuarterSecond() {
        #expect(
            failure("scanner:\n  read_interval: 300ms\n")
                == "test.yaml:2:18: scanner.read_interval: must be between 0 and 250ms, found 300ms")
        #expect(
            failure("scanner:\n  read_interval: adaptiv\n")
                == "test.yaml:2:18: scanner.read_interval: adaptive, or a duration such as 50ms; found 'adaptiv'")
    }

    // MARK: mqtt

    @Test func mqttNumbersAndDurations() {
        #expect(
            failure("mqtt:\n  port: 70000\n") == "test.yaml:2:9: mqtt.port: must be between 1 and 65535, found 70000")
        #expect(failure("mqtt:\n  port: 0\n") == "test.yaml:2:9: mqtt.port: must be between 1 and 65535, found 0")
        #expect(failure("mqtt:\n  qos: 3\n") == "test.yaml:2:8: mqtt.qos: must be between 0 and 2, found 3")
        #expect(
            failure("mqtt:\n  keepalive: 2s\n") == "test.yaml:2:14: mqtt.keepalive: must be between 5s and 1h, found 2s"
        )
        #expect(failure("mqtt:\n  protocol: 4\n") == "test.yaml:2:13: mqtt.protocol: must be 3.1.1 or 5, found '4'")
        #expect(
            failure("mqtt:\n  outbox_limit: 10\n")
                == "test.yaml:2:17: mqtt.outbox_limit: must be at least 100, found 10")
        #expect(
            failure("mqtt:\n  stats_interval: 10ms\n")
                == "test.yaml:2:19: mqtt.stats_interval: must be at least 1s (or 0 to turn it off), found 10ms")
    }

    @Test func reconnectMinMustNotExceedMax() {
        #expect(
            failure("mqtt:\n  reconnect_min: 10s\n  reconnect_max: 5s\n")
                == "test.yaml:3:18: mqtt.reconnect_max: 5s is shorter than mqtt.reconnect_min (10s)")
        #expect(
            failure("mqtt:\n  reconnect_min: 2m\n")
                == "test.yaml:2:18: mqtt.reconnect_max: 1m is shorter than mqtt.reconnect_min (2m)")
    }

    @Test(arguments: [
        ("/beacons", "must not start or end with '/'"),
        ("beacons/", "must not start or end with '/'"),
        ("home//ble", "must not contain an empty level ('//')"),
        ("home/+", "must not contain the MQTT wildcards '+' or '#'"),
        ("home/#", "must not contain the MQTT wildcards '+' or '#'"),
        ("$SYS/x", "must not start with '$' (reserved for broker topics such as $SYS)"),
        ("''", "must not be empty"),
    ])
    func baseTopicRules(topic: String, problem: String) {
        #expect(failure("mqtt:\n  base_topic: \(topic)\n") == "test.yaml:2:15: mqtt.base_topic: \(problem)")
    }

    @Test func baseTopicRejectsNUL() {
        #expect(failure("mqtt:\n  base_topic: \"a\\0b\"\n") == "test.yaml:2:15: mqtt.base_topic: must not contain NUL")
    }

    @Test func tlsClientCertificateNeedsItsKey() {
        #expect(
            failure("mqtt:\n  tls:\n    cert_file: /c.pem\n")
                == "test.yaml:3:16: mqtt.tls.key_file: is required with mqtt.tls.cert_file (a client certificate needs its key)"
        )
        #expect(
            failure("mqtt:\n  tls:\n    key_file: /c.key\n")
                == "test.yaml:3:15: mqtt.tls.cert_file: is required with mqtt.tls.key_file (a client certificate needs its key)"
        )
    }

    @Test func tlsVersion() {
        #expect(
            failure("mqtt:\n  tls:\n    version: tlsv1.1\n")
                == "test.yaml:3:14: mqtt.tls.version: must be tlsv1.2 or tlsv1.3, found 'tlsv1.1'")
    }

    // MARK: monitoring

    @Test func monitoringLimits() {
        #expect(
            failure("monitoring:\n  exit_timeout: 500ms\n")
                == "test.yaml:2:17: monitoring.exit_timeout: must be at least 1s, found 500ms")
        #expect(
            failure("monitoring:\n  max_tracked: 8\n")
                == "test.yaml:2:16: monitoring.max_tracked: must be at least 16, found 8")
        #expect(
            failure("monitoring:\n  attributes_refresh: 1ms\n")
                == "test.yaml:2:23: monitoring.attributes_refresh: must be at least 1s (or 0 to turn it off), found 1ms"
        )
    }

    // MARK: ranging

    @Test func rangingIntervalAndStaleness() {
        #expect(
            failure("ranging:\n  interval: 50ms\n")
                == "test.yaml:2:13: ranging.interval: must be between 100ms and 1m, found 50ms")
        #expect(
            failure("ranging:\n  stale_after: 500ms\n")
                == "test.yaml:2:16: ranging.stale_after: 500ms is shorter than ranging.interval (1s)")
    }

    @Test func filterParameters() {
        #expect(
            failure("ranging:\n  filter:\n    trim: 0.5\n")
                == "test.yaml:3:11: ranging.filter.trim: must be less than 0.5 (it is trimmed from each end), found 0.5"
        )
        #expect(
            failure("ranging:\n  filter:\n    trim: -0.1\n")
                == "test.yaml:3:11: ranging.filter.trim: must be at least 0, found -0.1")
        #expect(
            failure("ranging:\n  filter:\n    process_noise: 0\n")
                == "test.yaml:3:20: ranging.filter.process_noise: must be greater than 0, found 0")
        #expect(
            failure("ranging:\n  filter:\n    measurement_noise: -1\n")
                == "test.yaml:3:24: ranging.filter.measurement_noise: must be greater than 0, found -1")
        #expect(
            failure("ranging:\n  filter:\n    window: 10ms\n")
                == "test.yaml:3:13: ranging.filter.window: must be at least 100ms, found 10ms")
    }

    @Test func distanceParameters() {
        #expect(
            failure("ranging:\n  distance:\n    exponent: 7\n")
                == "test.yaml:3:15: ranging.distance.exponent: must be between 1 and 6, found 7")
        #expect(
            failure("ranging:\n  distance:\n    default_measured_power: 5\n")
                == "test.yaml:3:29: ranging.distance.default_measured_power: must be between -127 and 0, found 5")
    }

    @Test func proximityThresholdsMustIncrease() {
        #expect(
            failure("ranging:\n  proximity:\n    near: 0.4\n")
                == "test.yaml:3:11: ranging.proximity.near: 0.4 m must be greater than ranging.proximity.immediate (0.5 m)"
        )
        #expect(
            failure("ranging:\n  proximity:\n    immediate: 0\n")
                == "test.yaml:3:16: ranging.proximity.immediate: must be greater than 0, found 0")
    }

    @Test func publishDeadband() {
        #expect(
            failure("ranging:\n  publish:\n    accuracy_deadband: -1\n")
                == "test.yaml:3:24: ranging.publish.accuracy_deadband: must be at least 0, found -1")
    }

    // MARK: regions

    private let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"

    @Test func regionNameIsRequiredAndUnique() {
        #expect(
            failure("regions:\n  - uuid: \(uuid)\n")
                == "test.yaml:2:5: regions[0].name: is required (it names the region in topics)")
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n  - name: a\n    uuid: \(uuid)\n")
                == "test.yaml:4:11: regions[1].name: 'a' is already used by regions[0] (line 2)")
        #expect(
            failure("regions:\n  - name: a b/c\n    uuid: \(uuid)\n")
                == "test.yaml:2:11: regions[0].name: must not contain '/' (it is an MQTT topic level)")
    }

    @Test func regionIdentityKeys() {
        #expect(failure("regions:\n  - name: a\n") == "test.yaml:2:5: regions[0]: needs uuid or namespace")
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n    namespace: edd1ebeac04e5defa017\n")
                == "test.yaml:4:16: regions[0].namespace: cannot be combined with uuid; an entry is either iBeacon/AltBeacon "
                + "(uuid) or Eddystone (namespace)")
        #expect(
            failure("regions:\n  - name: a\n    namespace: edd1ebeac04e5defa017\n    major: 1\n")
                == "test.yaml:4:12: regions[0].major: only applies with uuid; use instance with namespace (Eddystone)")
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n    instance: 0000000000a1\n")
                == "test.yaml:4:15: regions[0].instance: only applies with namespace (Eddystone); use major and minor with uuid"
        )
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n    minor: 1\n")
                == "test.yaml:4:12: regions[0].major: is required when minor is set (as in CLBeaconRegion)")
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n    major: 65536\n")
                == "test.yaml:4:12: regions[0].major: must be between 0 and 65535, found 65536")
    }

    @Test(arguments: [
        "e2c56db5-dffb-48d2-b060", "e2c56db5dffb48d2b060d0f5a71096e0ff", "e2c56db5-dffb48d2-b060-d0f5a71096e0",
        "g2c56db5-dffb-48d2-b060-d0f5a71096e0", "e2c56db5 dffb 48d2 b060 d0f5a71096e0",
    ])
    func malformedUUIDs(text: String) {
        #expect(
            failure("regions:\n  - name: a\n    uuid: \"\(text)\"\n")
                == "test.yaml:3:11: regions[0].uuid: must be a UUID like e2c56db5-dffb-48d2-b060-d0f5a71096e0 "
                + "(dashes optional), found '\(text)'")
    }

    @Test func eddystoneIdentifiersHaveFixedLengths() {
        #expect(
            failure("regions:\n  - name: a\n    namespace: edd1\n")
                == "test.yaml:3:16: regions[0].namespace: an Eddystone namespace must be 20 hexadecimal digits, found 'edd1'"
        )
        #expect(
            failure("regions:\n  - name: a\n    namespace: edd1ebeac04e5defa017\n    instance: xyz000000000\n")
                == "test.yaml:4:15: regions[0].instance: an Eddystone instance must be 12 hexadecimal digits, found 'xyz000000000'"
        )
    }

    @Test func regionExitTimeout() {
        #expect(
            failure("regions:\n  - name: a\n    uuid: \(uuid)\n    exit_timeout: 10\n")
                == "test.yaml:4:19: regions[0].exit_timeout: '10' has no unit; add one, e.g. 10s or 10ms")
    }

    // MARK: beacons

    @Test func beaconsMustBeFullyIdentified() {
        #expect(
            failure("beacons:\n  - uuid: \(uuid)\n    major: 1\n")
                == "test.yaml:2:11: beacons[0].minor: is required with uuid (a beacon is uuid, major and minor)")
        #expect(
            failure("beacons:\n  - namespace: edd1ebeac04e5defa017\n")
                == "test.yaml:2:16: beacons[0].instance: is required with namespace (a beacon is namespace and instance)"
        )
        #expect(
            failure("beacons:\n  - name: Keys\n")
                == "test.yaml:2:5: beacons[0]: needs uuid, major and minor, or namespace and instance")
    }

    @Test func duplicateBeaconsAreFoundAcrossUUIDSpellings() {
        let yaml = """
            beacons:
              - uuid: \(uuid)
                major: 1
                minor: 2
              - uuid: E2C56DB5DFFB48D2B060D0F5A71096E0
                major: 1
                minor: 2
            """
        #expect(failure(yaml) == "test.yaml:5:5: beacons[1]: the same beacon as beacons[0] (line 2)")
    }

    @Test func beaconCalibration() {
        #expect(
            failure("beacons:\n  - uuid: \(uuid)\n    major: 1\n    minor: 2\n    measured_power: -128\n")
                == "test.yaml:5:21: beacons[0].measured_power: must be between -127 and 0, found -128")
    }
}

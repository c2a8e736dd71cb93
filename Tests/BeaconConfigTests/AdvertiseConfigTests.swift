import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

/// `advertise:`: the same fields and checks as `beacon2mqtt advertise`, errors at file:line:column.
@Suite struct AdvertiseConfigTests {
    static func parse(_ yaml: String) throws(ConfigError) -> Configuration {
        try ConfigLoader.parse(yaml: yaml, file: "gw.yaml", defaults: Configuration())
    }

    static func error(_ yaml: String) -> ConfigError? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func offByDefaultAndWhenDisabled() throws {
        #expect(try Self.parse("gateway:\n  id: a\n").bluetooth.advertise == nil)
        #expect(try Self.parse("advertise:\n  enabled: false\n  type: ibeacon\n").bluetooth.advertise == nil)
    }

    @Test func anIBeaconWhoseMajorAndMinorSayFloorAndRoom() throws {
        let config = try Self.parse(
            """
            advertise:
              enabled: true
              type: ibeacon
              uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
              major: 2
              minor: 14
              measured_power: -62
              interval: 250ms
              address: random-static
            """)
        let settings = try #require(config.bluetooth.advertise)
        #expect(
            settings.beacon
                == .iBeacon(
                    IBeacon(
                        uuid: BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 2, minor: 14,
                        measuredPower: -62)))
        #expect(settings.interval == .milliseconds(250))
        #expect(settings.address == .randomStatic)
        #expect(!settings.connectable)
    }

    @Test func mistakesNameTheFileLineColumnAndKey() {
        let stray = Self.error("advertise:\n  enabled: true\n  type: eddystone-url\n  url: https://a.org\n  major: 1\n")
        #expect(stray?.key == "advertise.major")
        #expect(stray?.line == 5 && stray?.column == 10)
        #expect(stray?.message.contains("does not apply to eddystone-url") == true)

        let missing = Self.error(
            "advertise:\n  enabled: true\n  type: ibeacon\n  uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0\n  major: 1\n")
        #expect(missing?.key == "advertise.minor")
        #expect(missing?.message.contains("missing") == true)

        let range = Self.error(
            "advertise:\n  enabled: true\n  type: eddystone-uid\n  namespace: 00112233445566778899\n  instance: aabbccddeeff\n  interval: 5ms\n"
        )
        #expect(range?.key == "advertise.interval" && range?.line == 6)

        let type = Self.error("advertise:\n  enabled: true\n  type: beacon\n")
        #expect(type?.key == "advertise.type" && type?.line == 3)

        let noType = Self.error("advertise:\n  enabled: true\n")
        #expect(noType?.key == "advertise.type")

        let url = Self.error("advertise:\n  enabled: true\n  type: eddystone-url\n  url: ftp://x\n")
        #expect(url?.key == "advertise.url" && url?.line == 4)
        #expect("\(url!)".hasPrefix("gw.yaml:4:"))
    }

    @Test func listenModeRefusesToAdvertise() {
        let error = Self.error(
            """
            scanner:
              mode: listen
            advertise:
              enabled: true
              type: eddystone-url
              url: https://a.org
            """)
        #expect(error?.key == "advertise.enabled")
        #expect(error?.line == 4)
        #expect(error?.message.contains("listen, which never sends a command") == true)
    }
}

import BeaconCore
import BeaconWire
import Settings
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport

@Suite struct HCIScanConfigurationTests {
    @Test func scannerSettingsCarryOverModeTimingAndWatchdog() {
        var scanner = ScannerSettings()
        scanner.mode = .listen
        scanner.interval = .milliseconds(200)
        scanner.window = .milliseconds(50)
        scanner.watchdog = .seconds(45)
        let configuration = ScanConfiguration(scanner: scanner)
        #expect(configuration.mode == .listen)
        #expect(configuration.timingUnits(extended: false) == (320, 80))
        #expect(configuration.watchdog == .seconds(45))
    }

    @Test func everyConfigModeHasAScanMode() {
        for mode in ScannerSettings.Mode.allCases {
            var scanner = ScannerSettings()
            scanner.mode = mode
            #expect(ScanConfiguration(scanner: scanner).mode.rawValue == mode.rawValue)
        }
    }

    @Test func liveSourceNeedsAValidAdapterSetting() {
        var scanner = ScannerSettings()
        scanner.adapter = "00:1a:7d:da:71:13"
        #expect(HCISource(scanner: scanner) != nil)
        scanner.adapter = "bluetooth0"
        #expect(HCISource(scanner: scanner) == nil)
    }
}

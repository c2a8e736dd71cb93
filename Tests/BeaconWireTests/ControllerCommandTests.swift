import BeaconWire
import Testing
import Vocabulary

/// Command packets against bytes written by hand from Core Spec Vol 4, Part E, §5.4.1 and §7:
/// indicator 0x01, opcode little-endian (OGF << 10 | OCF), length, parameters little-endian.
@Suite struct ControllerCommandTests {
    @Test func resetIsOGF3OCF3WithNoParameters() {
        #expect(HCICommand.reset.packet == [0x01, 0x03, 0x0C, 0x00])
    }

    @Test func informationalCommandsUseOGF4() {
        #expect(HCICommand.readLocalSupportedCommands.packet == [0x01, 0x02, 0x10, 0x00])
        #expect(HCICommand.readBDAddr.packet == [0x01, 0x09, 0x10, 0x00])
    }

    @Test func legacyScanParametersLayOutTypeIntervalWindowAddressPolicy() {
        let command = HCICommand.leSetScanParameters(active: true, interval: 0x0012, window: 0x0011)
        #expect(command.packet == [0x01, 0x0B, 0x20, 0x07, 0x01, 0x12, 0x00, 0x11, 0x00, 0x00, 0x00])
        let passive = HCICommand.leSetScanParameters(active: false, interval: 0x4000, window: 0x0004)
        #expect(passive.packet == [0x01, 0x0B, 0x20, 0x07, 0x00, 0x00, 0x40, 0x04, 0x00, 0x00, 0x00])
    }

    @Test func legacyScanEnableKeepsDuplicatesUnfiltered() {
        #expect(HCICommand.leSetScanEnable(true).packet == [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00])
        #expect(HCICommand.leSetScanEnable(false).packet == [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00])
    }

    @Test func extendedScanParametersCarryOneBlockPerPHY() {
        let block = HCICommand.PHYScanParameters(active: false, interval: 0x00A0, window: 0x0050)
        let both = HCICommand.leSetExtendedScanParameters(le1M: block, leCoded: block)
        #expect(
            both.packet == [
                0x01, 0x41, 0x20, 0x0D, 0x00, 0x00, 0x05,
                0x00, 0xA0, 0x00, 0x50, 0x00,
                0x00, 0xA0, 0x00, 0x50, 0x00,
            ])
        let activeBlock = HCICommand.PHYScanParameters(active: true, interval: 0x1234, window: 0x1234)
        let only1M = HCICommand.leSetExtendedScanParameters(le1M: activeBlock, leCoded: nil)
        #expect(only1M.packet == [0x01, 0x41, 0x20, 0x08, 0x00, 0x00, 0x01, 0x01, 0x34, 0x12, 0x34, 0x12])
    }

    @Test func extendedScanEnableHasDurationAndPeriod() {
        #expect(HCICommand.leSetExtendedScanEnable(true).packet == [0x01, 0x42, 0x20, 0x06, 0x01, 0x00, 0, 0, 0, 0])
        let timed = HCICommand.leSetExtendedScanEnable(true, filterDuplicates: true, duration: 0x0102, period: 0x0304)
        #expect(timed.packet == [0x01, 0x42, 0x20, 0x06, 0x01, 0x01, 0x02, 0x01, 0x04, 0x03])
    }

    @Test func opcodeSplitsIntoGroupAndCommandFields() {
        #expect(HCIOpcode.leSetExtendedScanEnable.ogf == 0x08)
        #expect(HCIOpcode.leSetExtendedScanEnable.ocf == 0x0042)
        #expect(HCIOpcode(rawValue: 0xFC01).description == "opcode 0xfc01")
    }

    @Test func timingConvertsToSlotsOf625MicrosecondsAndClamps() {
        let config = ScanConfiguration(interval: .milliseconds(100), window: .milliseconds(50))
        #expect(config.timingUnits(extended: false) == (160, 80))
        // 20 s (32000 slots) exceeds the legacy maximum 0x4000 (10.24 s) but fits the extended 0xFFFF (40.96 s).
        let long = ScanConfiguration(interval: .seconds(20), window: .seconds(30))
        #expect(long.timingUnits(extended: false) == (0x4000, 0x4000))
        #expect(long.timingUnits(extended: true) == (32000, 32000))
        let longer = ScanConfiguration(interval: .seconds(50), window: .seconds(50))
        #expect(longer.timingUnits(extended: true) == (0xFFFF, 0xFFFF))
        let tiny = ScanConfiguration(interval: .milliseconds(1), window: .milliseconds(1))
        #expect(tiny.timingUnits(extended: false) == (4, 4))
    }

    @Test func activeModeSetsScanTypeInBothCommandSets() {
        let config = ScanConfiguration(mode: .active, interval: .milliseconds(100), window: .milliseconds(100))
        #expect(config.parametersCommand(extended: false, includeCoded: false).parameters.first == 1)
        #expect(config.parametersCommand(extended: true, includeCoded: false).parameters[3] == 1)
    }
}

import BeaconWire
import Testing

/// Spot checks of the status names against Core Spec Vol 1, Part F, §1.3 "List of error codes".
@Suite struct ControllerStatusTests {
    @Test(
        arguments: [
            (0x00, "Success"), (0x01, "Unknown HCI Command"), (0x03, "Hardware Failure"), (0x0C, "Command Disallowed"),
            (0x11, "Unsupported Feature or Parameter Value"), (0x12, "Invalid HCI Command Parameters"),
            (0x1F, "Unspecified Error"), (0x2F, "Insufficient Security"), (0x3A, "Controller Busy"),
            (0x3C, "Advertising Timeout"), (0x42, "Unknown Advertising Identifier"), (0x45, "Packet Too Long"),
        ] as [(UInt8, String)])
    func namesMatchTheSpec(code: UInt8, name: String) {
        #expect(HCIStatus(rawValue: code).name == name)
    }

    @Test func reservedAndUnknownCodesAreLabelled() {
        #expect(HCIStatus(rawValue: 0x2B).name == "Reserved")
        #expect(HCIStatus(rawValue: 0x31).name == "Reserved")
        #expect(HCIStatus(rawValue: 0xF0).name == "Unknown status")
    }

    @Test func descriptionAppendsTheCodeInUppercaseHex() {
        #expect(HCIStatus.commandDisallowed.description == "Command Disallowed (0x0C)")
        #expect(
            HCIStatus(rawValue: 0x3E).description
                == "Connection Failed to be Established / Synchronization Timeout (0x3E)")
    }

    @Test func everyCodeUpToPacketTooLongHasARealName() {
        for code in UInt8(0)...0x45 where ![0x2B, 0x31, 0x33].contains(code) {
            let name = HCIStatus(rawValue: code).name
            #expect(name != "Reserved" && name != "Unknown status", "0x\(String(code, radix: 16))")
        }
    }

    @Test func supportedCommandBitsFollowOctetAndBitNumbering() {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[37] = 0b0110_0000
        #expect(SupportedCommands(octets: octets).supportsExtendedScanning)
        octets[37] = 0b0010_0000
        #expect(!SupportedCommands(octets: octets).supportsExtendedScanning)
        #expect(SupportedCommands(octets: octets).contains(SupportedCommands.leSetExtendedScanParameters))
        octets[26] = 0b0000_1100
        #expect(SupportedCommands(octets: octets).contains(SupportedCommands.leSetScanEnable))
        #expect(!SupportedCommands(octets: Array(octets.prefix(30))).supportsExtendedScanning)
        // The Return_Parameters start with the Status byte.
        #expect(SupportedCommands(returnParameters: [0x00] + octets).octets == octets)
    }
}

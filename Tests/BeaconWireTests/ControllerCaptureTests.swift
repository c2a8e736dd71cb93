import BeaconWire
import Testing
import Vocabulary

/// The controller layer against real HCI traffic: two Android btsnoop logs (Tests/Fixtures/captures,
/// see PROVENANCE.md) whose hosts scanned with the extended commands.
@Suite struct ControllerCaptureTests {
    static let extendedCapture = "wangdalian-btsnooper_ext-adv_btsnoop_hci.log"
    static let misreportingCapture = "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log"

    static func events(_ name: String) throws -> [ControllerEvent] {
        try CaptureFixtures.packets(name).filter { $0.bytes.first == 0x04 }.compactMap {
            try HCIPacketDecoder.controllerEvent($0.bytes)
        }
    }

    static func commands(_ name: String, _ opcode: HCIOpcode) throws -> [[UInt8]] {
        try CaptureFixtures.packets(name).map(\.bytes).filter {
            $0.count >= 3 && $0[0] == 0x01 && UInt16($0[1]) | UInt16($0[2]) << 8 == opcode.rawValue
        }
    }

    static func supportedCommands(_ name: String) throws -> SupportedCommands? {
        for case .commandComplete(let c) in try events(name) where c.opcode == .readLocalSupportedCommands {
            return SupportedCommands(returnParameters: c.returnParameters)
        }
        return nil
    }

    @Test(arguments: [extendedCapture, misreportingCapture])
    func everyRealEventParsesAndScanCommandsCompleteWithSuccess(capture: String) throws {
        let events = try Self.events(capture)
        #expect(events.count > 500)
        let scanCompletes = events.compactMap { event -> ControllerEvent.CommandComplete? in
            guard case .commandComplete(let c) = event,
                c.opcode == .leSetExtendedScanParameters || c.opcode == .leSetExtendedScanEnable
            else { return nil }
            return c
        }
        #expect(scanCompletes.count >= 18)
        #expect(scanCompletes.allSatisfy { $0.status == .success })
        #expect(events.contains { $0.isAdvertisingReport })
    }

    /// Android sent LE Set Extended Scan Parameters with a random own address, active, LE 1M only;
    /// our encoder gives the same bytes for the same values, including the timing conversion
    /// (5 s / 500 ms → 0x1F40 / 0x0320 slots, little-endian) and the enable/disable layout.
    @Test func encoderMatchesTheExtendedScanCommandsARealHostSent() throws {
        func parameters(_ timing: (interval: UInt16, window: UInt16)) -> [UInt8] {
            let block = HCICommand.PHYScanParameters(active: true, interval: timing.interval, window: timing.window)
            return HCICommand.leSetExtendedScanParameters(le1M: block, leCoded: nil, ownAddressType: 0x01).packet
        }
        let sent = try Self.commands(Self.extendedCapture, .leSetExtendedScanParameters)
        let fiveSeconds = ScanConfiguration(interval: .seconds(5), window: .milliseconds(500)).timingUnits(
            extended: true)
        #expect(Set(sent) == [parameters((0x0012, 0x0012)), parameters(fiveSeconds)])
        let enables = Set(try Self.commands(Self.extendedCapture, .leSetExtendedScanEnable))
        #expect(
            enables == [
                HCICommand.leSetExtendedScanEnable(true).packet, HCICommand.leSetExtendedScanEnable(false).packet,
            ])
        let otherDisable = try Self.commands(Self.misreportingCapture, .leSetExtendedScanEnable)
        #expect(otherDisable.contains(HCICommand.leSetExtendedScanEnable(false, filterDuplicates: true).packet))
    }

    @Test func supportedCommandsOfAnExtendedControllerSelectTheExtendedSet() throws {
        let supported = try #require(try Self.supportedCommands(Self.extendedCapture))
        #expect(supported.octets.count == 64)
        #expect(supported.supportsExtendedScanning)
        var scan = ScanController(configuration: ScanConfiguration())
        _ = scan.start(at: MonotonicInstant(nanoseconds: 0))
        let reply = ControllerEvent.commandComplete(
            .init(opcode: .readLocalSupportedCommands, returnParameters: [0x00] + supported.octets))
        #expect(scan.handle(reply, at: MonotonicInstant(nanoseconds: 0)).last == .send(.leSetExtendedScanEnable(false)))
    }

    /// This controller accepted the extended commands although its mask lists neither them nor the
    /// legacy ones (octets 26 and 37 are zero): detection stays conservative and picks legacy.
    @Test func controllerThatDoesNotListTheExtendedCommandsGetsLegacy() throws {
        let supported = try #require(try Self.supportedCommands(Self.misreportingCapture))
        #expect(!supported.supportsExtendedScanning)
        #expect(!supported.contains(SupportedCommands.leSetScanEnable))
    }
}

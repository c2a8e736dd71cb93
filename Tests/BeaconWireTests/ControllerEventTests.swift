import BeaconWire
import Testing

/// Event parsing against hand-written packets (Core Spec Vol 4, Part E, §5.4.4, §7.7.14–16, §7.7.65).
@Suite struct ControllerEventTests {
    @Test func parsesCommandCompleteWithStatusAndReturnParameters() throws {
        let event = try #require(
            try HCIPacketDecoder.controllerEvent([
                0x04, 0x0E, 0x0A, 0x01, 0x09, 0x10, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
            ]))
        guard case .commandComplete(let complete) = event else {
            Issue.record("expected Command Complete, got \(event)")
            return
        }
        #expect(complete.opcode == .readBDAddr)
        #expect(complete.status == .success)
        #expect(complete.allowedCommandPackets == 1)
        #expect(
            BluetoothAddress(littleEndianBytes: complete.returnParameters.dropFirst()).description
                == "11:22:33:44:55:66")
    }

    @Test func parsesCommandStatusWithStatusBeforeOpcode() throws {
        let event = try HCIPacketDecoder.controllerEvent([0x04, 0x0F, 0x04, 0x0C, 0x01, 0x41, 0x20])
        #expect(event == .commandStatus(status: .commandDisallowed, opcode: .leSetExtendedScanParameters))
    }

    @Test func parsesHardwareErrorAndDisconnection() throws {
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x10, 0x01, 0x2A]) == .hardwareError(code: 0x2A))
        let disconnection = try HCIPacketDecoder.controllerEvent([0x04, 0x05, 0x04, 0x00, 0x40, 0x00, 0x13])
        #expect(
            disconnection == .disconnectionComplete(status: .success, handle: 0x0040, reason: HCIStatus(rawValue: 0x13))
        )
    }

    @Test func recognisesAdvertisingReportSubevents() throws {
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x3E, 0x01, 0x02])?.isAdvertisingReport == true)
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x3E, 0x01, 0x0B])?.isAdvertisingReport == true)
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x3E, 0x01, 0x0D])?.isAdvertisingReport == true)
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x3E, 0x01, 0x01])?.isAdvertisingReport == false)
        #expect(try HCIPacketDecoder.controllerEvent([0x04, 0x13, 0x00]) == .other(code: 0x13))
    }

    @Test func commandCompleteWithoutStatusReadsAsUnspecifiedError() throws {
        guard
            case .commandComplete(let c)? = try HCIPacketDecoder.controllerEvent([0x04, 0x0E, 0x03, 0x01, 0x03, 0x0C])
        else {
            Issue.record("expected Command Complete")
            return
        }
        #expect(c.status == HCIStatus(rawValue: 0x1F))
    }

    @Test func rejectsNonEventsTruncationAndLengthMismatch() throws {
        #expect(try HCIPacketDecoder.controllerEvent([0x02, 0x00]) == nil, "an ACL packet is not an event")
        #expect(throws: DecodeError.unknownPacketIndicator(0x07, offset: 0)) {
            try HCIPacketDecoder.controllerEvent([0x07, 0x00])
        }
        #expect(throws: DecodeError.truncated(what: .eventParameters, needed: 4, available: 2, offset: 3)) {
            try HCIPacketDecoder.controllerEvent([0x04, 0x0F, 0x02, 0x00, 0x01])
        }
        #expect(throws: DecodeError.truncated(what: .eventParameters, needed: 4, available: 3, offset: 3)) {
            try HCIPacketDecoder.controllerEvent([0x04, 0x0F, 0x04, 0x00, 0x01, 0x0C])
        }
        #expect(throws: DecodeError.badParameterLength(declared: 1, available: 2, offset: 2)) {
            try HCIPacketDecoder.controllerEvent([0x04, 0x10, 0x01, 0x2A, 0x00])
        }
        #expect(throws: DecodeError.empty) { try HCIPacketDecoder.controllerEvent([]) }
    }

    @Test func everyPrefixOfEveryEventFailsOrParsesWithoutTrapping() {
        let packets: [[UInt8]] = [
            [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00], [0x04, 0x0F, 0x04, 0x00, 0x01, 0x0B, 0x20],
            [0x04, 0x10, 0x01, 0x00], [0x04, 0x05, 0x04, 0x00, 0x01, 0x00, 0x08], [0x04, 0x3E, 0x01, 0x02],
        ]
        for packet in packets {
            for length in 0..<packet.count {
                // A prefix with its declared length patched to match exercises the field bounds checks too.
                var prefix = Array(packet.prefix(length))
                if prefix.count >= 3 { prefix[2] = UInt8(prefix.count - 3) }
                let parsed = try? HCIPacketDecoder.controllerEvent(prefix)
                if prefix.count >= 3, prefix[1] == 0x0E {
                    #expect((parsed != nil) == (prefix.count >= 6), "Command Complete needs 3 parameter bytes")
                }
            }
            #expect(throws: Never.self) { try HCIPacketDecoder.controllerEvent(packet) }
        }
    }
}

import BeaconWire
import CBlueZ
import Testing

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport

/// The socket filter against hand-computed masks and against libbluetooth's own filter helpers.
@Suite struct HCIEventFilterTests {
    @Test func scannerFilterAdmitsExactlyTheFiveEvents() {
        let filter = HCIEventFilter.scanner
        // Packet type 0x04 (event) → bit 4.
        #expect(filter.typeMask == 0x0000_0010)
        // Events 0x05, 0x0E, 0x0F, 0x10 → bits 5, 14, 15, 16 of word 0; 0x3E → bit 30 of word 1.
        #expect(filter.eventMaskWords.0 == 0x0001_C020)
        #expect(filter.eventMaskWords.1 == 0x4000_0000)
        #expect(filter.opcode == 0)
        let admitted = (0..<64).filter { filter.admits(event: UInt8($0)) }
        #expect(admitted == [0x05, 0x0E, 0x0F, 0x10, 0x3E])
    }

    @Test func cLayoutMatchesWhatLibbluetoothBuilds() {
        var expected = hci_filter()
        hci_filter_clear(&expected)
        hci_filter_set_ptype(Int32(HCI_EVENT_PKT), &expected)
        for event in [EVT_LE_META_EVENT, EVT_CMD_COMPLETE, EVT_CMD_STATUS, EVT_HARDWARE_ERROR, EVT_DISCONN_COMPLETE] {
            hci_filter_set_event(Int32(event), &expected)
        }
        let built = HCISocket.cFilter(.scanner)
        #expect(built.type_mask == expected.type_mask)
        #expect(built.event_mask.0 == expected.event_mask.0)
        #expect(built.event_mask.1 == expected.event_mask.1)
        #expect(built.opcode == expected.opcode)
    }
}

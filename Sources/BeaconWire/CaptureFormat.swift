/// Capture containers `CaptureReader` understands, detected from the first bytes.
public enum CaptureFormat: Sendable, Equatable {
    /// btsnoop v1 (RFC 1761 style, big-endian): datalink 1001 (H1), 1002 (H4) or 2001 (Linux monitor, `btmon -w`).
    case btsnoop(datalink: UInt32)
    /// Classic libpcap, either byte order, µs or ns timestamps.
    case pcap(linkType: UInt32)
    /// pcapng (SHB/IDB/EPB/SPB), either byte order.
    case pcapng
    /// `hcidump --raw` text: `>` (in) / `<` (out) lines, hex continuation lines.
    case hcidumpText

    /// btsnoop timestamps count µs from 0000-01-01 (nominal); this is the value Android's btsnoop
    /// writer and Wireshark use for 1970-01-01T00:00:00Z in that scale.
    public static let btsnoopUnixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// LINKTYPE_BLUETOOTH_HCI_H4 (187): H4 packets.
    public static let linkTypeH4: UInt32 = 187
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201): 4-byte big-endian direction (1 = received), then H4.
    public static let linkTypeH4WithPHDR: UInt32 = 201
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR (254): adapter(2, BE) opcode(2, BE), then the HCI packet without indicator.
    public static let linkTypeLinuxMonitor: UInt32 = 254

    /// Maps a Linux monitor opcode (btmon, `struct mgmt_hdr` opcode in BlueZ monitor/bt.h terms)
    /// to an H4 indicator and direction; nil for opcodes that carry no HCI packet (index added, notes…).
    static func monitorPacket(opcode: UInt16) -> (indicator: UInt8, incoming: Bool)? {
        switch opcode {
        case 2: return (0x01, false)  // command
        case 3: return (0x04, true)  // event
        case 4: return (0x02, false)  // ACL TX
        case 5: return (0x02, true)  // ACL RX
        case 6: return (0x03, false)  // SCO TX
        case 7: return (0x03, true)  // SCO RX
        case 18: return (0x05, false)  // ISO TX
        case 19: return (0x05, true)  // ISO RX
        default: return nil
        }
    }
}

/// Whether a buffer starts with the H4 (UART transport) packet indicator byte,
/// Core Spec Vol 4, Part A, §2: 0x01 command, 0x02 ACL, 0x03 SCO, 0x04 event, 0x05 ISO.
public enum H4Indicator: Sendable, Equatable {
    /// Decide per packet from the event's Parameter_Total_Length byte (see `HCIPacketDecoder`).
    case auto
    /// The first byte is the H4 packet indicator.
    case present
    /// No indicator: the buffer is a bare HCI event (event code, length, parameters), as an HCI
    /// user channel or a filter that only passes events delivers it.
    case absent
    /// The first byte is the H4 packet indicator, and the packet's source framed it already as an
    /// LE Meta event whose Parameter_Total_Length matches its bytes (`PacketView.isFramedLEMetaEvent`):
    /// the decoder goes straight to the subevent. A packet too short to hold a subevent is read as
    /// `.present`.
    case framedLEMetaEvent
}

/// One HCI packet with the time it was captured, as live sources, capture files and the
/// simulator all deliver them.
import Vocabulary

public struct CapturedPacket: Sendable, Equatable {
    public var timestamp: Timestamp
    /// The HCI packet starting with its H4 packet indicator (0x01 command, 0x02 ACL, 0x04 event …).
    public var bytes: [UInt8]
    /// True for controller → host traffic.
    public var incoming: Bool

    public init(timestamp: Timestamp, bytes: [UInt8], incoming: Bool = true) {
        self.timestamp = timestamp
        self.bytes = bytes
        self.incoming = incoming
    }
}

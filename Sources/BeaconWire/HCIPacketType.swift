/// HCI packet types by their H4 indicator value (Core Spec Vol 4, Part A, §2).
public enum HCIPacketType: UInt8, Sendable, Equatable {
    case command = 0x01
    case acl = 0x02
    case sco = 0x03
    case event = 0x04
    case iso = 0x05
}

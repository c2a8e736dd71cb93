import BeaconCore
import BeaconWire

/// A tracked beacon's texts that rarely change, kept per monitor table slot so each tick copies
/// them instead of formatting them again (UUID and address hex are most of a ranging payload's
/// cost): the ranging-list members (identity, name, address), the proximity members (the same
/// with gateway, floor and room) and the proximity topic. Each is built on first use. Valid while
/// the slot holds the same beacon (`generation`) heard from the same address; a reload, which may
/// rename beacons, drops them all.
struct RangedIdentityText: Sendable {
    var generation: UInt32
    var address: BluetoothAddress
    var members: [UInt8] = []
    var proximityMembers: [UInt8] = []
    var proximityTopic: String = ""

    static let empty = RangedIdentityText(generation: 0, address: BluetoothAddress(rawValue: 0))

    /// Whether this entry describes `b`.
    func holds(_ b: RangedBeacon) -> Bool { generation == b.generation && address == b.address }
}

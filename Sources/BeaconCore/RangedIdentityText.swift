import BeaconWire

/// A tracked beacon's ranging-list members that rarely change — identity, name and address — as
/// JSON text, kept per table slot so each tick copies them instead of formatting them again.
/// Valid while the slot holds the same beacon (`generation`) heard from the same address;
/// a reload, which may rename beacons, drops them all.
struct RangedIdentityText: Sendable {
    var generation: UInt32
    var address: BluetoothAddress
    var members: [UInt8]
}

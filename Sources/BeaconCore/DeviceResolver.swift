import BeaconWire
import Vocabulary

/// Which configured device an advertiser is: a fixed address by lookup, a resolvable private address
/// (RPA) by `ah` over the configured IRKs (the injected `IdentityResolver`).
///
/// An RPA that resolved is cached until the device moves to another address, so a report from a
/// resolved device costs one hash lookup, not one AES per key. The cache holds at most
/// `addressesPerDevice` addresses per IRK device (a device's latest ones; older ones are dropped
/// as it rotates), so it is bounded by the configuration, not by what is on the air.
///
/// Privacy: an address that is no configured device is counted (`unresolved`) and forgotten at
/// once — never cached, returned or kept — so unknown phones cost memory for nothing but a counter.
package struct DeviceResolver: Sendable {
    /// Addresses a device may advertise from at once (some alternate between a few while rotating).
    package static let addressesPerDevice = 4

    /// The devices it was made for.
    package let configured: [DeviceSettings]
    private var identities: [BeaconIdentity] = []
    private var kinds: [BeaconSighting.Kind] = []
    /// Fixed addresses → device index.
    private var fixed: [BluetoothAddress: Int32] = [:]
    /// The resolver's key index → device index.
    private var keyOwners: [Int32] = []
    private let resolver: (any IdentityResolver)?
    /// Resolved RPAs → device index; each IRK device's entries are also in `recent`, oldest first.
    private var cache: [BluetoothAddress: Int32] = [:]
    private var recent: [[BluetoothAddress]] = []

    /// Reports from configured devices.
    package private(set) var resolved = 0
    /// Reports from RPAs that no configured IRK resolved (dropped).
    package private(set) var unresolved = 0
    /// IRK resolutions run (cache misses on an RPA), for the benchmark.
    package private(set) var resolutions = 0

    /// `makeResolver` builds `ah` over the devices' keys; without one (nil), IRK devices never resolve.
    package init(devices: [DeviceSettings], makeResolver: IdentityResolverFactory?) {
        configured = devices
        var keys: [IdentityResolvingKey] = []
        for (i, d) in devices.enumerated() {
            identities.append(d.identity)
            kinds.append(d.kind)
            recent.append([])
            switch d.identification {
            case .address(let address): fixed[address] = Int32(i)
            case .irk(let key):
                keys.append(key)
                keyOwners.append(Int32(i))
            }
        }
        resolver = keys.isEmpty ? nil : makeResolver?(keys)
        cache.reserveCapacity(keys.count * Self.addressesPerDevice)
    }

    /// No devices configured: the pipeline skips the lookup.
    package var isEmpty: Bool { identities.isEmpty }

    /// The sighting a report from `address` makes, when it is a configured device; `addressType` is
    /// the report's (0 public, 1 random; RPAs are random).
    package mutating func sighting(
        address: BluetoothAddress, addressType: UInt8, rssi: Int8, at time: Timestamp
    ) -> BeaconSighting? {
        guard let device = device(for: address, addressType: addressType) else { return nil }
        resolved += 1
        let i = Int(device)
        return BeaconSighting(
            identity: identities[i], kind: kinds[i], address: address, rssi: rssi, measuredPower: nil, timestamp: time)
    }

    private mutating func device(for address: BluetoothAddress, addressType: UInt8) -> Int32? {
        if let d = fixed[address] ?? cache[address] { return d }
        guard addressType == 1, address.hasResolvablePrivateForm, let resolver else { return nil }
        resolutions += 1
        guard let key = resolver.resolve(prand: address.prand, hash: address.addressHash) else {
            unresolved += 1
            return nil
        }
        let device = keyOwners[key]
        let i = Int(device)
        if recent[i].count == Self.addressesPerDevice { cache[recent[i].removeFirst()] = nil }
        recent[i].append(address)
        cache[address] = device
        return device
    }

    /// Resolved addresses held, at most `addressesPerDevice` × IRK devices.
    package var cachedAddresses: Int { cache.count }
}

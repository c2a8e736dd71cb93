/// What monitoring keys a beacon by: CoreLocation's (uuid, major, minor), or an Eddystone-UID's
/// (namespace, instance). iBeacon and AltBeacon share the uuid scheme, since they publish on the
/// same topics (AltBeacon's id1/id2/id3 map onto uuid/major/minor). A configured device (a phone,
/// watch or tag known by its IRK or fixed address, whose advertised address may rotate) has the
/// device scheme: `id` is a hash of its configured name (BeaconCore's `BeaconIdentity.device(named:)`),
/// so every address it advertises from maps to the one identity.
public struct BeaconIdentity: Hashable, Sendable, Comparable {
    public enum Scheme: UInt8, Sendable, Comparable {
        case uuid = 0
        case eddystone = 1
        case device = 2
        @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var scheme: Scheme
    /// uuid scheme: the proximity UUID. eddystone scheme: namespace (10 bytes) then instance (6 bytes).
    public var id: BeaconID128
    /// Always 0 for Eddystone.
    public var major: UInt16
    /// Always 0 for Eddystone.
    public var minor: UInt16

    public init(scheme: Scheme, id: BeaconID128, major: UInt16, minor: UInt16) {
        self.scheme = scheme
        self.id = id
        self.major = major
        self.minor = minor
    }

    public static func uuid(_ id: BeaconID128, major: UInt16, minor: UInt16) -> Self {
        Self(scheme: .uuid, id: id, major: major, minor: minor)
    }

    public static func eddystone(_ id: BeaconID128) -> Self {
        Self(scheme: .eddystone, id: id, major: 0, minor: 0)
    }

    /// A configured device's identity from its key (see `Scheme.device`).
    public static func device(key: BeaconID128) -> Self {
        Self(scheme: .device, id: key, major: 0, minor: 0)
    }

    /// Eddystone namespace as 20 lowercase hex digits.
    public var eddystoneNamespace: String { Hex.string(id.bytes[0..<10]) }
    /// Eddystone instance as 12 lowercase hex digits.
    public var eddystoneInstance: String { Hex.string(id.bytes[10..<16]) }

    /// Inlinable (as `==`): a ranging tick sorts each region's list with it as the tie-break.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.scheme, lhs.id, lhs.major, lhs.minor) < (rhs.scheme, rhs.id, rhs.major, rhs.minor)
    }

    /// Field by field, as the derived one; inlinable, because the monitor's table compares
    /// identities once a report from another module, where the derived one was a call.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id.low == rhs.id.low && lhs.id.high == rhs.id.high && lhs.major == rhs.major && lhs.minor == rhs.minor
            && lhs.scheme == rhs.scheme
    }
}

/// A beacon frame found in one advertising report's AD structures.
public enum Beacon: Sendable, Equatable {
    case iBeacon(IBeacon)
    case altBeacon(AltBeacon)
    case eddystone(EddystoneFrame)

    /// The identity monitoring keys by; nil for frames without one (Eddystone URL, TLM, EID, unknown).
    public var identity: BeaconIdentity? {
        switch self {
        case .iBeacon(let b): return .uuid(b.uuid, major: b.major, minor: b.minor)
        case .altBeacon(let b): return .uuid(b.id1, major: b.id2, minor: b.id3)
        case .eddystone(.uid(let u)): return .eddystone(u.id)
        case .eddystone: return nil
        }
    }

    /// Calibrated power at 1 m in dBm, as the frame advertises it (Eddystone: tx power at 0 m − 41 dB).
    @inlinable  // read once a report, from another module
    public var measuredPowerAt1m: Int8? {
        switch self {
        case .iBeacon(let b): return b.measuredPower
        case .altBeacon(let b): return b.referenceRSSI
        case .eddystone(.uid(let u)): return Int8(clamping: Int(u.txPowerAt0m) - 41)
        case .eddystone: return nil
        }
    }

    /// The TX power the frame advertises, as advertised: iBeacon's and AltBeacon's calibrated RSSI
    /// at 1 m, Eddystone UID's, URL's and EID's calibrated power at 0 m; nil for TLM and unknown frames.
    public var advertisedTxPower: (dBm: Int8, atMetres: Int)? {
        switch self {
        case .iBeacon(let b): return (b.measuredPower, 1)
        case .altBeacon(let b): return (b.referenceRSSI, 1)
        case .eddystone(.uid(let u)): return (u.txPowerAt0m, 0)
        case .eddystone(.url(let u)): return (u.txPowerAt0m, 0)
        case .eddystone(.eid(let e)): return (e.txPowerAt0m, 0)
        case .eddystone: return nil
        }
    }
}

/// Apple iBeacon: manufacturer-specific data, company 0x004C, type 0x02, length 0x15.
/// All fields are big-endian.
public struct IBeacon: Sendable, Equatable {
    public var uuid: BeaconID128
    public var major: UInt16
    public var minor: UInt16
    /// Calibrated RSSI at 1 m, dBm (signed). Not a measured RSSI.
    public var measuredPower: Int8

    public init(uuid: BeaconID128, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }
}

/// AltBeacon (github.com/AltBeacon/spec): manufacturer data `BE AC` + id1(16) id2(2) id3(2)
/// reference RSSI(1) [mfg reserved(1)], with any company id. Fields are big-endian.
public struct AltBeacon: Sendable, Equatable {
    public var companyID: UInt16
    public var id1: BeaconID128
    public var id2: UInt16
    public var id3: UInt16
    /// Calibrated RSSI at 1 m, dBm.
    public var referenceRSSI: Int8
    public var manufacturerReserved: UInt8?

    public init(
        companyID: UInt16, id1: BeaconID128, id2: UInt16, id3: UInt16, referenceRSSI: Int8,
        manufacturerReserved: UInt8?
    ) {
        self.companyID = companyID
        self.id1 = id1
        self.id2 = id2
        self.id3 = id3
        self.referenceRSSI = referenceRSSI
        self.manufacturerReserved = manufacturerReserved
    }
}

/// Eddystone frames (github.com/google/eddystone): service data for UUID 0xFEAA.
public enum EddystoneFrame: Sendable, Equatable {
    case uid(EddystoneUID)
    case url(EddystoneURL)
    case tlm(EddystoneTLM)
    case eid(EddystoneEID)
    /// A frame type this decoder does not know (or TLM with a version other than 0).
    case unknown(frameType: UInt8)
}

/// Eddystone-UID (frame type 0x00).
public struct EddystoneUID: Sendable, Equatable {
    /// Calibrated tx power at 0 m, dBm.
    public var txPowerAt0m: Int8
    /// Namespace (10 bytes) followed by instance (6 bytes).
    public var id: BeaconID128

    public init(txPowerAt0m: Int8, id: BeaconID128) {
        self.txPowerAt0m = txPowerAt0m
        self.id = id
    }
}

/// Eddystone-URL (frame type 0x10), with the scheme prefix and expansion codes applied.
public struct EddystoneURL: Sendable, Equatable {
    public var txPowerAt0m: Int8
    public var url: String

    public init(txPowerAt0m: Int8, url: String) {
        self.txPowerAt0m = txPowerAt0m
        self.url = url
    }
}

/// Eddystone-TLM (frame type 0x20), unencrypted version 0 only (eddystone-tlm/tlm-plain.md).
/// Fields are big-endian on air.
public struct EddystoneTLM: Sendable, Equatable {
    /// Battery voltage, 1 mV per bit; 0 means not supported (a mains- or USB-powered beacon).
    public var batteryMillivolts: UInt16
    /// Beacon temperature, °C, from signed 8.8 fixed point; nil for 0x8000 (−128 °C), "not supported".
    public var temperature: Double?
    /// Advertising PDUs of all frame types sent since power-on or reboot.
    public var advertisingCount: UInt32
    /// Time since power-on or reboot, in units of 0.1 s.
    public var uptimeDeciseconds: UInt32

    public init(batteryMillivolts: UInt16, temperature: Double?, advertisingCount: UInt32, uptimeDeciseconds: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperature = temperature
        self.advertisingCount = advertisingCount
        self.uptimeDeciseconds = uptimeDeciseconds
    }

    /// The battery voltage in mV, nil when the beacon does not report one (0).
    public var battery: UInt16? { batteryMillivolts == 0 ? nil : batteryMillivolts }

    /// Time since power-on or reboot, in seconds.
    public var uptimeSeconds: Double { Double(uptimeDeciseconds) / 10 }

    /// °C from the TEMP field's signed 8.8 fixed-point bits; nil for 0x8000 ("not supported").
    public static func temperature(fixedPoint88 bits: Int16) -> Double? {
        bits == Int16.min ? nil : Double(bits) / 256
    }
}

/// Eddystone-EID (frame type 0x30): an 8-byte rotating ephemeral identifier.
public struct EddystoneEID: Sendable, Equatable {
    public var txPowerAt0m: Int8
    public var ephemeralID: UInt64

    public init(txPowerAt0m: Int8, ephemeralID: UInt64) {
        self.txPowerAt0m = txPowerAt0m
        self.ephemeralID = ephemeralID
    }
}

/// Finds beacon frames in AD data.
///
/// - iBeacon: Manufacturer Specific Data, company 0x004C (little-endian on air), then 0x02 0x15
///   and 21 bytes: UUID(16) major(2, BE) minor(2, BE) measured power(1). Extra trailing bytes are
///   allowed. Other Apple types (0x01, 0x10 Nearby, 0x0F, …) are not iBeacons.
/// - AltBeacon (github.com/AltBeacon/spec): Manufacturer Specific Data, any company, then 0xBE 0xAC,
///   id1(16) id2(2, BE) id3(2, BE) reference RSSI(1) and an optional manufacturer-reserved byte.
/// - Eddystone (github.com/google/eddystone, protocol-specification.md): Service Data – 16-bit UUID
///   0xFEAA (little-endian in the AD), frame type UID 0x00, URL 0x10, TLM 0x20 (version 0), EID 0x30.
///   Any other frame type, a TLM of another version, or a frame too short for its type is `.unknown`.
///
/// Frames are recognised whatever the report's event type: real devices put iBeacons in
/// ADV_IND, ADV_SCAN_IND, ADV_NONCONN_IND and SCAN_RSP (see the captures). Malformed payloads are
/// simply not beacons.
public enum BeaconDecoder {
    /// Every beacon frame in `ad`, in AD order.
    public static func beacons(inAD ad: UnsafeRawBufferPointer) -> [Beacon] {
        var out: [Beacon] = []
        var walker = ADWalker(ad)
        while let (type, data) = walker.next() {
            if let beacon = beacon(adType: type, data: data) { out.append(beacon) }
        }
        return out
    }

    public static func beacons(inAD ad: [UInt8]) -> [Beacon] { ad.withUnsafeBytes { beacons(inAD: $0) } }

    /// The frame that identifies the device, without allocating: the first iBeacon, else the first
    /// AltBeacon, else the first Eddystone-UID; nil when there is none.
    public static func firstIdentifiedBeacon(inAD ad: UnsafeRawBufferPointer) -> Beacon? {
        var altBeacon: AltBeacon?
        var eddystoneUID: EddystoneUID?
        var walker = ADWalker(ad)
        while let (type, data) = walker.next() {
            if type == ADStructure.manufacturerSpecificData {
                if let b = iBeacon(data) { return .iBeacon(b) }
                if altBeacon == nil { altBeacon = Self.altBeacon(data) }
            } else if type == ADStructure.serviceData16, eddystoneUID == nil, data.count >= 3,
                data[0] == 0xAA, data[1] == 0xFE, data[2] == EddystoneFrameType.uid
            {
                eddystoneUID = uid(UnsafeRawBufferPointer(rebasing: data[3...]))
            }
        }
        if let altBeacon { return .altBeacon(altBeacon) }
        if let eddystoneUID { return .eddystone(.uid(eddystoneUID)) }
        return nil
    }

    public static func firstIdentifiedBeacon(inAD ad: [UInt8]) -> Beacon? {
        ad.withUnsafeBytes { firstIdentifiedBeacon(inAD: $0) }
    }

    /// The first Eddystone frame without an identity (TLM, URL, EID, unknown type): what a report
    /// without an identified beacon may still carry (see `firstIdentifiedBeacon`).
    public static func firstUnidentifiedEddystone(inAD ad: UnsafeRawBufferPointer) -> EddystoneFrame? {
        var walker = ADWalker(ad)
        while let (type, data) = walker.next() {
            guard type == ADStructure.serviceData16, data.count >= 3, data[0] == 0xAA, data[1] == 0xFE,
                data[2] != EddystoneFrameType.uid
            else { continue }
            return eddystone(frameType: data[2], body: UnsafeRawBufferPointer(rebasing: data[3...]))
        }
        return nil
    }

    /// The beacon frame carried by one AD structure, if any.
    public static func beacon(adType: UInt8, data: UnsafeRawBufferPointer) -> Beacon? {
        switch adType {
        case ADStructure.manufacturerSpecificData:
            if let b = iBeacon(data) { return .iBeacon(b) }
            if let b = altBeacon(data) { return .altBeacon(b) }
            return nil
        case ADStructure.serviceData16:
            guard data.count >= 3, data[0] == 0xAA, data[1] == 0xFE else { return nil }
            return .eddystone(eddystone(frameType: data[2], body: UnsafeRawBufferPointer(rebasing: data[3...])))
        default:
            return nil
        }
    }

    // MARK: - Manufacturer Specific Data

    /// `data` is the Manufacturer Specific Data after the AD type: company(2, LE) then payload.
    @inline(__always)
    static func iBeacon(_ data: UnsafeRawBufferPointer) -> IBeacon? {
        guard data.count >= 25, data[0] == 0x4C, data[1] == 0x00, data[2] == 0x02, data[3] == 0x15 else { return nil }
        return IBeacon(
            uuid: id128(data, at: 4),
            major: ByteReader.load(UInt16.self, data, at: 20, .bigEndian),
            minor: ByteReader.load(UInt16.self, data, at: 22, .bigEndian),
            measuredPower: Int8(bitPattern: data[24]))
    }

    static func altBeacon(_ data: UnsafeRawBufferPointer) -> AltBeacon? {
        guard data.count >= 25, data[2] == 0xBE, data[3] == 0xAC else { return nil }
        return AltBeacon(
            companyID: ByteReader.load(UInt16.self, data, at: 0, .littleEndian),
            id1: id128(data, at: 4),
            id2: ByteReader.load(UInt16.self, data, at: 20, .bigEndian),
            id3: ByteReader.load(UInt16.self, data, at: 22, .bigEndian),
            referenceRSSI: Int8(bitPattern: data[24]),
            manufacturerReserved: data.count > 25 ? data[25] : nil)
    }

    @inline(__always)
    static func id128(_ data: UnsafeRawBufferPointer, at offset: Int) -> BeaconID128 {
        BeaconID128(
            high: ByteReader.load(UInt64.self, data, at: offset, .bigEndian),
            low: ByteReader.load(UInt64.self, data, at: offset + 8, .bigEndian))
    }

    // MARK: - Eddystone

    enum EddystoneFrameType {
        static let uid: UInt8 = 0x00
        static let url: UInt8 = 0x10
        static let tlm: UInt8 = 0x20
        static let eid: UInt8 = 0x30
    }

    /// `body` is the frame after its frame-type byte.
    static func eddystone(frameType: UInt8, body: UnsafeRawBufferPointer) -> EddystoneFrame {
        switch frameType {
        case EddystoneFrameType.uid:
            if let u = uid(body) { return .uid(u) }
        case EddystoneFrameType.url:
            if let u = url(body) { return .url(u) }
        case EddystoneFrameType.tlm:
            // Version 0x00 = unencrypted TLM; version 0x01 (encrypted) must not be read as plain TLM.
            if body.count >= 13, body[0] == 0x00 {
                return .tlm(
                    EddystoneTLM(
                        batteryMillivolts: ByteReader.load(UInt16.self, body, at: 1, .bigEndian),
                        temperature: EddystoneTLM.temperature(
                            fixedPoint88: ByteReader.load(Int16.self, body, at: 3, .bigEndian)),
                        advertisingCount: ByteReader.load(UInt32.self, body, at: 5, .bigEndian),
                        uptimeDeciseconds: ByteReader.load(UInt32.self, body, at: 9, .bigEndian)))
            }
        case EddystoneFrameType.eid:
            if body.count >= 9 {
                return .eid(
                    EddystoneEID(
                        txPowerAt0m: Int8(bitPattern: body[0]),
                        ephemeralID: ByteReader.load(UInt64.self, body, at: 1, .bigEndian)))
            }
        default:
            break
        }
        return .unknown(frameType: frameType)
    }

    /// UID: tx power(1) namespace(10) instance(6) [RFU(2), often omitted].
    static func uid(_ body: UnsafeRawBufferPointer) -> EddystoneUID? {
        guard body.count >= 17 else { return nil }
        return EddystoneUID(txPowerAt0m: Int8(bitPattern: body[0]), id: id128(body, at: 1))
    }

    static let urlSchemes = ["http://www.", "https://www.", "http://", "https://"]
    static let urlExpansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// URL: tx power(1) scheme(1) encoded URL. Codes 0x00–0x0D expand; 0x21–0x7E are literal;
    /// other (reserved) bytes are kept visible as `%XX`. An unknown scheme is not a URL frame.
    static func url(_ body: UnsafeRawBufferPointer) -> EddystoneURL? {
        guard body.count >= 2, Int(body[1]) < urlSchemes.count else { return nil }
        var text = urlSchemes[Int(body[1])]
        for byte in body[2...] {
            switch byte {
            case 0x00...0x0D: text += urlExpansions[Int(byte)]
            case 0x21...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "%" + Hex.string([byte]).uppercased()
            }
        }
        return EddystoneURL(txPowerAt0m: Int8(bitPattern: body[0]), url: text)
    }
}

/// The inverse of `BeaconDecoder`: the AD structures a beacon advertises, flags first.
///
/// Layouts (each fits the 31 octets of legacy advertising data, Core Spec Vol 4, Part E, §7.8.7):
/// - iBeacon (Apple, "Proximity Beacon Specification"): `02 01 06`, then `1A FF 4C 00 02 15`,
///   UUID(16), major(2, BE), minor(2, BE), measured power(1, signed) — 30 octets.
/// - AltBeacon (github.com/AltBeacon/spec): `02 01 06`, then `1B FF`, company id(2, LE), `BE AC`,
///   id1(16), id2(2, BE), id3(2, BE), reference RSSI(1), manufacturer reserved(1) — 31 octets.
/// - Eddystone (github.com/google/eddystone): `02 01 06`, Complete List of 16-bit Service UUIDs
///   `03 03 AA FE`, then Service Data `16 AA FE` with the frame: UID `00` tx power at 0 m(1)
///   namespace(10) instance(6) RFU(2, zero); URL `10` tx power(1) scheme(1) encoded URL(≤ 17).
///
/// Flags `06` = LE General Discoverable, BR/EDR Not Supported (Core Spec Supplement, Part A, §1.3).
public enum BeaconEncoder {
    public static let flags: [UInt8] = [0x02, ADStructure.flags, 0x06]
    /// Complete List of 16-bit Service UUIDs with 0xFEAA (little-endian), which Eddystone requires.
    static let eddystoneServiceList: [UInt8] = [0x03, ADStructure.completeServiceUUIDs16, 0xAA, 0xFE]
    /// Eddystone-URL: at most 17 octets of encoded URL after the scheme.
    public static let maximumEncodedURLLength = 17

    /// The advertising data for `beacon`; TLM, EID and unknown Eddystone frames carry no identity
    /// of their own and are not advertised.
    public static func advertisingData(_ beacon: Beacon) throws(BeaconEncodingError) -> [UInt8] {
        switch beacon {
        case .iBeacon(let b):
            var body: [UInt8] = [0x4C, 0x00, 0x02, 0x15]
            appendBigEndian(b.uuid, to: &body)
            appendBigEndian(b.major, to: &body)
            appendBigEndian(b.minor, to: &body)
            body.append(UInt8(bitPattern: b.measuredPower))
            return flags + structure(ADStructure.manufacturerSpecificData, body)
        case .altBeacon(let b):
            var body: [UInt8] = [UInt8(b.companyID & 0xFF), UInt8(b.companyID >> 8), 0xBE, 0xAC]
            appendBigEndian(b.id1, to: &body)
            appendBigEndian(b.id2, to: &body)
            appendBigEndian(b.id3, to: &body)
            body.append(UInt8(bitPattern: b.referenceRSSI))
            body.append(b.manufacturerReserved ?? 0)
            return flags + structure(ADStructure.manufacturerSpecificData, body)
        case .eddystone(.uid(let u)):
            var frame: [UInt8] = [BeaconDecoder.EddystoneFrameType.uid, UInt8(bitPattern: u.txPowerAt0m)]
            appendBigEndian(u.id, to: &frame)
            frame += [0x00, 0x00]
            return eddystone(frame)
        case .eddystone(.url(let u)):
            let (scheme, encoded) = try encodeURL(u.url)
            return eddystone(
                [BeaconDecoder.EddystoneFrameType.url, UInt8(bitPattern: u.txPowerAt0m), scheme] + encoded)
        case .eddystone(.tlm):
            throw .notAdvertisable("Eddystone-TLM")
        case .eddystone(.eid):
            throw .notAdvertisable("Eddystone-EID")
        case .eddystone(.unknown(let type)):
            throw .notAdvertisable("Eddystone frame type 0x" + Hex.string([type]))
        }
    }

    /// Eddystone-URL encoding: the scheme prefix as its code (0–3), then each of the 14 expansions
    /// (`.com/` … `.gov`) as its code 0x00–0x0D, other characters as themselves (0x21–0x7E only).
    /// Longest match first, so `https://www.` and `.com/` win over `https://` and `.com`.
    public static func encodeURL(_ url: String) throws(BeaconEncodingError) -> (scheme: UInt8, encoded: [UInt8]) {
        let bytes = Array(url.utf8)
        let schemes = BeaconDecoder.urlSchemes.enumerated().sorted { $0.element.utf8.count > $1.element.utf8.count }
        guard let scheme = schemes.first(where: { bytes.starts(with: $0.element.utf8) }) else {
            throw .urlScheme(url)
        }
        var encoded: [UInt8] = []
        var at = scheme.element.utf8.count
        // The list puts each ".x/" before its ".x", so the first match is the longest.
        let expansions = BeaconDecoder.urlExpansions.map { Array($0.utf8) }
        while at < bytes.count {
            if let code = expansions.firstIndex(where: { bytes[at...].starts(with: $0) }) {
                encoded.append(UInt8(code))
                at += expansions[code].count
                continue
            }
            guard (0x21...0x7E).contains(bytes[at]) else { throw .urlCharacter(url) }
            encoded.append(bytes[at])
            at += 1
        }
        guard encoded.count <= maximumEncodedURLLength else { throw .urlTooLong(url, encodedLength: encoded.count) }
        return (UInt8(scheme.offset), encoded)
    }

    private static func eddystone(_ frame: [UInt8]) -> [UInt8] {
        flags + eddystoneServiceList + structure(ADStructure.serviceData16, [0xAA, 0xFE] + frame)
    }

    /// Length (type + data), type, data (Core Spec Vol 3, Part C, §11).
    private static func structure(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [UInt8(data.count + 1), type] + data
    }

    private static func appendBigEndian(_ value: UInt16, to out: inout [UInt8]) {
        out += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    private static func appendBigEndian(_ id: BeaconID128, to out: inout [UInt8]) {
        for word in [id.high, id.low] {
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
    }
}

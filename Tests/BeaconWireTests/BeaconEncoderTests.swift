import BeaconWire
import Testing

/// The encoders against the published layouts (the annotated vectors in BeaconVectors), and round
/// trips through the decoder.
@Suite struct BeaconEncoderTests {
    static let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!

    @Test func iBeaconIsFlagsThenApplesLayoutBigEndianWithSignedPower() throws {
        let beacon = Beacon.iBeacon(IBeacon(uuid: Self.uuid, major: 0x0102, minor: 0xFFFE, measuredPower: -69))
        let data = try BeaconEncoder.advertisingData(beacon)
        #expect(data == BeaconVectors.iBeacon)
        #expect(data.count == 30)
        #expect(BeaconDecoder.beacons(inAD: data) == [beacon])
    }

    @Test func altBeaconIsTheSpecExampleWithItsReservedByte() throws {
        let beacon = Beacon.altBeacon(
            AltBeacon(
                companyID: 0x0118, id1: BeaconID128(uuidString: "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6")!, id2: 1,
                id3: 2,
                referenceRSSI: -59, manufacturerReserved: nil))
        let data = try BeaconEncoder.advertisingData(beacon)
        #expect(data == BeaconVectors.flags + BeaconVectors.altBeacon)
        #expect(data.count == 31)
        guard case .altBeacon(let decoded) = BeaconDecoder.beacons(inAD: data).first else {
            Issue.record("not decoded as AltBeacon")
            return
        }
        #expect(decoded.id1 == BeaconID128(uuidString: "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6"))
        #expect(decoded.companyID == 0x0118 && decoded.id2 == 1 && decoded.id3 == 2 && decoded.referenceRSSI == -59)
        #expect(decoded.manufacturerReserved == 0)
    }

    @Test func eddystoneUIDListsTheServiceThenTheFrameWithRFU() throws {
        let id = BeaconID128(uuidString: "00112233445566778899aabbccddeeff")!
        let beacon = Beacon.eddystone(.uid(EddystoneUID(txPowerAt0m: -16, id: id)))
        let data = try BeaconEncoder.advertisingData(beacon)
        #expect(data == BeaconVectors.flags + [0x03, 0x03, 0xAA, 0xFE] + BeaconVectors.eddystoneUID)
        #expect(data.count == 31)
        #expect(BeaconDecoder.beacons(inAD: data) == [beacon])
        #expect(beacon.identity == .eddystone(id))
    }

    @Test func eddystoneURLUsesTheSchemeAndExpansionCodes() throws {
        let beacon = Beacon.eddystone(.url(EddystoneURL(txPowerAt0m: -10, url: "https://www.google.com/a.com")))
        let data = try BeaconEncoder.advertisingData(beacon)
        #expect(data == BeaconVectors.flags + [0x03, 0x03, 0xAA, 0xFE] + BeaconVectors.eddystoneURL)
        #expect(BeaconDecoder.beacons(inAD: data) == [beacon])
    }

    @Test(arguments: [
        ("http://www.example.org/", UInt8(0), [0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x01] as [UInt8]),
        ("https://www.x.info", 1, [0x78, 0x0B]),
        ("http://go.gl", 2, [0x67, 0x6F, 0x2E, 0x67, 0x6C]),
        ("https://b.biz/x", 3, [0x62, 0x05, 0x78]),
        ("https://a.edu/.gov", 3, [0x61, 0x02, 0x0D]),
        ("https://", 3, []),
    ])
    func urlEncodingTakesTheLongestSchemeAndExpansion(url: String, scheme: UInt8, encoded: [UInt8]) throws {
        let result = try BeaconEncoder.encodeURL(url)
        #expect(result.scheme == scheme)
        #expect(result.encoded == encoded)
        let data = try BeaconEncoder.advertisingData(.eddystone(.url(EddystoneURL(txPowerAt0m: 0, url: url))))
        #expect(BeaconDecoder.beacons(inAD: data) == [.eddystone(.url(EddystoneURL(txPowerAt0m: 0, url: url)))])
    }

    @Test func urlsEddystoneCannotCarryAreErrors() {
        #expect(throws: BeaconEncodingError.urlScheme("ftp://x.org")) { try BeaconEncoder.encodeURL("ftp://x.org") }
        #expect(throws: BeaconEncodingError.urlCharacter("https://a b.com")) {
            try BeaconEncoder.encodeURL("https://a b.com")
        }
        #expect(throws: BeaconEncodingError.urlCharacter("https://é.com")) {
            try BeaconEncoder.encodeURL("https://é.com")
        }
        // 17 octets fit; 18 do not.
        #expect(throws: Never.self) { try BeaconEncoder.encodeURL("https://abcdefghijklmnopq") }
        #expect(throws: BeaconEncodingError.urlTooLong("https://abcdefghijklmnopqr", encodedLength: 18)) {
            try BeaconEncoder.encodeURL("https://abcdefghijklmnopqr")
        }
        // Expansion codes count one octet each, so a long domain still fits.
        #expect(throws: Never.self) { try BeaconEncoder.encodeURL("https://www.abcdefghijklmnop.com/") }
    }

    @Test func framesWithoutAnIdentityAreNotAdvertised() {
        #expect(throws: BeaconEncodingError.self) {
            try BeaconEncoder.advertisingData(.eddystone(.eid(EddystoneEID(txPowerAt0m: 0, ephemeralID: 1))))
        }
        #expect(throws: BeaconEncodingError.self) {
            try BeaconEncoder.advertisingData(.eddystone(.unknown(frameType: 0x40)))
        }
    }

    @Test func everyEncodedFrameFitsLegacyAdvertisingData() throws {
        for beacon: Beacon in [
            .iBeacon(IBeacon(uuid: Self.uuid, major: .max, minor: .max, measuredPower: .min)),
            .altBeacon(
                AltBeacon(
                    companyID: .max, id1: Self.uuid, id2: 0, id3: 0, referenceRSSI: .max, manufacturerReserved: 0xFF)),
            .eddystone(.uid(EddystoneUID(txPowerAt0m: .min, id: Self.uuid))),
            .eddystone(.url(EddystoneURL(txPowerAt0m: .max, url: "https://abcdefghijklmnopq"))),
        ] {
            let data = try BeaconEncoder.advertisingData(beacon)
            #expect(data.count <= AdvertisingConfiguration.maximumDataLength)
            #expect(Array(data.prefix(3)) == [0x02, 0x01, 0x06])
            #expect(BeaconDecoder.beacons(inAD: data) == [beacon])
        }
    }
}

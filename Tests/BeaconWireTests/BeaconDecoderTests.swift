import BeaconWire
import Testing

@Suite struct BeaconDecoderTests {
    @Test func iBeaconFieldsAreBigEndian() {
        #expect(
            BeaconDecoder.beacons(inAD: BeaconVectors.iBeacon) == [
                .iBeacon(
                    IBeacon(
                        uuid: BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!, major: 258,
                        minor: 65534, measuredPower: -69))
            ])
    }

    @Test func realIBeaconAdvertIsTheAirLocateBeacon() throws {
        let report = try #require(try HCIPacketDecoder.decode(HCIVectors.realIBeacon).reports.first)
        guard case .iBeacon(let b)? = BeaconDecoder.firstIdentifiedBeacon(inAD: report.data) else {
            Issue.record("no iBeacon")
            return
        }
        #expect(b.uuid.uuidString == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(b.major == 100)
        #expect(b.minor == 0)
        #expect(b.measuredPower == -59)
    }

    @Test func realIPhoneAdvertIsNoBeacon() throws {
        let report = try #require(try HCIPacketDecoder.decode(HCIVectors.realIPhone).reports.first)
        #expect(report.rssi == -60)
        #expect(BeaconDecoder.beacons(inAD: report.data).isEmpty)
        #expect(BeaconDecoder.firstIdentifiedBeacon(inAD: report.data) == nil)
    }

    @Test func iBeaconAllowsTrailingBytes() {
        var ad = BeaconVectors.iBeacon
        ad[3] = 0x1C  // two more bytes in the structure
        ad += [0x11, 0x22]
        guard case .iBeacon(let b)? = BeaconDecoder.beacons(inAD: ad).first else {
            Issue.record("no iBeacon")
            return
        }
        #expect(b.major == 258 && b.minor == 65534)
    }

    @Test func otherAppleTypesAndShortPayloadsAreNotBeacons() {
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.appleNearby).isEmpty)
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.appleWrongLength).isEmpty)
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.iBeaconTooShort).isEmpty)
    }

    @Test func altBeaconFromTheSpecificationExample() {
        let expected = AltBeacon(
            companyID: 0x0118, id1: BeaconID128(uuidString: "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6")!, id2: 1, id3: 2,
            referenceRSSI: -59, manufacturerReserved: 0)
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.altBeacon) == [.altBeacon(expected)])
        var withoutReserved = expected
        withoutReserved.manufacturerReserved = nil
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.altBeaconNoReserved) == [.altBeacon(withoutReserved)])
    }

    @Test func eddystoneUIDSplitsNamespaceAndInstance() {
        guard case .eddystone(.uid(let u))? = BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneUID).first else {
            Issue.record("no UID")
            return
        }
        #expect(u.txPowerAt0m == -16)
        let identity = BeaconIdentity.eddystone(u.id)
        #expect(identity.eddystoneNamespace == "00112233445566778899")
        #expect(identity.eddystoneInstance == "aabbccddeeff")
    }

    @Test func eddystoneURLExpandsSchemeAndCodes() {
        #expect(
            BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneURL) == [
                .eddystone(.url(EddystoneURL(txPowerAt0m: -10, url: "https://www.google.com/a.com")))
            ])
    }

    @Test func eddystoneURLWithUnknownSchemeIsUnknown() {
        var ad = BeaconVectors.eddystoneURL
        ad[6] = 0x04
        #expect(BeaconDecoder.beacons(inAD: ad) == [.eddystone(.unknown(frameType: 0x10))])
    }

    @Test func eddystoneTLMVersionZeroIsDecoded() {
        #expect(
            BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLM) == [
                .eddystone(
                    .tlm(
                        EddystoneTLM(
                            batteryMillivolts: 3000, temperature: 25.5, advertisingCount: 256,
                            uptimeDeciseconds: 10000)))
            ])
        guard case .eddystone(.tlm(let t))? = BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLMNegative).first
        else {
            Issue.record("no TLM")
            return
        }
        #expect(t.temperature == -0.5)
        #expect(t.batteryMillivolts == 0)
    }

    @Test func encryptedTLMAndUnknownFramesAreUnknown() {
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLMEncrypted) == [.eddystone(.unknown(frameType: 0x20))])
        #expect(BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneUnknown) == [.eddystone(.unknown(frameType: 0x40))])
    }

    @Test func eddystoneEIDIsEightBigEndianBytes() {
        #expect(
            BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneEID) == [
                .eddystone(.eid(EddystoneEID(txPowerAt0m: -10, ephemeralID: 0x0123_4567_89AB_CDEF)))
            ])
    }

    @Test func firstIdentifiedBeaconPrefersIBeaconThenAltBeaconThenUID() {
        let uidThenAlt = BeaconVectors.eddystoneUID + BeaconVectors.altBeacon
        guard case .altBeacon? = BeaconDecoder.firstIdentifiedBeacon(inAD: uidThenAlt) else {
            Issue.record("AltBeacon should win over Eddystone-UID")
            return
        }
        let all = BeaconVectors.eddystoneUID + BeaconVectors.altBeacon + BeaconVectors.iBeacon
        guard case .iBeacon? = BeaconDecoder.firstIdentifiedBeacon(inAD: all) else {
            Issue.record("iBeacon should win")
            return
        }
        guard case .eddystone(.uid)? = BeaconDecoder.firstIdentifiedBeacon(inAD: BeaconVectors.eddystoneURL + BeaconVectors.eddystoneUID)
        else {
            Issue.record("UID should be found after a URL frame")
            return
        }
        #expect(BeaconDecoder.firstIdentifiedBeacon(inAD: BeaconVectors.eddystoneURL) == nil)
        #expect(BeaconDecoder.beacons(inAD: all).count == 3)
    }
}

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
        #expect(t.battery == nil)
    }

    /// tlm-plain.md: TEMP is signed 8.8 fixed point, 0x8000 (−128 °C) meaning "not supported";
    /// VBATT 0 means not supported; SEC_CNT counts 0.1 s.
    @Test func tlmFieldsFollowTheSpec() {
        let cases: [(Int16, Double?)] = [
            (0x1980, 25.5), (0x0000, 0), (0x0001, 1.0 / 256), (0x7FFF, 127 + 255.0 / 256), (-0x0080, -0.5),
            (-0x0100, -1), (-0x7FFF, -127 - 255.0 / 256), (Int16.min, nil),
        ]
        for (bits, celsius) in cases { #expect(EddystoneTLM.temperature(fixedPoint88: bits) == celsius, "\(bits)") }
        guard case .eddystone(.tlm(let t))? = BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLMNoTemperature).first
        else {
            Issue.record("no TLM")
            return
        }
        #expect(t.temperature == nil)
        #expect(t.battery == 3600)
        #expect(t.advertisingCount == UInt32.max)
        #expect(t.uptimeSeconds == Double(UInt32.max) / 10)
        guard case .eddystone(.tlm(let plain))? = BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLM).first else {
            Issue.record("no TLM")
            return
        }
        #expect(plain.uptimeSeconds == 1000)
        #expect(plain.battery == 3000)
    }

    /// The real Estimote TLM frame from goodystone's capture (Tests/Fixtures/captures/PROVENANCE.md):
    /// 0x0B6D = 2925 mV, 0x20C0 = 32.75 °C, 0x00061B17 = 400151 PDUs, 0x00437CB8 = 4422840 × 0.1 s.
    @Test func estimoteTLMFromTheSharedCapture() throws {
        let ad: [UInt8] = [
            0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, 0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00, 0x0B, 0x6D, 0x20, 0xC0,
            0x00, 0x06, 0x1B, 0x17, 0x00, 0x43, 0x7C, 0xB8,
        ]
        #expect(
            BeaconDecoder.beacons(inAD: ad) == [
                .eddystone(
                    .tlm(
                        EddystoneTLM(
                            batteryMillivolts: 2925, temperature: 32.75, advertisingCount: 400_151,
                            uptimeDeciseconds: 4_422_840)))
            ])
        #expect(BeaconDecoder.firstIdentifiedBeacon(inAD: ad) == nil)
    }

    @Test func advertisedTxPowerIsAsTheFrameCarriesIt() {
        func power(_ ad: [UInt8]) -> (Int8, Int)? {
            BeaconDecoder.beacons(inAD: ad).first?.advertisedTxPower.map { ($0.dBm, $0.atMetres) }
        }
        #expect(power(BeaconVectors.eddystoneUID)! == (-16, 0))
        #expect(power(BeaconVectors.eddystoneURL)! == (-10, 0))
        #expect(power(BeaconVectors.eddystoneEID)! == (-10, 0))
        #expect(power(BeaconVectors.iBeacon)!.1 == 1)
        #expect(power(BeaconVectors.eddystoneTLM) == nil)
    }

    @Test func encryptedTLMAndUnknownFramesAreUnknown() {
        #expect(
            BeaconDecoder.beacons(inAD: BeaconVectors.eddystoneTLMEncrypted) == [.eddystone(.unknown(frameType: 0x20))])
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
        guard
            case .eddystone(.uid)? = BeaconDecoder.firstIdentifiedBeacon(
                inAD: BeaconVectors.eddystoneURL + BeaconVectors.eddystoneUID)
        else {
            Issue.record("UID should be found after a URL frame")
            return
        }
        #expect(BeaconDecoder.firstIdentifiedBeacon(inAD: BeaconVectors.eddystoneURL) == nil)
        #expect(BeaconDecoder.beacons(inAD: all).count == 3)
    }
}

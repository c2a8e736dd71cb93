import BeaconCore
import BeaconWire
import Testing

@Suite struct IdentityResolvingKeyTests {
    static let hex = "ec0234a357c8ad05341010a60a397d9b"

    @Test func hexIsMostSignificantOctetFirst() throws {
        let key = try #require(IdentityResolvingKey(text: Self.hex))
        #expect(key.high == 0xEC02_34A3_57C8_AD05 && key.low == 0x3410_10A6_0A39_7D9B)
        #expect(key.bytes.first == 0xEC && key.bytes.last == 0x9B)
        #expect(key.hex == Self.hex)
        #expect(IdentityResolvingKey(text: Self.hex.uppercased()) == key)
        #expect(IdentityResolvingKey(text: "irk:" + Self.hex) == key)
    }

    @Test func homeAssistantsBase64IsTheOctetsReversed() throws {
        let key = try #require(IdentityResolvingKey(text: Self.hex))
        // base64 of 9b 7d 39 0a a6 10 10 34 05 ad c8 57 a3 34 02 ec.
        #expect(key.base64 == "m305CqYQEDQFrchXozQC7A==")
        #expect(IdentityResolvingKey(text: "m305CqYQEDQFrchXozQC7A==") == key)
        #expect(IdentityResolvingKey(text: "irk:m305CqYQEDQFrchXozQC7A==") == key)
    }

    @Test func anythingElseIsRefused() {
        for bad in [
            "", String(Self.hex.dropLast()), Self.hex + "00", "zz" + Self.hex.dropFirst(2),
            "ec0234a3 57c8ad05341010a60a397d9",
            "m305CqYQEDQFrchXozQC==", "m305CqYQEDQFrch!ozQC7A==", "AAAA=", "irk:",
        ] {
            #expect(IdentityResolvingKey(text: bad) == nil, "\(bad)")
        }
    }

    @Test func itsDescriptionHidesTheKey() {
        let key = IdentityResolvingKey(text: Self.hex)!
        #expect(!"\(key)".contains("ec02"))
        #expect(!String(reflecting: key).contains("ec02"))
    }

    @Test func base64RoundTripsEveryLength() {
        for n in 0..<20 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes, "\(n)")
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64.decode("Z=8A") == nil)
        #expect(Base64.decode("Zm8") == nil)
    }

    @Test func addressFormsFollowTheTopTwoBits() throws {
        let rpa = try #require(BluetoothAddress("70:81:94:0d:fb:aa"))
        #expect(rpa.hasResolvablePrivateForm && !rpa.hasStaticRandomForm)
        #expect(rpa.prand == 0x70_8194 && rpa.addressHash == 0x0D_FBAA)
        let staticRandom = try #require(BluetoothAddress("c1:02:03:04:05:06"))
        #expect(staticRandom.hasStaticRandomForm && !staticRandom.hasResolvablePrivateForm)
        #expect(!BluetoothAddress("00:1a:7d:da:71:13")!.hasResolvablePrivateForm)
    }
}

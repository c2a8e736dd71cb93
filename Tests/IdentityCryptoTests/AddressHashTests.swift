import BeaconCore
import BeaconWire
import IdentityCrypto
import Testing

/// `ah` against the Core Spec's sample data, and resolution round trips with generated keys.
@Suite struct AddressHashTests {
    /// Core Spec Vol 3, Part H, Appendix D.7 (ah sample data): IRK, prand and hash, all most
    /// significant octet first.
    static let sampleKey = IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!

    @Test func theSpecSampleHashes() {
        #expect(AESIdentityResolver(keys: [Self.sampleKey]).hash(key: 0, prand: 0x70_8194) == 0x0D_FBAA)
    }

    @Test func theSpecSampleMakesTheSampleAddress() {
        let address = ResolvablePrivateAddress.make(key: Self.sampleKey, prand: 0x70_8194)
        #expect(address == BluetoothAddress("70:81:94:0d:fb:aa"))
        #expect(address.hasResolvablePrivateForm)
        #expect(address.prand == 0x70_8194 && address.addressHash == 0x0D_FBAA)
    }

    @Test func theSampleAddressResolvesToItsKeyOnlyAmongOthers() {
        var keys = (0..<10).map { _ in ResolvablePrivateAddress.randomKey() }
        keys.insert(Self.sampleKey, at: 7)
        let resolver = AESIdentityResolver(keys: keys)
        #expect(resolver.keyCount == 11)
        #expect(resolver.resolve(prand: 0x70_8194, hash: 0x0D_FBAA) == 7)
        // One bit off in the hash or in prand: no key.
        #expect(resolver.resolve(prand: 0x70_8194, hash: 0x0D_FBAB) == nil)
        #expect(resolver.resolve(prand: 0x70_8195, hash: 0x0D_FBAA) == nil)
    }

    @Test func generatedAddressesResolveToTheirOwnKey() {
        let keys = (0..<50).map { _ in ResolvablePrivateAddress.randomKey() }
        #expect(Set(keys).count == 50)
        let resolver = AESIdentityResolver(keys: keys)
        for _ in 0..<20 {
            for (i, key) in keys.enumerated() {
                let address = ResolvablePrivateAddress.random(for: key)
                #expect(address.hasResolvablePrivateForm)
                let random = address.prand & 0x3F_FFFF
                #expect(random != 0 && random != 0x3F_FFFF)
                let found = resolver.resolve(prand: address.prand, hash: address.addressHash)
                // An earlier key may collide by chance (2^-24 per key): then it must really hash alike.
                if found != i {
                    let other = try! #require(found)
                    #expect(resolver.hash(key: other, prand: address.prand) == address.addressHash)
                }
            }
        }
    }

    @Test func randomAddressesOfOtherKeysMostlyDoNotResolve() {
        let resolver = AESIdentityResolver(keys: (0..<50).map { _ in ResolvablePrivateAddress.randomKey() })
        var resolved = 0
        for _ in 0..<2000 {
            let address = ResolvablePrivateAddress.random(for: ResolvablePrivateAddress.randomKey())
            if resolver.resolve(prand: address.prand, hash: address.addressHash) != nil { resolved += 1 }
        }
        // 2000 × 50 trials at 2^-24 each: expected 0.006 false matches.
        #expect(resolved <= 1)
    }

    @Test func anEmptyKeyListResolvesNothing() {
        #expect(AESIdentityResolver(keys: []).resolve(prand: 0x70_8194, hash: 0x0D_FBAA) == nil)
    }
}

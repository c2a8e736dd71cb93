import BeaconWire
import Testing

@Suite struct ADWalkerTests {
    @Test func splitsStructuresAndStopsAtAZeroLength() {
        // Flags(0x06) | Complete Local Name "ab" | terminator | padding the walker must ignore
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x09, 0x61, 0x62, 0x00, 0x05, 0xFF]
        let (structures, truncatedAt) = ADStructure.parse(ad)
        #expect(structures == [ADStructure(type: 0x01, data: [0x06]), ADStructure(type: 0x09, data: [0x61, 0x62])])
        #expect(truncatedAt == nil)
    }

    @Test func truncatedFinalStructureIsDroppedAndLocated() {
        // Flags | a structure claiming 8 bytes with only 3 present (starts at offset 3)
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x08, 0xFF, 0x4C, 0x00]
        let (structures, truncatedAt) = ADStructure.parse(ad)
        #expect(structures == [ADStructure(type: 0x01, data: [0x06])])
        #expect(truncatedAt == 3)
    }

    @Test func dataThatIsNotADFormattedIsSkippedWithoutError() {
        // A vendor payload seen in the wangdalian capture: 0c 00 2b ee dd cc (first length 12 > 5 remaining).
        let (structures, truncatedAt) = ADStructure.parse([0x0C, 0x00, 0x2B, 0xEE, 0xDD, 0xCC])
        #expect(structures.isEmpty)
        #expect(truncatedAt == 0)
        #expect(BeaconDecoder.beacons(inAD: [0x0C, 0x00, 0x2B, 0xEE, 0xDD, 0xCC]).isEmpty)
    }

    @Test func allocationFreeWalkerYieldsTheSameStructures() {
        let ad = BeaconVectors.iBeacon + BeaconVectors.eddystoneTLM
        var types: [UInt8] = []
        var lengths: [Int] = []
        ad.withUnsafeBytes { raw in
            var walker = ADWalker(raw)
            while let (type, data) = walker.next() {
                types.append(type)
                lengths.append(data.count)
            }
            #expect(walker.truncatedAt == nil)
        }
        #expect(types == [0x01, 0xFF, 0x16])
        #expect(lengths == [1, 25, 16])
    }
}

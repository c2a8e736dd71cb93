import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing

/// The ranging list's payload text, which the contract caches per beacon between ticks.
@Suite struct RangingListTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    /// Ranging lists reuse each beacon's identity text between ticks; a new address, a slot reused by
    /// another beacon, or a reload that renames it must all show in the next list.
    @Test func rangingListFollowsAddressChangesSlotReuseAndRenames() {
        var c = Fixtures.regionConfig()
        c.ranging.publish.rangingList = true
        c.ranging.filter.kind = .none
        c.monitoring.maxTracked = 1
        c.beacons = [BeaconOverride(identity: a1, name: "desk")]
        var h = MessageHarness(c)
        let other = BluetoothAddress("c0:ff:ee:00:00:02")!
        h.see(Fixtures.sighting(a1, at: 0.1))
        let first = h.advance(1).of(.ranging).first?.payload.text ?? ""
        h.see(Fixtures.sighting(a1, at: 1.1, address: other))
        let moved = h.advance(2).of(.ranging).first?.payload.text ?? ""
        h.see(Fixtures.sighting(a2, at: 2.1))  // evicts a1 (cap 1): a2 takes its slot
        let reused = h.advance(3).of(.ranging).first?.payload.text ?? ""
        h.see(Fixtures.sighting(a2, at: 3.1))
        c.beacons = [BeaconOverride(identity: a2, name: "door")]
        var o: [OutboundMessage] = []
        h.pipeline.reconfigure(c, at: Fixtures.at(3.2), into: &o)
        let renamed = h.advance(4).of(.ranging).first?.payload.text ?? ""
        #expect(first.contains(#""minor":1,"name":"desk","address":"c0:ff:ee:00:00:01""#))
        #expect(moved.contains(#""minor":1,"name":"desk","address":"c0:ff:ee:00:00:02""#))
        #expect(reused.contains(#""minor":2,"name":null,"address":"c0:ff:ee:00:00:01""#))
        #expect(!reused.contains(#""minor":1"#))
        #expect(renamed.contains(#""minor":2,"name":"door","#))
    }
}

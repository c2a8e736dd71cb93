import BeaconCore
import BeaconWire
import GatewayPipeline
import MessageContract
import Settings
import TestFixtures
import Testing

/// The ranging list's payload text, which the contract caches per beacon between ticks.
@Suite struct RangingListTests {
    let a1 = Fixtures.beacon(1)
    let a2 = Fixtures.beacon(2)

    /// Ranging lists reuse each beacon's identity text between ticks (kept from its second list on);
    /// a new address, a slot reused by another beacon, or a reload that renames it must all show in
    /// the next list. Each phase lasts two ticks, so the second list of each comes from the cache.
    @Test func rangingListFollowsAddressChangesSlotReuseAndRenames() {
        var c = Fixtures.regionConfig()
        c.ranging.publish.rangingList = true
        c.ranging.filter.kind = .none
        c.monitoring.maxTracked = 1
        c.beacons = [BeaconOverride(identity: a1, name: "desk")]
        var h = MessageHarness(c)
        let other = BluetoothAddress("c0:ff:ee:00:00:02")!
        /// The ranging lists of two ticks in which `b` is heard from `address` before each.
        func twoTicks(_ b: BeaconIdentity, from second: Double, address: BluetoothAddress? = nil) -> [String] {
            (0..<2).map { i in
                let t = second + Double(i)
                h.see(Fixtures.sighting(b, at: t + 0.1, address: address ?? Fixtures.address))
                return h.advance(t + 1).of(.ranging).first?.payload.text ?? ""
            }
        }
        let first = twoTicks(a1, from: 0)
        let moved = twoTicks(a1, from: 2, address: other)
        let reused = twoTicks(a2, from: 4)  // evicts a1 (cap 1): a2 takes its slot
        c.beacons = [BeaconOverride(identity: a2, name: "door")]
        var o: [OutboundMessage] = []
        h.pipeline.reconfigure(c, at: Fixtures.at(6.05), into: &o)
        let renamed = twoTicks(a2, from: 6)
        for text in first { #expect(text.contains(#""minor":1,"name":"desk","address":"c0:ff:ee:00:00:01""#)) }
        for text in moved { #expect(text.contains(#""minor":1,"name":"desk","address":"c0:ff:ee:00:00:02""#)) }
        for text in reused {
            #expect(text.contains(#""minor":2,"name":null,"address":"c0:ff:ee:00:00:01""#))
            #expect(!text.contains(#""minor":1"#))
        }
        for text in renamed { #expect(text.contains(#""minor":2,"name":"door","#)) }
    }
}

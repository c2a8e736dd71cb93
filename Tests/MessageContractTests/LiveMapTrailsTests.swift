import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// The live map's tracks follow the locator's beacons: a beacon the locator forgets (not_home with
/// no reading left) loses its track at the next record, and another beacon's stays.
@Suite struct LiveMapTrailsTests {
    @Test func aForgottenBeaconLosesItsTrack() throws {
        var settings = LocatorPositionTests.settings(plan: LocatorPositionTests.plan, deadband: 0)
        settings.staleAfter = .seconds(5)
        settings.awayTimeout = .seconds(10)
        var h = LocatorHarness(settings)
        var trails = LiveMapTrails()
        let other = Fixtures.beacon(2)
        for t in 0..<20 {
            for g in LocatorPositionTests.plan.gateways {
                let d = g.position.distance(to: SitePosition(x: 2 + Double(t) * 0.4, y: 2.5, z: 1))
                let rssi = -59 - 20 * Foundation.log10(d)
                h.locator.observe(LocatorHarness.reading(g.id, d, at: Double(t), rssi: rssi))
            }
            // The other beacon stays by B, heard all along.
            h.locator.observe(LocatorHarness.reading("B", 1, at: Double(t), beacon: other, rssi: -59))
            h.advance(Double(t) + 1.5)
            h.locator.record(&trails)
        }
        #expect(trails.track(of: LocatorHarness.beacon).count > 3)
        #expect(!trails.track(of: other).isEmpty)
        // The first beacon falls silent; the other goes on.
        for t in 20..<120 {
            h.locator.observe(LocatorHarness.reading("B", 1, at: Double(t), beacon: other, rssi: -59))
            h.advance(Double(t) + 1.5)
            h.locator.record(&trails)
        }
        #expect(h.locator.location(of: LocatorHarness.beacon) == nil)
        #expect(trails.track(of: LocatorHarness.beacon).isEmpty)
        #expect(!trails.track(of: other).isEmpty)
    }
}

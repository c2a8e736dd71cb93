import BeaconCore
import Settings

/// A thin transport adapter that produces HCI packets: the live HCI socket, a capture file,
/// or the simulator. `run` blocks on the caller's thread until `stop()` or the end of input.
package protocol PacketSource: AnyObject, Sendable {
    func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws
    /// Safe to call from any thread; makes `run` return soon.
    func stop()
    /// Safe to call from any thread (the pipeline thread reads it for `/metrics`).
    var metrics: SourceMetrics { get }
    /// What to advertise beside the scan from now on (a reload or a configuration layer changed
    /// `advertise:`); nil stops advertising. Safe to call from any thread.
    func advertise(_ settings: AdvertiseSettings?)
}

extension PacketSource {
    /// Sources without an adapter: nothing to reset, no scan mode.
    package var metrics: SourceMetrics { SourceMetrics() }
    /// Sources without a radio advertise nothing.
    package func advertise(_ settings: AdvertiseSettings?) {}
}

/// What a source tells `/metrics` about its adapter besides its health.
package struct SourceMetrics: Sendable, Equatable {
    /// Reopens and resets after faults.
    package var resets = 0
    /// The live scan's mode (`active`, `passive`, `listen`); nil for a replay or a simulation.
    package var scanMode: String?
    package init(resets: Int = 0, scanMode: String? = nil) {
        self.resets = resets
        self.scanMode = scanMode
    }
}

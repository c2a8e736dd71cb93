import BeaconWire
import Foundation
import Synchronization

/// Replays a capture file (btsnoop, pcap/pcapng, hcidump text) as a packet source: at capture speed,
/// at a multiple of it (`--speed N`), or as fast as the agent takes packets (`--speed max`). The
/// packets keep the capture's timestamps either way.
public final class ReplaySource: PacketSource {
    public let path: String
    /// nil: as fast as possible.
    public let speed: Double?
    private let bytes: [UInt8]
    private let stopped = Mutex(false)

    /// Reads the whole file and checks its container format up front.
    public init(path: String, speed: Double?) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReplayError("cannot read '\(path)'")
        }
        bytes = Array(data)
        do {
            _ = try CaptureReader(bytes)
        } catch {
            throw ReplayError("\(path): \(error)")
        }
        self.path = path
        self.speed = speed
    }

    public struct ReplayError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    public func stop() { stopped.withLock { $0 = true } }

    public func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) throws {
        var reader = try CaptureReader(bytes)
        var first: (capture: Timestamp, wall: ContinuousClock.Instant)?
        while !stopped.withLock({ $0 }) {
            let packet: CapturedPacket?
            do {
                packet = try reader.next()
            } catch {
                deliver(.end)
                throw ReplayError("\(path): \(error)")
            }
            guard let packet else { break }
            if let speed, speed > 0 {
                if let first {
                    let offset = Double((packet.timestamp - first.capture).microseconds) / speed
                    let due = first.wall + .microseconds(Int64(offset))
                    while ContinuousClock.now < due, !stopped.withLock({ $0 }) {
                        let wait = min(due - ContinuousClock.now, .milliseconds(100))
                        Thread.sleep(
                            forTimeInterval: Double(wait.components.attoseconds) / 1e18
                                + Double(wait.components.seconds))
                    }
                } else {
                    first = (packet.timestamp, ContinuousClock.now)
                }
            }
            deliver(.packet(packet))
        }
        deliver(.end)
    }
}

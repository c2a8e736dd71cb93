import BeaconWire
import Vocabulary

/// A recorded run as the gateways would have captured it: one btsnoop file per receiver, with one
/// iBeacon advertising report per row the receiver heard the tag, at the row's time, its RSSI
/// rounded to whole dBm (what a controller reports). The tag has one fixed identity.
enum ReceiverCaptures {
    static let uuid = HCIEventBuilder.airLocate
    static let major: UInt16 = 1
    static let minor: UInt16 = 1
    static let address: UInt64 = 0xC0FF_EE00_0001
    /// The tag's topic below the base topic.
    static var beaconTopic: String { "\(uuid.uuidString.lowercased())/\(major)/\(minor)" }

    /// Writes the captures of `run`, one per receiver of `site`, as `<prefix>-<gateway>.btsnoop`;
    /// returns their paths in the site's receiver order.
    static func write(
        _ run: SiteRecording, site: SiteDescription, scratch: ScratchDirectory, prefix: String
    )
        throws(BenchFailure) -> [String]
    {
        var paths: [String] = []
        for (k, receiver) in site.receivers.enumerated() {
            let path = scratch.path("\(prefix)-\(receiver.gateway).btsnoop")
            let writer = try CaptureFileWriter(path: path)
            for row in run.rows {
                guard let rssi = row.rssi[k] else { continue }
                let event = HCIEventBuilder.iBeacon(
                    address: address, uuid: uuid, major: major, minor: minor, measuredPower: site.measuredPower,
                    rssi: Int8(clamping: Int(rssi.rounded())))
                writer.append(event, at: timestamp(row.time))
            }
            writer.close()
            paths.append(path)
        }
        return paths
    }

    /// Seconds since the epoch as a capture timestamp (µs).
    static func timestamp(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64((seconds * 1e6).rounded())) }
}

import BeaconWire

/// Malformed packets by why they failed (`DecodeError`'s case), for `beacon2mqtt_reports_malformed_total{reason}`.
package struct MalformedCounts: Sendable, Equatable {
    package var truncated = 0
    package var badParameterLength = 0
    package var unknownPacketIndicator = 0
    package var empty = 0

    package init() {}

    package mutating func count(_ error: DecodeError) {
        switch error {
        case .truncated: truncated += 1
        case .badParameterLength: badParameterLength += 1
        case .unknownPacketIndicator: unknownPacketIndicator += 1
        case .empty: empty += 1
        }
    }

    /// Every reason with its label value, in a fixed order (each is shown, zero or not).
    package var byReason: [(reason: String, count: Int)] {
        [
            ("truncated", truncated), ("bad_parameter_length", badParameterLength),
            ("unknown_packet_indicator", unknownPacketIndicator), ("empty", empty),
        ]
    }
}

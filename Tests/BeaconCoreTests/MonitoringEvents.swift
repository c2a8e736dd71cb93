import BeaconCore

extension Array where Element == MonitoringEvent {
    /// Region and per-beacon enters and exits, in order.
    var transitions: [MonitoringEvent] {
        filter {
            switch $0 {
            case .didEnterRegion, .didExitRegion, .beaconDidEnter, .beaconDidExit: return true
            default: return false
            }
        }
    }

    /// The states determined for `region`, in order.
    func states(of region: String) -> [RegionState] {
        compactMap {
            if case .didDetermineState(region, let s, _) = $0 { return s.state }
            return nil
        }
    }

    /// Region and per-beacon state determinations (each is one retained state and attributes).
    var determinations: [MonitoringEvent] {
        filter {
            switch $0 {
            case .didDetermineState, .beaconDidDetermineState: return true
            default: return false
            }
        }
    }
}

import Vocabulary

/// `ranging:`: how often beacons are ranged, and how their RSSI becomes a distance and a message.
package struct RangingSettings: Sendable, Equatable {
    package var interval: TimeSpan = .seconds(1)
    /// Beacons not seen for this long drop out of the ranging list.
    package var staleAfter: TimeSpan = .seconds(5)
    package var filter = FilterSettings()
    package var distance = DistanceSettings()
    package var proximity = ProximityThresholds()
    package var publish = PublishSettings()
    package init() {}
}

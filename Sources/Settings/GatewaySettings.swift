import BeaconCore

/// `gateway:`: who this gateway is and where it stands.
package struct GatewaySettings: Sendable, Equatable {
    /// Gateway id used in topics; validated as a topic level. Default: the host name (filled by the loader).
    package var id: String = "gateway"
    package var floor: String? = nil
    package var room: String? = nil
    /// dB added to every RSSI this gateway measures, to calibrate gateways that disagree.
    package var rssiOffset: Double = 0
    /// Where the gateway stands (metres, the site's own axes), so gateways that hear each other
    /// calibrate the site (docs/locator.md, "Calibrating a site"). nil: unknown.
    package var position: SitePosition? = nil
    package init() {}
}

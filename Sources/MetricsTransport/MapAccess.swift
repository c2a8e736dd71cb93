/// How the endpoint serves the live map (`metrics.map`, docs/metrics.md, "The live map"): who may
/// see it and how many live streams it feeds at once. The map shows where people are, so every
/// path under it is refused unless the map is on, and with credentials unless a request carries one.
package struct MapAccess: Sendable {
    /// The `Authorization` values admitted (`Basic ` and the base64 of `user:password`, one per
    /// line of `metrics.map_password_file`); empty: no authentication.
    package var authorizations: [String]
    /// Event streams (`/map/events`) open at once; more are answered 503.
    package var streams: Int

    package init(authorizations: [String] = [], streams: Int = 8) {
        self.authorizations = authorizations
        self.streams = streams
    }

    /// Whether a request with this `Authorization` header may see the map. Every admitted value
    /// is compared in full, whatever matched, so the time taken tells nothing of the secrets.
    package func admits(_ authorization: String?) -> Bool {
        guard !authorizations.isEmpty else { return true }
        let given = Array((authorization ?? "").utf8)
        var admitted = false
        for candidate in authorizations {
            let expected = Array(candidate.utf8)
            var difference = UInt8(given.count == expected.count ? 0 : 1)
            for i in expected.indices { difference |= expected[i] ^ (i < given.count ? given[i] : 0) }
            if difference == 0 { admitted = true }
        }
        return admitted
    }
}

import BeaconCore
import BeaconWire
import Settings

/// A gateway's answer to a configuration layer, as `beacon2mqtt config set` reads it back: its
/// retained effective configuration (`ConfigLayers.document`) applies the layer once the layer's
/// entry carries the digest (`ConfigLayer.digest`) of the payload just published — or, for a
/// removed layer, once it has no entry — and an error on `<base>/gateways/<gw>/config/error`
/// refuses it when it names that layer and digest. Anything else is an older state or someone
/// else's change, and is not an answer.
package enum ConfigurationAnswer: Sendable, Equatable {
    case applied
    /// The gateway's diagnostics (`check-config`'s words).
    case refused([String])

    /// `document` (an effective configuration) or `error` (a config/error payload) as the answer to
    /// `layer` set to the payload whose digest is `digest` (nil: the layer was removed).
    package init?(document: String, layer: ConfigLayer, digest: String?) {
        guard let entries = try? Self.layerEntries(document) else { return nil }
        let entry = entries.first { $0.layer == layer.rawValue }
        switch (entry, digest) {
        case (nil, nil): self = .applied
        case (let e?, let d?) where e.digest == d: self = .applied
        default: return nil
        }
    }

    package init?(error: String, layer: ConfigLayer, digest: String?) {
        guard let object = try? JSONObject(error), object.string("layer") == layer.rawValue,
            object.string("digest") == (digest ?? ConfigLayer.digest([]))
        else { return nil }
        self = .refused((try? Self.strings(in: error, member: "diagnostics")) ?? [])
    }

    /// The `layers` array of an effective configuration: each entry's `layer` and `digest`.
    private static func layerEntries(_ document: String) throws(JSONError) -> [(layer: String?, digest: String?)] {
        var r = JSONReader(document)
        guard try r.next() == .beginObject else { throw JSONError(.unexpectedValue, at: 0) }
        while case .key(let name)? = try r.next() {
            guard r.string(name) == "layers" else {
                try r.skipValue()
                continue
            }
            guard try r.next() == .beginArray else { throw JSONError(.unexpectedValue, at: r.offset) }
            var entries: [(layer: String?, digest: String?)] = []
            while try r.next() == .beginObject {
                var entry: (layer: String?, digest: String?) = (nil, nil)
                while case .key(let key)? = try r.next() {
                    switch try r.next() {
                    case .string(let text)? where r.string(key) == "layer": entry.layer = r.string(text)
                    case .string(let text)? where r.string(key) == "digest": entry.digest = r.string(text)
                    case .beginObject?, .beginArray?: try r.skipContainer()
                    default: break
                    }
                }
                entries.append(entry)
            }
            return entries
        }
        return []
    }

    /// The strings of the top-level array `member` of `text`.
    private static func strings(in text: String, member: String) throws(JSONError) -> [String] {
        var r = JSONReader(text)
        guard try r.next() == .beginObject else { return [] }
        while case .key(let name)? = try r.next() {
            guard r.string(name) == member else {
                try r.skipValue()
                continue
            }
            guard try r.next() == .beginArray else { return [] }
            var out: [String] = []
            while let token = try r.next(), token != .endArray {
                if case .string(let s) = token {
                    out.append(r.string(s))
                } else if token == .beginObject || token == .beginArray {
                    try r.skipContainer()
                }
            }
            return out
        }
        return []
    }
}

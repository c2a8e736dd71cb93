import BeaconCore
import MessageContract
import Settings
import Testing

/// How `beacon2mqtt config set` tells its own change confirmed from an older state: by the layer's
/// digest in the effective configuration, or in an error.
@Suite struct ConfigurationAnswerTests {
    static let payload = Array(#"{"gateway":{"room":"lobby"}}"#.utf8)
    static let digest = ConfigLayer.digest(payload)

    static func document(fleet digest: String?) -> String {
        let fleet =
            digest.map {
                #",{"layer":"fleet","source":"b/fleet/config/set","applied":"2026-12-01T12:00:00.000Z","digest":"\#($0)"}"#
            } ?? ""
        return
            #"{"gateway":"gw1","layers":[{"layer":"file","source":"/etc/b.yaml"}\#(fleet)],"config":{"gateway":{"id":"gw1","room":"x"},"beacons":[{"name":"a"}]}}"#
    }

    @Test func theDigestIsFNV1aOfThePayload() {
        // FNV-1a 64 test vectors (Fowler/Noll/Vo): "" and "a".
        #expect(ConfigLayer.digest([]) == "cbf29ce484222325")
        #expect(ConfigLayer.digest(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(ConfigLayer.digest(Self.payload) != ConfigLayer.digest(Self.payload + [0x20]))
    }

    @Test func anEffectiveConfigurationConfirmsOnlyThePayloadJustSet() {
        #expect(
            ConfigurationAnswer(document: Self.document(fleet: Self.digest), layer: .fleet, digest: Self.digest)
                == .applied)
        // An older fleet layer, or none at all, is no answer to this one.
        #expect(
            ConfigurationAnswer(document: Self.document(fleet: "0123456789abcdef"), layer: .fleet, digest: Self.digest)
                == nil)
        #expect(ConfigurationAnswer(document: Self.document(fleet: nil), layer: .fleet, digest: Self.digest) == nil)
        // A layer removed (digest nil) is confirmed once the layer has gone.
        #expect(ConfigurationAnswer(document: Self.document(fleet: nil), layer: .fleet, digest: nil) == .applied)
        #expect(ConfigurationAnswer(document: Self.document(fleet: Self.digest), layer: .fleet, digest: nil) == nil)
        // The gateway layer is another entry.
        #expect(
            ConfigurationAnswer(document: Self.document(fleet: Self.digest), layer: .gateway, digest: Self.digest)
                == nil)
        #expect(ConfigurationAnswer(document: "not json", layer: .fleet, digest: nil) == nil)
    }

    @Test func anErrorRefusesOnlyThePayloadItNames() {
        let error =
            #"{"layer":"fleet","source":"b/fleet/config/set","digest":"\#(Self.digest)","diagnostics":["b/fleet/config/set:1:2: mqtt: restart","second"],"time":"2026-12-01T12:00:00.000Z"}"#
        #expect(
            ConfigurationAnswer(error: error, layer: .fleet, digest: Self.digest)
                == .refused(["b/fleet/config/set:1:2: mqtt: restart", "second"]))
        #expect(ConfigurationAnswer(error: error, layer: .fleet, digest: "0123456789abcdef") == nil)
        #expect(ConfigurationAnswer(error: error, layer: .gateway, digest: Self.digest) == nil)
    }
}

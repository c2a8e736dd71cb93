// libFuzzer target `mqtt`: every parser of a message the agent or the locator receives.
//
// The input's first byte picks the topic (low 3 bits); the rest is the payload, or for kind 7 a
// `topic\0payload` pair, so arbitrary topics reach the topic tree too:
//   0 proximity (the locator's LocatorReading)   1 event (the locator's exit handling)
//   2 retained location (the locator's restore)  3 gateway status
//   4 this gateway's retained attributes (restore at start: RetainedAttributes)
//   5 a retained region state topic (restore's subject parsing)  6 a stats payload (JSONObject)
//   7 any topic and payload through TopicTree.parse, the restore parser and the locator
// Afterwards the locator decides a few ticks, so parsed readings reach its rule. Parsers return nil
// or false for what they do not take; a trap or a sanitizer report is a finding.
import BeaconCore
import BeaconWire
import MessageContract
import Vocabulary

let base = "beacons"
let beacon = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2"

@_cdecl("LLVMFuzzerTestOneInput")
public func inboundMQTTFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let kind = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    var topic: String
    var payload = String(decoding: rest, as: UTF8.self)
    switch kind & 7 {
    case 0: topic = "\(beacon)/gwA/proximity"
    case 1: topic = "\(beacon)/gwA/event"
    case 2: topic = "\(beacon)/location"
    case 3: topic = "beacons/gateways/gwA/status"
    case 4: topic = "\(beacon)/gw1/attributes"
    case 5: topic = "beacons/regions/office/gw1/state"
    case 6:
        topic = "beacons/gateways/gwA/stats"
        if let object = try? JSONObject(payload) { _ = object.string("reports_per_s") }
    default:
        let cut = rest.firstIndex(of: 0) ?? rest.count
        topic = String(decoding: rest[..<cut], as: UTF8.self)
        payload = String(decoding: rest[min(cut + 1, rest.count)...], as: UTF8.self)
    }
    _ = TopicTree(base: base).parse(topic)
    _ = RetainedAttributes.subject(of: topic, baseTopic: base, gatewayID: "gw1")
    _ = RetainedAttributes.restoredState(topic: topic, payload: payload, baseTopic: base, gatewayID: "gw1")
    _ = LocatorReading(topic: topic, payload: payload, baseTopic: base)
    _ = LocatorLocation.retained(topic: topic, payload: payload, baseTopic: base)

    var locator = Locator(baseTopic: base)
    locator.handle(topic: topic, payload: payload)
    var out: [OutboundMessage] = []
    let start = locator.timeline.newestReading ?? Timestamp(microseconds: 1_714_564_800_000_000)
    for second in 1...3 { locator.advance(to: start + .seconds(Int64(second)), into: &out) }
    for message in out { precondition(!message.topic.isEmpty) }
    return 0
}

// libFuzzer target `foreign`: the locator's foreign sources (ForeignReport, ForeignSourceReader).
//
// The input's first byte picks the topic (low 2 bits); the rest is the payload, or for kind 3 a
// `topic\0payload` pair, so arbitrary topics reach the sources' matching too:
//   0 an ESPresense device report (espresense/devices/<id>/kitchen)
//   1 an OpenMQTTGateway / Theengs Gateway message (home/OMG/BTtoMQTT/<address>)
//   2 a node's availability (bit 2: ESPresense's, else OpenMQTTGateway's LWT)
//   3 any topic and payload
// Each reading and status goes to a locator, which then decides a few ticks. Bad input is an
// `.ignored` outcome; a trap or a sanitizer report is a finding.
import BeaconCore
import BeaconWire
import MessageContract
import Vocabulary

let start = Timestamp(microseconds: 1_714_564_800_000_000)
let sources = [
    ForeignSource(format: .espresense, nodes: ["kitchen": .init(gateway: "esp-kitchen", floor: "1", room: "kitchen")]),
    ForeignSource(format: .openmqttgateway, nodes: ["OMG": .init(gateway: "omg-hall", floor: "1", room: "hall")]),
]
let devices = [
    DeviceSettings(name: "keys", identification: .address(BluetoothAddress("c1:02:03:04:05:06")!)),
    DeviceSettings(
        name: "alice", identification: .irk(IdentityResolvingKey(text: "c408ac77728161d428a7a226be49b140")!)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func foreignFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let kind = bytes.first else { return 0 }
    var payload = Array(bytes.dropFirst())
    let topic: String
    switch kind & 3 {
    case 0: topic = "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2/kitchen"
    case 1: topic = "home/OMG/BTtoMQTT/C0FFEE000001"
    case 2: topic = kind & 4 != 0 ? "espresense/rooms/kitchen/status" : "home/OMG/LWT"
    default:
        let cut = payload.firstIndex(of: 0) ?? payload.count
        topic = String(decoding: payload[..<cut], as: UTF8.self)
        payload = Array(payload[min(cut + 1, payload.count)...])
    }
    _ = try? ForeignReport.espresense(payload: payload)
    _ = try? ForeignReport.openMQTTGateway(payload: payload)
    var reader = ForeignSourceReader(sources: sources, devices: devices)
    var locator = Locator()
    switch reader.read(topic: topic, payload: payload, at: start) {
    case .reading(let r, let device)?:
        precondition(r.accuracy >= 0 && r.accuracy.isFinite)
        locator.observe(r, device: device)
    case .status(let gateway, let online)?:
        locator.setGateway(gateway, online: online)
    case .ignored?, nil:
        precondition(reader.counters.readings == 0)
    }
    var out: [OutboundMessage] = []
    for second in 1...3 { locator.advance(to: start + .seconds(Int64(second)), into: &out) }
    for message in out { precondition(!message.topic.isEmpty) }
    return 0
}

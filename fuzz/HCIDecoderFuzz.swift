// libFuzzer target `hci`: the HCI decoder. Built by scripts/fuzz.sh against the BeaconWire module.
//
// Every input goes through the HCI decoder (auto, with and without the H4 byte; the convenient and
// the fast path, which must agree; the path of a packet its source framed already), the AD walker,
// the beacon decoder and the JSON writer. A trap, a sanitizer report, or a broken invariant below is
// a finding. The capture readers have their own targets (CaptureFuzz.swift).
import BeaconWire

@_cdecl("LLVMFuzzerTestOneInput")
public func decoderFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let bytes = Array(input)

    for indicator in [H4Indicator.auto, .present, .absent] {
        var reports: [AdvertisingReport] = []
        do throws(DecodeError) {
            try HCIPacketDecoder.decodeReports(bytes, indicator: indicator, into: &reports)
        } catch {
            precondition(error.offset >= 0 && error.offset <= size, "error offset outside the input: \(error)")
            precondition(!error.description.isEmpty)
        }
        var fastCount = 0
        _ = try? HCIPacketDecoder.forEachReport(in: input, indicator: indicator) { _, ad in
            fastCount += 1
            _ = BeaconDecoder.firstIdentifiedBeacon(inAD: ad)
        }
        precondition(fastCount == reports.count, "fast path and convenient path disagree")
        for report in reports {
            let (_, truncatedAt) = ADStructure.parse(report.data)
            precondition(truncatedAt.map { $0 < report.data.count } ?? true)
            precondition(!ReportJSON.line(for: report).isEmpty)
        }
    }

    // The path of a live packet its source framed: the same reports, class and error as full
    // framing for what `controllerEvent` frames as LE Meta, and no trap whatever it is handed.
    var framedCount = 0
    let framed: Result<PacketClass, DecodeError>
    do throws(DecodeError) {
        framed = .success(
            try HCIPacketDecoder.forEachReport(in: input, indicator: .framedLEMetaEvent) { _, _ in
                framedCount += 1
            })
    } catch {
        framed = .failure(error)
    }
    if case .leMeta? = try? HCIPacketDecoder.controllerEvent(in: input) {
        var fullCount = 0
        let full: Result<PacketClass, DecodeError>
        do throws(DecodeError) {
            full = .success(
                try HCIPacketDecoder.forEachReport(in: input, indicator: .present) { _, _ in fullCount += 1 })
        } catch {
            full = .failure(error)
        }
        precondition(framedCount == fullCount && framed == full, "the framed path and full framing disagree")
    }

    // The raw input as AD data.
    _ = BeaconDecoder.beacons(inAD: input)
    _ = BeaconDecoder.firstIdentifiedBeacon(inAD: input)

    return 0
}

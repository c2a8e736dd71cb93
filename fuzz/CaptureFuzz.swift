// libFuzzer targets `btsnoop`, `pcap`, `pcapng`, `hcidump`: the capture readers, one binary per
// container (scripts/fuzz.sh builds this file with -D BTSNOOP, -D PCAP, -D PCAPNG or -D HCIDUMP).
//
// The input is the body of a capture: the target puts the container's header in front unless the
// input already starts with one, so mutations explore records rather than the magic number. Each
// capture is read twice, whole (`readAll`) and streamed in chunks whose sizes come from the input,
// as `run --replay` reads it; both must give the same packets and the same error at the same offset.
// Every packet then goes through the HCI decoder.
import BeaconWire

#if BTSNOOP
    /// "btsnoop\0", version 1, datalink 1001 / 1002 / 2001 (chosen by the input's first byte).
    func header(_ input: [UInt8]) -> [UInt8] {
        let datalink: [UInt32] = [1001, 1002, 2001]
        let link = datalink[Int(input.first ?? 0) % 3]
        return Array("btsnoop\0".utf8) + [0, 0, 0, 1] + bigEndian(link)
    }
    let magic = Array("btsnoop\0".utf8)
#elseif PCAP
    /// Little-endian pcap 2.4, snaplen 65535, link type 201 or 187.
    func header(_ input: [UInt8]) -> [UInt8] {
        let link: UInt8 = (input.first ?? 0) & 1 == 0 ? 201 : 187
        return [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, link, 0, 0, 0]
    }
    let magic: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1]
#elseif PCAPNG
    /// A little-endian section header block and one interface description block (link type 201).
    func header(_ input: [UInt8]) -> [UInt8] {
        let shb: [UInt8] =
            [0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0]
            + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 28, 0, 0, 0]
        let idb: [UInt8] = [1, 0, 0, 0, 20, 0, 0, 0, 201, 0, 0, 0, 0xFF, 0xFF, 0, 0, 20, 0, 0, 0]
        return shb + idb
    }
    let magic: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A]
#elseif HCIDUMP
    /// hcidump text needs a `>` or `<` line to be recognised.
    func header(_ input: [UInt8]) -> [UInt8] { Array("> ".utf8) }
    let magic: [UInt8] = Array(">".utf8)
#else
    #error("build with -D BTSNOOP, -D PCAP, -D PCAPNG or -D HCIDUMP")
#endif

func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func captureFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Array(UnsafeRawBufferPointer(start: data, count: size))
    let bytes = input.starts(with: magic) ? input : header(input) + input

    let whole = CaptureReader.readAll(bytes)
    if let error = whole.error {
        precondition(error.offset >= 0 && error.offset <= bytes.count, "error offset outside the file: \(error)")
        precondition(!error.description.isEmpty)
    }
    for packet in whole.packets {
        var reports: [AdvertisingReport] = []
        _ = try? HCIPacketDecoder.decodeReports(packet.bytes, indicator: .present, into: &reports)
        for report in reports { precondition(!ReportJSON.line(for: report).isEmpty) }
    }

    // Streamed: a prefix the format is known from, then chunks of 1…64 bytes.
    let first = min(bytes.count, header(input).count + Int(input.first ?? 0) % 32)
    let step = 1 + Int(input.last ?? 0) % 64
    guard var reader = try? CaptureReader(streaming: Array(bytes[0..<first]), isWholeFile: first == bytes.count)
    else {
        // Whole, the same bytes were not a capture either (a streamed prefix never sees more).
        if first == bytes.count { precondition(whole.packets.isEmpty && whole.error != nil) }
        return 0
    }
    var at = first
    var packets: [CapturedPacket] = []
    var streamedError: CaptureError?
    var turns = 0
    while true {
        turns += 1
        precondition(turns < 4 * bytes.count + 64, "the streamed reader does not advance")
        do throws(CaptureError) {
            if let packet = try reader.next() {
                packets.append(packet)
                continue
            }
        } catch {
            streamedError = error
            break
        }
        if at < bytes.count {
            let end = min(bytes.count, at + step)
            bytes[at..<end].withUnsafeBytes { reader.feed($0) }
            at = end
            if at == bytes.count { reader.endOfInput() }
        } else if reader.needsInput {
            reader.endOfInput()
        } else {
            break
        }
    }
    precondition(packets == whole.packets, "streamed and whole reads give other packets")
    precondition(
        streamedError == whole.error,
        "streamed \(String(describing: streamedError)), whole \(String(describing: whole.error))")
    return 0
}

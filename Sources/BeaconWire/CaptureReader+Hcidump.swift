/// `hcidump --raw` text: `>`/`<` lines of hex bytes, continued by indented lines.
import Vocabulary

extension CaptureReader {
    /// hcidump text: a packet is whole once the line that ends it (or the end of input) is buffered.
    func hcidumpPacketIsBuffered() -> Bool {
        var at = position
        var started = false
        while true {
            guard let newline = bytes[at...].firstIndex(of: 0x0A) else { return false }
            var first = at
            while first < newline, bytes[first] == 0x20 || bytes[first] == 0x09 || bytes[first] == 0x0D { first += 1 }
            let isStart = first < newline && (bytes[first] == UInt8(ascii: ">") || bytes[first] == UInt8(ascii: "<"))
            if started, isStart || first == at || first == newline { return true }
            if isStart { started = true }
            at = newline + 1
        }
    }

    // MARK: - hcidump --raw text

    static func looksLikeHcidump(_ bytes: [UInt8]) -> Bool {
        var atLineStart = true
        for byte in bytes.prefix(4096) {
            if atLineStart && (byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<")) { return true }
            if byte == 0 { return false }
            atLineStart = byte == 0x0A || (atLineStart && (byte == 0x20 || byte == 0x09 || byte == 0x0D))
        }
        return false
    }

    /// A packet starts on a line whose first non-blank character is `>` (received) or `<` (sent);
    /// indented lines after it continue it. Any other line ends the packet and is ignored.
    mutating func nextHcidump() throws(CaptureError) -> Record? {
        var packet: [UInt8] = []
        var incoming = true
        var started = false
        while position < bytes.count {
            let lineStart = position
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var at = lineStart
            while at < lineEnd, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0D { at += 1 }
            let indented = at > lineStart
            let marker = at < lineEnd ? bytes[at] : 0
            let isStart = marker == UInt8(ascii: ">") || marker == UInt8(ascii: "<")
            if started && (isStart || !indented || at == lineEnd) { break }
            position = min(lineEnd + 1, bytes.count)
            guard started || isStart else { continue }
            if isStart {
                started = true
                incoming = marker == UInt8(ascii: ">")
                at += 1
            }
            try Self.appendHex(bytes, from: at, to: lineEnd, into: &packet)
        }
        guard started else { return nil }
        recordCount += 1
        let stamp = Timestamp(microseconds: 0) + Self.syntheticInterval * Int64(recordCount - 1)
        decoded = packet
        return Record(timestamp: stamp, bytes: .decoded, incoming: incoming)
    }

    static func appendHex(
        _ bytes: [UInt8], from: Int, to end: Int, into out: inout [UInt8]
    )
        throws(CaptureError)
    {
        var at = from
        while at < end {
            let c = bytes[at]
            if c == 0x20 || c == 0x09 || c == 0x0D {
                at += 1
                continue
            }
            guard at + 1 < end, let high = Hex.nibble(c), let low = Hex.nibble(bytes[at + 1]),
                at + 2 == end || [0x20, 0x09, 0x0D].contains(bytes[at + 2])
            else { throw .malformed(what: "hcidump hex byte", offset: at) }
            out.append(high << 4 | low)
            at += 2
        }
    }
}

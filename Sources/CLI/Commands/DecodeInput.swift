import BeaconWire

/// What `decode` was given, cut into packets. Three forms:
/// - hex per argument or per line of standard input, spaces ignored (`043e2a02…`, `04 3E 2A …`);
///   arguments (or lines) of one byte each in a row are one packet, as `decode 04 3E 2A …` unquoted;
/// - `hcidump --raw` text, pasted or piped: a `>`/`<` line of hex continued by indented lines, other
///   lines (its `HCI sniffer …` header) skipped; read by the capture reader's hcidump mode;
/// - btmon's text, which is decoded and holds no packet bytes: one failure saying how to get them.
struct DecodeInput {
    enum Item: Equatable {
        case packet(label: String, bytes: [UInt8])
        case failure(label: String, message: String)
    }

    let items: [Item]

    init(_ texts: [String]) {
        let lines = texts.flatMap { $0.split(whereSeparator: \.isNewline) }
        if lines.contains(where: Self.isDumpLine) {
            items = Self.dump(lines)
        } else {
            items = Self.hex(texts)
        }
    }

    /// A line whose first non-blank character is `>` or `<`: hcidump's or btmon's packet line.
    static func isDumpLine(_ line: Substring) -> Bool {
        guard let first = line.first(where: { $0 != " " && $0 != "\t" }) else { return false }
        return first == ">" || first == "<"
    }

    /// `> HCI Event: …`, `< HCI Command: …`, `> ACL Data …`: a decoded header, not hex.
    static func isDecodedHeader(_ line: Substring) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" }.dropFirst().drop { $0 == " " }
        return rest.hasPrefix("HCI ") || rest.hasPrefix("ACL ") || rest.hasPrefix("SCO ") || rest.hasPrefix("ISO ")
    }

    private static func dump(_ lines: [Substring]) -> [Item] {
        if lines.contains(where: { isDumpLine($0) && isDecodedHeader($0) }) {
            return [
                .failure(
                    label: "input",
                    message: "this is decoded text (btmon, or hcidump without --raw), which holds no packet bytes; "
                        + "record with 'btmon -w FILE' and run 'beacon2mqtt replay FILE', or pipe 'hcidump --raw'")
            ]
        }
        var items: [Item] = []
        do throws(CaptureError) {
            var reader = try CaptureReader(Array(lines.joined(separator: "\n").utf8) + [0x0A])
            while let packet = try reader.next() {
                items.append(.packet(label: "packet \(items.count + 1)", bytes: packet.bytes))
            }
        } catch {
            items.append(.failure(label: "packet \(items.count + 1)", message: "\(error)"))
        }
        return items
    }

    private static func hex(_ texts: [String]) -> [Item] {
        var items: [Item] = []
        var run: (label: String, bytes: [UInt8])?
        func endRun() {
            if let run { items.append(.packet(label: run.label, bytes: run.bytes)) }
            run = nil
        }
        for (index, text) in texts.enumerated() where !text.allSatisfy(\.isWhitespace) {
            let label = "input \(index + 1)"
            guard let bytes = Hex.bytes(text) else {
                endRun()
                items.append(.failure(label: label, message: "not hex: '\(text)'"))
                continue
            }
            if bytes.count == 1 {
                if run == nil { run = (label, []) }
                run?.bytes += bytes
            } else {
                endRun()
                items.append(.packet(label: label, bytes: bytes))
            }
        }
        endRun()
        return items
    }
}

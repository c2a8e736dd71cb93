import BeaconWire
import Platform

/// `beacon2mqtt decode HEX…`: decodes HCI event packets (or bare AD data with `--ad`) and prints
/// one JSON object per advertising report, with its beacons.
struct DecodeCommand: Command {
    static let help = CommandHelp(
        name: "decode",
        abstract: "Decode HCI event packets or advertising data given in hex.",
        usage: "beacon2mqtt decode [--ad] [<hex> ...]",
        discussion: """
            Prints one JSON object per advertising report, with the AD structures and the beacons found.
            Packets may start with the H4 indicator byte (04) or not. With no <hex>, reads one packet per
            line from standard input. Unquoted spaced hex (decode 04 3E 2A …) is one packet, and the output
            of hcidump --raw (> 04 3E … with continuation lines), piped or pasted, is read packet by packet.
            btmon prints decoded text without the bytes: record with btmon -w FILE and replay FILE. Bytes that cannot be decoded (with --ad: an AD structure that runs
            past the end) are reported on stderr with their offset and exit 65, after everything before
            them was printed. An empty <hex> is a usage error (64).
            """,
        arguments: [
            .init(
                "<hex>",
                "One packet in hex, e.g. 043e2a0201…; spaces are ignored, and one-byte arguments in a row are one packet."
            )
        ],
        options: [.init("--ad", "Treat each <hex> as bare advertising data (AD structures), not an HCI packet.")])

    let bareAD: Bool
    let inputs: [String]

    init(_ arguments: inout Arguments) throws(UsageError) {
        bareAD = arguments.flag("--ad")
        inputs = try arguments.positionals()
        if inputs.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw UsageError("<hex> is empty; give the packet's bytes, or no <hex> to read standard input")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let texts = inputs.isEmpty ? StandardInput.lines() : inputs
        var failed = false
        for item in DecodeInput(texts).items {
            guard case .packet(let label, let bytes) = item else {
                if case .failure(let label, let message) = item { context.err("\(label): \(message)\n") }
                failed = true
                continue
            }
            if bareAD {
                var w = JSONWriter()
                w.beginObject()
                ReportJSON.writeADFields(bytes, to: &w)
                w.endObject()
                context.out(w.text + "\n")
                if let offset = ADStructure.parse(bytes).truncatedAt {
                    context.err("\(label): AD structure at offset \(offset) runs past the end of the data\n")
                    failed = true
                }
                continue
            }
            var reports: [AdvertisingReport] = []
            do throws(DecodeError) {
                let packetClass = try HCIPacketDecoder.decodeReports(bytes, indicator: .auto, into: &reports)
                for report in reports { context.out(ReportJSON.line(for: report) + "\n") }
                if !packetClass.isAdvertisingReport {
                    context.err("\(label): \(Self.describe(packetClass)), no advertising reports\n")
                }
            } catch {
                for report in reports { context.out(ReportJSON.line(for: report) + "\n") }
                context.err("\(label): \(error)\n")
                failed = true
            }
        }
        return failed ? .dataError : .success
    }

    static func describe(_ c: PacketClass) -> String {
        guard let code = c.eventCode else { return "\(c.packetType) packet" }
        let hex = { (v: UInt8) in "0x" + Hex.string([v]) }
        if let sub = c.leSubevent { return "LE Meta event subevent \(hex(sub))" }
        return "HCI event \(hex(code))"
    }
}

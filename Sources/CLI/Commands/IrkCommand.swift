import BeaconCore
import BeaconWire
import IdentityCrypto
import Platform

/// `beacon2mqtt irk resolve|generate`: check an address against an identity resolving key, or make
/// a key and addresses from it (for tests and for the advertising side).
struct IrkCommand: Command {
    static let help = CommandHelp(
        name: "irk",
        abstract: "Resolve an address against an identity resolving key (IRK), or generate a key and addresses.",
        usage: "beacon2mqtt irk resolve|generate [--irk <key> | --irk-file <path>] [--address <address>] [--count <n>]",
        discussion: """
            'resolve' prints yes and exits 0 when the address is a resolvable private address made from the key (Core Spec Vol 3, Part H, 2.2.2), and prints no and exits 1 when it is not.
            'generate' prints a new random key (hex, then the base64 form Home Assistant shows) and one matching address; with --irk it makes addresses for that key instead.
            A key is 32 hex digits, most significant first, or Home Assistant's base64 form ending in '='.
            Anyone with the key can follow the device, and a command line is visible to other users of the machine, so prefer --irk-file for a real device's key.
            """,
        arguments: [
            .init("resolve", "Does the address resolve to the key?"),
            .init("generate", "Make a key (or use --irk) and print matching addresses."),
        ],
        options: [
            .init("--irk <key>", "The identity resolving key."),
            .init("--irk-file <path>", "Read the key from the first line of a file."),
            .init("--address <address>", "resolve: the advertiser's address, aa:bb:cc:dd:ee:ff."),
            .init("--count <n>", "generate: how many addresses to print (default 1, at most 1000)."),
        ])

    enum Action {
        case resolve(BluetoothAddress)
        case generate(count: Int)
    }

    let action: Action
    let keyText: String?
    let keyFile: String?

    init(_ arguments: inout Arguments) throws(UsageError) {
        keyText = try arguments.option("--irk")
        keyFile = try arguments.option("--irk-file")
        let addressText = try arguments.option("--address")
        let count = try arguments.intOption("--count", in: 1...1000)
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw UsageError("expected 'resolve' or 'generate'") }
        if keyText != nil && keyFile != nil { throw UsageError("give --irk or --irk-file, not both") }
        switch positionals[0] {
        case "resolve":
            guard keyText != nil || keyFile != nil else { throw UsageError("resolve needs --irk or --irk-file") }
            guard let addressText else { throw UsageError("resolve needs --address") }
            guard let address = BluetoothAddress(addressText) else {
                throw UsageError("'--address' needs aa:bb:cc:dd:ee:ff, not '\(addressText)'")
            }
            if count != nil { throw UsageError("--count applies to generate only") }
            action = .resolve(address)
        case "generate":
            if addressText != nil { throw UsageError("--address applies to resolve only") }
            action = .generate(count: count ?? 1)
        default:
            throw UsageError("unknown irk action '\(positionals[0])'; expected 'resolve' or 'generate'")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let given: IdentityResolvingKey?
        do {
            given = try key()
        } catch {
            context.err("Error: \(error.message)\n")
            return error.code
        }
        switch action {
        case .resolve(let address):
            let key = given!
            guard address.hasResolvablePrivateForm else {
                context.out("no: \(address) is not a resolvable private address (its top two bits are not 01)\n")
                return .failure
            }
            if AESIdentityResolver(keys: [key]).resolve(prand: address.prand, hash: address.addressHash) != nil {
                context.out("yes: \(address) resolves to the key\n")
                return .success
            }
            context.out("no: \(address) does not resolve to the key\n")
            return .failure
        case .generate(let count):
            let key = given ?? ResolvablePrivateAddress.randomKey()
            if given == nil {
                context.out("irk      \(key.hex)\n")
                context.out("base64   \(key.base64)\n")
            }
            for _ in 0..<count { context.out("address  \(ResolvablePrivateAddress.random(for: key))\n") }
            return .success
        }
    }

    struct KeyProblem: Error {
        var message: String
        var code: ExitCode
    }

    /// The key from --irk or --irk-file; nil when neither was given.
    private func key() throws(KeyProblem) -> IdentityResolvingKey? {
        if let keyText {
            guard let key = IdentityResolvingKey(text: keyText) else {
                throw KeyProblem(
                    message: "'--irk' needs 32 hex digits or Home Assistant's base64 form", code: .usage)
            }
            return key
        }
        guard let keyFile else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(keyFile)
        } catch {
            throw KeyProblem(message: "cannot read '\(keyFile)': \(error)", code: .noInput)
        }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        guard let key = IdentityResolvingKey(text: line.trimmingCharacters()) else {
            throw KeyProblem(
                message: "'\(keyFile)' does not hold 32 hex digits or Home Assistant's base64 form on its first line",
                code: .dataError)
        }
        return key
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

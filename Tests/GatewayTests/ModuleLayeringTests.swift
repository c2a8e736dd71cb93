import Foundation
import Testing

/// The compiler keeps modules apart as Package.swift says; this checks what Package.swift says: the
/// layering rules of docs/internals.md, so a dependency added for convenience fails here.
@Suite struct ModuleLayeringTests {
    static let pure: Set = [
        "Vocabulary", "BeaconWire", "BeaconCore", "MessageContract", "AgentCore", "MetricsContract", "RoomScoring",
    ]
    static let transports: Set = [
        "HCITransport", "MQTTTransport", "SystemdTransport", "CaptureTransport", "Simulation", "MetricsTransport",
    ]
    static let cModules: Set = ["CYAML", "CMosquitto", "CBlueZ", "CSystemd", "CCrypto", "CMicroHTTPD", "CMalloc"]

    /// Each `.target`'s name and dependencies, read from Package.swift.
    static func targets() throws -> [String: Set<String>] {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.target\(\s*name: "(\w+)",\s*dependencies: \[([^\]]*)\]"#)
        var found: [String: Set<String>] = [:]
        for match in target.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 1), in: text)!])
            let list = text[Range(match.range(at: 2), in: text)!]
            let quoted = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            found[name] = Set(quoted.filter { !$0.isEmpty }.map { String($0.dropFirst().dropLast()) })
        }
        return found
    }

    @Test func pureModulesDependOnPureModulesOnly() throws {
        let targets = try Self.targets()
        for name in Self.pure where targets[name] != nil {
            #expect(targets[name]!.subtracting(Self.pure) == [], "\(name)")
        }
    }

    /// The IRK resolver is computation over libcrypto: it sees the pure modules and CCrypto, nothing
    /// with I/O, and no pure module sees it (the command line hands it in as an `IdentityResolver`).
    @Test func identityCryptoSeesThePureModulesAndLibcryptoOnly() throws {
        let targets = try Self.targets()
        #expect(try #require(targets["IdentityCrypto"]).subtracting(Self.pure) == ["CCrypto"])
        for name in Self.pure { #expect(targets[name]?.contains("IdentityCrypto") != true, "\(name)") }
    }

    /// The POSIX base sees no app module, so nothing below the runtime sits above the agent's core.
    @Test func platformSeesOnlyTheVocabulary() throws {
        #expect(try Self.targets()["Platform"] == ["Vocabulary"])
    }

    @Test func transportsSeePlatformThePureModulesAndTheirCLibrary() throws {
        let targets = try Self.targets()
        for name in Self.transports {
            let dependencies = try #require(targets[name], "\(name)")
            let others = dependencies.subtracting(Self.pure).subtracting(Self.cModules).subtracting(["Platform"])
            #expect(others == [], "\(name)")
            #expect(dependencies.intersection(Self.cModules).count <= 1, "\(name)")
        }
    }

    @Test func runtimeTakesSourcesAsPacketSources() throws {
        let runtime = try #require(try Self.targets()["Runtime"])
        #expect(runtime.intersection(["HCITransport", "CaptureTransport", "Simulation", "CLI"]) == [])
        #expect(runtime.intersection(Self.cModules) == [])
    }
}

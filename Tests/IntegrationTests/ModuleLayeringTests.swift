import Foundation
import Testing

@testable import IntegrationSupport

/// The layering of docs/internals.md, checked against the `import` lines each module's sources
/// actually have (not what Package.swift lists, which may grant more): an import added for
/// convenience fails here.
@Suite struct ModuleLayeringTests {
    static let pure: Set = [
        "Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract", "GatewayPipeline", "MetricsContract",
        "AgentCore", "RoomScoring",
    ]
    static let transports: Set = [
        "HCITransport", "MQTTTransport", "SystemdTransport", "CaptureTransport", "Simulation", "MetricsTransport",
    ]
    static let cModules: Set = ["CYAML", "CMosquitto", "CBlueZ", "CCrypto", "CMicroHTTPD", "CMalloc"]
    /// The toolchain's modules: only the I/O modules may import the first three, and only the
    /// benchmark Foundation (the daemon does not link it).
    static let system: Set = ["Glibc", "Dispatch", "Foundation", "Synchronization"]

    /// What each module may import of the package's modules and C libraries: the graph points one
    /// way, the vocabulary at the bottom, Runtime and CLI at the top.
    static let allowed: [String: Set<String>] = {
        let belowAgent: Set = [
            "Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract", "GatewayPipeline",
            "MetricsContract",
        ]
        let allPure = pure
        var graph: [String: Set<String>] = [
            "Vocabulary": [],
            "MetricsContract": [],
            "BeaconWire": ["Vocabulary"],
            "BeaconCore": ["Vocabulary", "BeaconWire"],
            // The application's configuration sits on the domain's settings, not the other way round.
            "Settings": ["Vocabulary", "BeaconWire", "BeaconCore"],
            "MessageContract": ["Vocabulary", "BeaconWire", "BeaconCore", "Settings"],
            // The pipeline drives the contract; the contract never sees the pipeline.
            "GatewayPipeline": ["Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract"],
            "RoomScoring": ["Vocabulary", "BeaconWire", "BeaconCore"],
            "AgentCore": belowAgent,
            "IdentityCrypto": ["Vocabulary", "BeaconWire", "BeaconCore", "CCrypto"],
            "BeaconConfig": ["Vocabulary", "BeaconWire", "BeaconCore", "Settings", "CYAML"],
            "Platform": ["Vocabulary"],
            "Runtime": allPure.union(["Platform", "MQTTTransport", "SystemdTransport", "MetricsTransport"]),
            "beacon2mqtt": ["CLI", "Platform", "CMalloc"],
        ]
        let library = [
            "HCITransport": "CBlueZ", "MQTTTransport": "CMosquitto",
            "MetricsTransport": "CMicroHTTPD",
        ]
        // Transports know no message contract or pipeline: sources hand packets to the agent's core as
        // `SourceEvent`s, and what becomes a message is decided above them.
        for transport in transports {
            graph[transport] = allPure.subtracting(["MessageContract", "GatewayPipeline"]).union(["Platform"])
                .union(library[transport].map { [$0] } ?? [])
        }
        // The broker's transport speaks topic strings and bytes: it knows no message contract, no
        // configuration and no agent (Runtime adapts it as the agent's `BrokerPort`).
        graph["MQTTTransport"] = ["Vocabulary", "Platform", "CMosquitto"]
        graph["CLI"] = allPure.union(transports).union(["Platform", "Runtime", "BeaconConfig", "IdentityCrypto"])
            .subtracting(["SystemdTransport"])
        return graph
    }()

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each Swift module under Sources (not the C shims) and the modules its files import.
    static func imports() throws -> [String: Set<String>] {
        let files = FileManager.default
        var found: [String: Set<String>] = [:]
        for module in try files.contentsOfDirectory(atPath: sources.path) {
            let directory = sources.appendingPathComponent(module)
            guard !files.fileExists(atPath: directory.appendingPathComponent("module.modulemap").path),
                let walk = files.enumerator(atPath: directory.path)
            else { continue }
            var modules: Set<String> = []
            for case let path as String in walk where path.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                    let words = line.split(separator: " ")
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                        words[..<at].allSatisfy({ $0.hasPrefix("@") || ["package", "public", "internal"].contains($0) })
                    else { continue }
                    modules.insert(String(words[at + 1]))
                }
            }
            found[module] = modules
        }
        return found
    }

    @Test func theImportsFindEveryModule() throws {
        let imports = try Self.imports()
        #expect(imports["Platform"]?.contains("Vocabulary") == true)
        #expect(imports["CLI"]?.contains("Runtime") == true)
        #expect(imports["CYAML"] == nil)
    }

    /// A module new to Sources must be given its place in the graph here (and in docs/internals.md).
    @Test func everyModuleHasAPlaceInTheGraph() throws {
        let unplaced = try Self.imports().keys.filter { Self.allowed[$0] == nil && $0 != "beacon2mqtt-bench" }
        #expect(unplaced == [])
    }

    @Test func eachModuleImportsOnlyWhatTheGraphAllows() throws {
        for (module, imported) in try Self.imports() {
            guard let allowed = Self.allowed[module] else { continue }
            #expect(imported.subtracting(Self.system).subtracting(allowed) == [], "\(module)")
        }
    }

    /// The pure modules never touch a socket, file or clock: no Glibc, Dispatch or Foundation.
    @Test func pureModulesImportNoSystemLibrary() throws {
        let imports = try Self.imports()
        for module in Self.pure.union(["IdentityCrypto"]) {
            #expect(imports[module, default: []].intersection(["Glibc", "Dispatch", "Foundation"]) == [], "\(module)")
        }
    }

    /// The daemon does not link Foundation (docs/internals.md, "Architecture"); the benchmark may.
    @Test func noDaemonModuleImportsFoundation() throws {
        for (module, imported) in try Self.imports() where module != "beacon2mqtt-bench" {
            #expect(!imported.contains("Foundation"), "\(module)")
        }
    }

    /// Transports see neither each other, the runtime nor the command line, and at most one C library.
    @Test func transportsKnowNoOtherTransport() throws {
        let imports = try Self.imports()
        for transport in Self.transports {
            let imported = try #require(imports[transport], "\(transport)")
            #expect(imported.intersection(Self.transports.subtracting([transport])) == [], "\(transport)")
            #expect(imported.intersection(["Runtime", "CLI"]) == [], "\(transport)")
            #expect(imported.intersection(Self.cModules).count <= 1, "\(transport)")
        }
    }

    /// Sources come into the runtime as `any PacketSource`: it names no HCI, capture or simulator.
    @Test func runtimeTakesSourcesAsPacketSources() throws {
        let runtime = try #require(try Self.imports()["Runtime"])
        #expect(runtime.intersection(["HCITransport", "CaptureTransport", "Simulation", "CLI"]) == [])
        #expect(runtime.intersection(Self.cModules) == [])
    }

    /// No pure module sees the cipher: the command line hands it in as an `IdentityResolver`.
    @Test func noPureModuleSeesIdentityCrypto() throws {
        let imports = try Self.imports()
        for module in Self.pure { #expect(imports[module]?.contains("IdentityCrypto") != true, "\(module)") }
    }
}

// swift-tools-version:6.2
// beacon2mqtt — BLE beacons to MQTT, for Linux gateways.
// Pure modules (Vocabulary, BeaconWire, BeaconCore, Settings, MessageContract, GatewayPipeline, MetricsContract,
// AgentCore) never touch a socket, file, clock or logger; I/O lives in Platform, the transports, Runtime and CLI. C libraries come from
// Debian through systemLibrary targets.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("MemberImportVisibility"),
    // One section per function, so the release link can order them (the beacon2mqtt target, below).
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

/// What the tests of the I/O modules see: every module they drive, and the agent's scripted pipelines.
let integrationTestDependencies: [Target.Dependency] = [
    "Vocabulary", "CLI", "Runtime", "AgentCore", "AgentTestFixtures", "BeaconCore", "Settings", "MessageContract",
    "GatewayPipeline", "BeaconWire", "BeaconConfig", "Platform", "HCITransport", "MQTTTransport", "SystemdTransport",
    "CaptureTransport",
    "Simulation", "IdentityCrypto", "MetricsContract", "MetricsTransport",
]

let package = Package(
    name: "beacon2mqtt",
    products: [
        .executable(name: "beacon2mqtt", targets: ["beacon2mqtt"]),
        .executable(name: "beacon2mqtt-bench", targets: ["beacon2mqtt-bench"]),
    ],
    targets: [
        // C libraries from Debian (see scripts/install-deps.sh).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CBlueZ", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Headers only: MetricsTransport loads libmicrohttpd with dlopen (see Sources/CMicroHTTPD/shim.h).
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // glibc's <malloc.h>: the executable sets M_ARENA_MAX (Sources/beacon2mqtt/main.swift).
        .systemLibrary(name: "CMalloc"),

        // PURE, at the bottom: the vocabulary every module shares — the wall instant (`Timestamp`), the
        // monotonic one (`MonotonicInstant`), the duration (`TimeSpan`), log records and levels, the
        // ASCII building blocks of payloads, and what a broker session reports (`BrokerEvent`), which
        // the MQTT transport raises and the agent's core reads. It sees nothing else.
        // Its time types stay `public` and `@inlinable` (as BeaconWire's API, below): they are on the
        // per-report path.
        .target(name: "Vocabulary", swiftSettings: strict),
        // PURE: HCI bytes → advertising reports → beacon frames; capture containers.
        // Its API stays `public` while everything else shared across modules is `package`: Swift 6.3
        // serialises no member of a `package` type (not even `@inlinable` ones), so BeaconCore could
        // not inline the per-report Timestamp, BeaconIdentity and frame accessors (bench pipeline
        // "events only" 15–25 % slower). There is no library product: nothing outside uses it.
        .target(
            name: "BeaconWire", dependencies: ["Vocabulary"], swiftSettings: strict,
            linkerSettings: [.linkedLibrary("m")]),
        // PURE: the domain's settings (regions, beacons, devices, monitoring, ranging), filters,
        // distance, monitoring and ranging (domain events), the locator's rule.
        .target(
            name: "BeaconCore", dependencies: ["Vocabulary", "BeaconWire"], swiftSettings: strict,
            linkerSettings: [.linkedLibrary("m")]
        ),
        // PURE: the application's configuration (`Configuration`): the gateway, its Bluetooth adapter,
        // the broker (MQTT, TLS), Home Assistant, metrics, remote configuration, over BeaconCore's
        // domain settings. BeaconConfig fills it from YAML.
        .target(name: "Settings", dependencies: ["Vocabulary", "BeaconWire", "BeaconCore"], swiftSettings: strict),
        // PURE: the message contract: the topic tree, events → MQTT messages, restore parsing, Home
        // Assistant, the locator's messages.
        .target(
            name: "MessageContract", dependencies: ["Vocabulary", "BeaconWire", "BeaconCore", "Settings"],
            swiftSettings: strict),
        // PURE: the gateway's pipeline (`Pipeline`: decode → monitor → contract), what the agent's
        // core drives for every packet, and its counters.
        .target(
            name: "GatewayPipeline",
            dependencies: ["Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract"],
            swiftSettings: strict),
        // PURE: the agent's core — delivery policy (outbox lanes, held queue, windows), restore,
        // back-pressure, phases and timers on injected monotonic instants. Tested without a broker.
        .target(
            name: "AgentCore",
            dependencies: [
                "Vocabulary", "BeaconCore", "BeaconWire", "Settings", "MessageContract", "GatewayPipeline",
                "MetricsContract",
            ],
            swiftSettings: strict),
        // The IRK resolver (`ah`, Core Spec Vol 3, Part H, §2.2.2) over libcrypto's AES: computation
        // only, handed to the pure pipeline as an `IdentityResolver` so the pure modules carry no cipher.
        .target(
            name: "IdentityCrypto", dependencies: ["Vocabulary", "BeaconCore", "BeaconWire", "CCrypto"],
            swiftSettings: strict),
        // PURE: the Prometheus exposition of the gateway's figures (`/metrics`, `/healthz`'s verdict):
        // plain values in, text out. Sees nothing else, so the HTTP transport needs no pipeline module.
        .target(name: "MetricsContract", swiftSettings: strict),
        .target(name: "RoomScoring", swiftSettings: strict),
        // YAML (libyaml) → Configuration, with file:line:column errors.
        .target(
            name: "BeaconConfig", dependencies: ["Vocabulary", "BeaconCore", "Settings", "CYAML"], swiftSettings: strict
        ),
        // POSIX glue: threads, locks, clocks, the one syscall helper and sleep, files, environment,
        // logging, exit codes. Sees Glibc and the vocabulary only: no app module, so the transports
        // above it need not sit above the agent's core.
        .target(name: "Platform", dependencies: ["Vocabulary"], swiftSettings: strict),
        // Transports: thin adapters over one C library each (or none). They see Platform and the pure
        // modules, never each other, the runtime or the command line.
        .target(
            name: "HCITransport",
            dependencies: ["Vocabulary", "Platform", "AgentCore", "BeaconCore", "BeaconWire", "Settings", "CBlueZ"],
            swiftSettings: strict
        ),
        // libmosquitto's session: topic strings and payload bytes, no message contract or configuration
        // (Runtime resolves the options and adapts the client as the agent's `BrokerPort`).
        .target(name: "MQTTTransport", dependencies: ["Vocabulary", "Platform", "CMosquitto"], swiftSettings: strict),
        .target(name: "SystemdTransport", swiftSettings: strict),
        // `/metrics` and `/healthz` over libmicrohttpd, on the library's own thread.
        .target(
            name: "MetricsTransport", dependencies: ["Platform", "MetricsContract", "CMicroHTTPD"],
            swiftSettings: strict
        ),
        .target(
            name: "CaptureTransport", dependencies: ["Vocabulary", "Platform", "AgentCore", "BeaconWire"],
            swiftSettings: strict),
        // The simulator and floor plans, as a packet source (the file format lives with the commands).
        .target(
            name: "Simulation", dependencies: ["Vocabulary", "Platform", "AgentCore", "BeaconCore", "BeaconWire"],
            swiftSettings: strict
        ),
        // The thread shell that runs the agent core (run and locate): event queue, signals, the
        // source thread. Sources come in as `any PacketSource` and the broker as `any BrokerPort`, so
        // it names no HCI, capture or simulator, and runs in tests without a broker.
        .target(
            name: "Runtime",
            dependencies: [
                "Vocabulary", "AgentCore", "BeaconCore", "BeaconWire", "Settings", "MessageContract", "GatewayPipeline",
                "MetricsContract", "Platform", "MQTTTransport", "SystemdTransport", "MetricsTransport",
            ],
            swiftSettings: strict
        ),
        // The command line: argument parsing, the commands (which wire sources to the runtime), the man page.
        .target(
            name: "CLI",
            dependencies: [
                "Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract", "GatewayPipeline", "AgentCore",
                "BeaconConfig", "Platform", "Runtime",
                "HCITransport", "MQTTTransport", "CaptureTransport", "Simulation", "IdentityCrypto", "MetricsTransport",
            ],
            swiftSettings: strict
        ),
        // Release builds link the Swift runtime statically: the daemon then maps only the runtime
        // code it uses (docs/performance.md: RSS), and the binary runs without a toolchain. lld packs
        // the 30,000 relative relocations of a PIE into a 6 KiB DT_RELR table (glibc ≥ 2.36), and the
        // executable exports no symbols (no library looks any up): 1.6 MiB less RSS, ASLR kept. The
        // functions a gateway runs are laid out together (packaging/beacon2mqtt.order, written by
        // scripts/order-functions.sh; one section per function, above): 2 MiB less resident code.
        // libstdc++ and libgcc come from their static archives (packaging/link/libstdc++.so is a
        // linker script that says so): the runtime uses little of them, and the shared libstdc++
        // cost 1 MiB resident in relocations and start-up alone.
        .executableTarget(
            name: "beacon2mqtt", dependencies: ["CLI", "Platform", "CMalloc"], swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xclang-linker", "-static-libgcc",
                        "-L\(Context.packageDirectory)/packaging/link",
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/beacon2mqtt.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(configuration: .release))
            ]
        ),
        .executableTarget(
            name: "beacon2mqtt-bench",
            // The campus section hosts real gateways (Runtime's Agent) and reads floor plans as `run` does (CLI).
            dependencies: [
                "Vocabulary", "BeaconWire", "BeaconCore", "Settings", "MessageContract", "GatewayPipeline",
                "Simulation",
                "CMosquitto", "IdentityCrypto",
                "AgentCore", "Platform", "MQTTTransport", "Runtime", "CLI", "RoomScoring", "BeaconConfig",
            ],
            swiftSettings: strict
        ),

        // The test vocabulary (manual clock, beacons, sightings) and the harness that BeaconCoreTests,
        // MessageContractTests and GatewayPipelineTests share; not a test target, so each can depend on it.
        .target(
            name: "TestFixtures", dependencies: ["Vocabulary", "BeaconCore", "BeaconWire", "Settings"],
            path: "Tests/TestFixtures", swiftSettings: strict),
        // The agent's scripted test pipelines (`WholePacketPipeline`), shared by AgentCoreTests and the I/O modules' tests.
        .target(
            name: "AgentTestFixtures",
            dependencies: [
                "Vocabulary", "AgentCore", "BeaconCore", "BeaconWire", "MessageContract", "GatewayPipeline",
            ],
            path: "Tests/AgentTestFixtures", swiftSettings: strict),
        .testTarget(name: "BeaconWireTests", dependencies: ["Vocabulary", "BeaconWire"], swiftSettings: strict),
        .testTarget(
            name: "BeaconCoreTests",
            dependencies: ["Vocabulary", "BeaconCore", "BeaconWire", "Settings", "TestFixtures", "IdentityCrypto"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MessageContractTests",
            dependencies: [
                "Vocabulary", "MessageContract", "BeaconCore", "BeaconWire", "Settings", "TestFixtures",
                "IdentityCrypto",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GatewayPipelineTests",
            dependencies: [
                "Vocabulary", "GatewayPipeline", "MessageContract", "BeaconCore", "BeaconWire", "Settings",
                "TestFixtures", "IdentityCrypto",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AgentCoreTests",
            dependencies: [
                "Vocabulary", "AgentCore", "AgentTestFixtures", "BeaconCore", "Settings", "MessageContract",
                "GatewayPipeline", "BeaconWire",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IdentityCryptoTests", dependencies: ["Vocabulary", "IdentityCrypto", "BeaconCore", "BeaconWire"],
            swiftSettings: strict),
        .testTarget(name: "MetricsContractTests", dependencies: ["MetricsContract"], swiftSettings: strict),
        .testTarget(name: "RoomScoringTests", dependencies: ["RoomScoring"], swiftSettings: strict),
        .testTarget(
            name: "BeaconConfigTests", dependencies: ["Vocabulary", "BeaconConfig", "BeaconCore", "Settings"],
            swiftSettings: strict),
        // What the tests of the I/O modules share: real brokers (mosquitto, amqtt, RabbitMQ), child
        // processes, subscribers, the agent harness and the in-memory broker port. Not a test target,
        // so every test target below can use it (`@testable import`, in the debug builds tests run in).
        .target(
            name: "IntegrationSupport", dependencies: integrationTestDependencies, path: "Tests/IntegrationSupport",
            swiftSettings: strict),
    ]
        // One test target per I/O module, then the tests across processes (IntegrationTests) and the
        // package's (PackagingTests).
        + [
            "PlatformTests", "MQTTTransportTests", "HCITransportTests", "CaptureTransportTests", "SimulationTests",
            "SystemdTransportTests", "RuntimeTests", "CLITests", "IntegrationTests", "PackagingTests",
        ].map {
            .testTarget(
                name: $0, dependencies: integrationTestDependencies + ["IntegrationSupport"], swiftSettings: strict)
        }
)

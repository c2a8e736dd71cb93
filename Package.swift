// swift-tools-version:6.2
// beacon2mqtt — BLE beacons to MQTT, for Linux gateways.
// Pure modules (BeaconWire, BeaconCore) never touch a socket, file, clock or logger;
// I/O lives in Gateway. C libraries come from Debian through systemLibrary targets.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("MemberImportVisibility"),
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
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // PURE: HCI bytes → advertising reports → beacon frames; capture containers.
        .target(name: "BeaconWire", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // PURE: configuration model, regions, filters, distance, monitoring, ranging, messages.
        .target(
            name: "BeaconCore", dependencies: ["BeaconWire"], swiftSettings: strict,
            linkerSettings: [.linkedLibrary("m")]
        ),
        // PURE: the agent's core — delivery policy (outbox lanes, held queue, windows), restore,
        // back-pressure, phases and timers on injected monotonic instants. Tested without a broker.
        .target(name: "AgentCore", dependencies: ["BeaconCore", "BeaconWire"], swiftSettings: strict),
        // YAML (libyaml) → Configuration, with file:line:column errors.
        .target(name: "BeaconConfig", dependencies: ["BeaconCore", "CYAML"], swiftSettings: strict),
        // I/O edges and the command line: files, sockets, MQTT, HCI, signals, logging.
        .target(
            name: "Gateway",
            dependencies: ["BeaconWire", "BeaconCore", "AgentCore", "BeaconConfig", "CMosquitto", "CBlueZ", "CSystemd"],
            swiftSettings: strict
        ),
        // Release builds link the Swift runtime statically: the daemon then maps only the runtime
        // code it uses (docs/performance.md: RSS), and the binary runs without a toolchain.
        .executableTarget(
            name: "beacon2mqtt", dependencies: ["Gateway"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "beacon2mqtt-bench",
            dependencies: ["BeaconWire", "BeaconCore", "Gateway"],
            swiftSettings: strict
        ),

        .testTarget(name: "BeaconWireTests", dependencies: ["BeaconWire"], swiftSettings: strict),
        .testTarget(name: "BeaconCoreTests", dependencies: ["BeaconCore", "BeaconWire"], swiftSettings: strict),
        .testTarget(
            name: "AgentCoreTests", dependencies: ["AgentCore", "BeaconCore", "BeaconWire"], swiftSettings: strict),
        .testTarget(name: "BeaconConfigTests", dependencies: ["BeaconConfig", "BeaconCore"], swiftSettings: strict),
        .testTarget(
            name: "GatewayTests",
            dependencies: ["Gateway", "AgentCore", "BeaconCore", "BeaconWire", "BeaconConfig"],
            swiftSettings: strict
        ),
    ]
)

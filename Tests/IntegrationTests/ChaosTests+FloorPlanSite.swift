import Foundation

@testable import IntegrationSupport

extension ChaosTests {
    /// One site of the shipped floor plan under its own base topic: `locate` and gateways A, B and C
    /// as `run --floor-plan --as-gateway` processes, the walk starting at `start` (Unix seconds).
    /// Each gateway reaches the broker on `gatewayPort(id)`, with `gatewaySettings` appended under
    /// its `mqtt` section and `environment(id)` (nil: this process's); `mqttSettings` go under every
    /// process's `mqtt` section, the locator's too.
    static func floorPlanSite(
        _ base: String, in directory: URL, port: Int, start: Double, gatewayPort: (String) -> Int? = { _ in nil },
        mqttSettings: String = "", gatewaySettings: String = "",
        environment: (String) -> [String: String]? = { _ in nil }
    ) throws -> [ChildProcess] {
        let plan = PackagePaths.root.appendingPathComponent("etc/floor-plan.yaml").path
        let config = directory.appendingPathComponent("\(base).yaml").path
        try
            "gateway:\n  id: loc-\(base)\nmqtt:\n  host: 127.0.0.1\n  port: \(port)\n  base_topic: \(base)\n  client_id: \(base)\n\(mqttSettings)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        var processes = [
            try ChildProcess(
                PackagePaths.binary, ["locate", "--config", config],
                output: directory.appendingPathComponent("\(base)-locate.log").path)
        ]
        for gateway in ["A", "B", "C"] {
            let gatewayConfig = directory.appendingPathComponent("\(base)-\(gateway).yaml").path
            try
                ("mqtt:\n  host: 127.0.0.1\n  port: \(gatewayPort(gateway) ?? port)\n  base_topic: \(base)\n"
                + "  client_id: \(base)-\(gateway)\n" + mqttSettings + gatewaySettings)
                .write(toFile: gatewayConfig, atomically: true, encoding: .utf8)
            processes.append(
                try ChildProcess(
                    PackagePaths.binary,
                    [
                        "run", "--config", gatewayConfig, "--simulate", "--floor-plan", plan, "--as-gateway", gateway,
                        "--start-at", String(Int(start)),
                    ],
                    output: directory.appendingPathComponent("\(base)-\(gateway).log").path,
                    environment: environment(gateway)))
        }
        return processes
    }
}

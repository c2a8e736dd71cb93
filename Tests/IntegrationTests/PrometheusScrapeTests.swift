import Foundation
import Testing

@testable import IntegrationSupport

/// A real Prometheus server (Debian's `prometheus` package) scrapes a running agent that publishes
/// to a real mosquitto; its query API must see the agent's reports and broker connection, and
/// `promtool check metrics` must accept the exposition. `make test-metrics` runs it (it sets
/// BEACON2MQTT_TEST_METRICS=1 after installing the package); plain `swift test` skips it.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["BEACON2MQTT_TEST_METRICS"] == "1",
        "a real Prometheus: make test-metrics"))
struct PrometheusScrapeTests {
    static let prometheus = "/usr/bin/prometheus"
    static let promtool = "/usr/bin/promtool"

    @Test func promtoolAcceptsTheExposition() throws {
        let running = try RunMetricsTests.Running()
        defer { running.subscriber.stop() }
        #expect(waitUntil(timeout: 10) { running.metrics().contains("beacon2mqtt_report_to_publish_seconds_count") })
        let file = running.workspace.directory.appendingPathComponent("metrics.txt")
        try running.metrics().write(to: file, atomically: true, encoding: .utf8)
        // promtool reads the exposition on standard input; lint problems go to its output with exit 1.
        let output = try MosquittoBroker.run("/bin/sh", ["-c", "\(Self.promtool) check metrics < '\(file.path)' 2>&1"])
        #expect(output.isEmpty, "\(output)")
    }

    @Test func aRealPrometheusScrapesTheAgent() throws {
        let running = try RunMetricsTests.Running()
        defer { running.subscriber.stop() }
        let directory = running.workspace.directory
        let webPort = try MosquittoBroker.freePort()
        let config = directory.appendingPathComponent("prometheus.yml")
        try """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: beacon2mqtt
            static_configs:
              - targets: ["127.0.0.1:\(running.port)"]
        """.write(to: config, atomically: true, encoding: .utf8)
        let server = try ChildProcess(
            Self.prometheus,
            [
                "--config.file=\(config.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("tsdb").path)",
                "--web.listen-address=127.0.0.1:\(webPort)",
            ], output: directory.appendingPathComponent("prometheus.log").path)
        defer {
            server.signal(SIGTERM)
            server.wait(timeout: 10)
        }
        func value(_ query: String) -> Double? {
            let answer = HTTPProbe.get(port: webPort, "/api/v1/query?query=\(query)")
            guard answer.status == 200,
                let json = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
                let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
                let sample = result.first?["value"] as? [Any], let text = sample.last as? String
            else { return nil }
            return Double(text)
        }
        let log = {
            (try? String(contentsOf: directory.appendingPathComponent("prometheus.log"), encoding: .utf8)) ?? ""
        }
        #expect(waitUntil(timeout: 60) { (value("beacon2mqtt_reports_total") ?? 0) > 0 }, "\(log())")
        #expect(value("beacon2mqtt_mqtt_connected") == 1)
        #expect(value(#"up%7Bjob%3D%22beacon2mqtt%22%7D"#) == 1)
        #expect((value("beacon2mqtt_report_to_publish_seconds_count") ?? 0) > 0)
        // The broker goes away: Prometheus sees it too.
        running.broker.stop()
        #expect(waitUntil(timeout: 30) { value("beacon2mqtt_mqtt_connected") == 0 })
    }
}

import Testing

@testable import BeaconConfig

@Suite struct ConfigWarningTests {
    @Test func insecureTLSIsWarned() {
        #expect(
            warnings("mqtt:\n  tls:\n    enabled: true\n    insecure: true\n") == [
                "test.yaml:4:15: mqtt.tls.insecure: the broker's certificate host name is not checked; anyone on the "
                    + "path can impersonate it"
            ])
    }

    @Test func tlsFilesWithoutTLSHaveNoEffect() {
        #expect(
            warnings("mqtt:\n  tls:\n    ca_file: /etc/ssl/ca.pem\n    version: tlsv1.3\n") == [
                "test.yaml:3:14: mqtt.tls.ca_file: has no effect while mqtt.tls.enabled is false",
                "test.yaml:4:14: mqtt.tls.version: has no effect while mqtt.tls.enabled is false",
            ])
    }

    /// An error, not a warning: `run` cannot start with a password and no user name (issue 34).
    @Test func passwordFileWithoutUsernameIsAnError() {
        #expect(
            failure("mqtt:\n  password_file: /etc/pw\n") == "test.yaml:2:18: mqtt.password_file: needs mqtt.username")
        #expect(warnings("mqtt:\n  username: u\n  password_file: /etc/pw\n") == [])
    }

    @Test func changedSettingsOfAnotherFilterOrModel() {
        #expect(
            warnings("ranging:\n  filter:\n    type: median\n    trim: 0.2\n    process_noise: 0.008\n")
                == ["test.yaml:4:11: ranging.filter.trim: has no effect with ranging.filter.type median"])
        #expect(warnings("ranging:\n  filter:\n    type: trimmed_mean\n    trim: 0.2\n") == [])
        #expect(
            warnings("ranging:\n  distance:\n    exponent: 3\n")
                == ["test.yaml:3:15: ranging.distance.exponent: has no effect with ranging.distance.model curve_fit"])
        #expect(warnings("ranging:\n  distance:\n    model: log_distance\n    exponent: 3\n") == [])
    }

    @Test func warningsPrintLikeErrors() {
        let warning = ConfigWarning(file: "f.yaml", line: 3, column: 5, key: "a.b", message: "m")
        let error = ConfigError(file: "f.yaml", line: 3, column: 5, key: "a.b", message: "m")
        #expect(warning.description == "f.yaml:3:5: a.b: m")
        #expect(warning.description == error.description)
        #expect(ConfigWarning(file: "f.yaml", line: 0, column: 0, key: "", message: "m").description == "f.yaml: m")
    }
}

extension ConfigWarningTests {
    @Test func scanTimesOffTheControllersGrid() {
        // The controller counts in 0.625 ms steps (Core Spec Vol 4, Part E, §7.8.10): 100ms is 160 steps, 30.1ms is not whole.
        #expect(
            warnings("scanner:\n  interval: 100ms\n  window: 30.1ms\n")
                == [
                    "test.yaml:3:11: scanner.window: is not a multiple of 0.625ms, the controller's unit; it will be rounded"
                ])
    }

    @Test func clientIDsBrokersMayRefuse() {
        let expected = "brokers need only accept 1 to 23 letters and digits (MQTT 3.1.1 §3.1.3.1); some may refuse it"
        #expect(warnings("mqtt:\n  client_id: gw-hall\n") == ["test.yaml:2:14: mqtt.client_id: \(expected)"])
        #expect(
            warnings("mqtt:\n  client_id: abcdefghijklmnopqrstuvwx\n") == [
                "test.yaml:2:14: mqtt.client_id: \(expected)"
            ])
        #expect(warnings("mqtt:\n  client_id: gwhall1\n") == [])
    }
}

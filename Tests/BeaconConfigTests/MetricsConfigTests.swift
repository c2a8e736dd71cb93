import BeaconCore
import Settings
import Testing

@testable import BeaconConfig

/// `metrics.listen`: off by default, an IPv4 or bracketed IPv6 address and a port, errors at the
/// value's position.
@Suite struct MetricsConfigTests {
    @Test func offByDefaultAndReadWhenSet() throws {
        #expect(try parse("").metrics.listen == nil)
        #expect(try parse("metrics:\n  listen:\n").metrics.listen == nil)
        #expect(
            try parse("metrics:\n  listen: 127.0.0.1:9851\n").metrics.listen
                == MetricsSettings.Endpoint(address: "127.0.0.1", port: 9851))
        #expect(try parse("metrics:\n  listen: 0.0.0.0:80\n").metrics.listen?.description == "0.0.0.0:80")
        let v6 = try parse("metrics:\n  listen: '[::1]:9851'\n").metrics.listen
        #expect(v6 == MetricsSettings.Endpoint(address: "::1", port: 9851))
        #expect(v6?.isIPv6 == true && v6?.description == "[::1]:9851")
        #expect(try parse("metrics:\n  listen: '[::]:9851'\n").metrics.listen?.address == "::")
        #expect(try parse("metrics:\n  listen: '[fd00::2]:1'\n").metrics.listen?.description == "[fd00::2]:1")
        #expect(
            try parse("metrics:\n  listen: '[::ffff:127.0.0.1]:80'\n").metrics.listen?.address == "::ffff:127.0.0.1")
    }

    @Test func badIPv6ValuesNameTheKeyAndPosition() {
        #expect(
            failure("metrics:\n  listen: '::1:9851'\n")
                == "test.yaml:2:11: metrics.listen: an IPv6 address goes in brackets, like [::1]:9851, found '::1:9851'"
        )
        #expect(
            failure("metrics:\n  listen: '[::1]'\n")
                == "test.yaml:2:11: metrics.listen: an IPv6 address needs its port after the bracket, like [::1]:9851, "
                + "found '[::1]'")
        #expect(
            failure("metrics:\n  listen: '[::g]:1'\n")
                == "test.yaml:2:11: metrics.listen: '::g' is not an IPv6 address (like ::1, or :: for every interface)")
        #expect(
            failure("metrics:\n  listen: '[127.0.0.1]:1'\n")?.contains("'127.0.0.1' is not an IPv6 address") == true)
        #expect(failure("metrics:\n  listen: '[fe80::1%eth0]:1'\n")?.contains("is not an IPv6 address") == true)
        #expect(failure("metrics:\n  listen: '[1:2:3:4:5:6:7:8:9]:1'\n")?.contains("is not an IPv6 address") == true)
        #expect(
            failure("metrics:\n  listen: '[::1]:0'\n")
                == "test.yaml:2:11: metrics.listen: port must be from 1 to 65535, found '0'")
        #expect(failure("metrics:\n  listen: '[]:80'\n")?.contains("'' is not an IPv6 address") == true)
    }

    @Test func badValuesNameTheKeyAndPosition() {
        #expect(
            failure("metrics:\n  listen: localhost:9851\n")
                == "test.yaml:2:11: metrics.listen: 'localhost' is not an IPv4 address (like 127.0.0.1, or 0.0.0.0 "
                + "for every interface; IPv6 in brackets, like [::1])")
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:70000\n")
                == "test.yaml:2:11: metrics.listen: port must be from 1 to 65535, found '70000'")
        #expect(
            failure("metrics:\n  listen: 9851\n")
                == "test.yaml:2:11: metrics.listen: must be an address and a port, like 127.0.0.1:9851 or [::1]:9851, "
                + "found '9851'")
        #expect(failure("metrics:\n  listen: 256.0.0.1:1\n")?.contains("'256.0.0.1' is not an IPv4 address") == true)
        #expect(
            failure("metrics:\n  listne: 1\n") == "test.yaml:2:3: metrics.listne: unknown key; did you mean 'listen'?")
    }

    /// `locate` serves on `metrics.locator_listen`, by default `listen`'s address on the next port,
    /// so `run` and `locate` with one file on one host never contend (issue 34).
    @Test func theLocatorHasItsOwnEndpoint() throws {
        #expect(try parse("").metrics.locatorEndpoint == nil)
        #expect(
            try parse("metrics:\n  listen: 127.0.0.1:9851\n").metrics.locatorEndpoint?.description == "127.0.0.1:9852")
        #expect(try parse("metrics:\n  listen: '[::1]:9851'\n").metrics.locatorEndpoint?.description == "[::1]:9852")
        #expect(
            try parse("metrics:\n  listen: 127.0.0.1:9851\n  locator_listen: 0.0.0.0:9900\n").metrics.locatorEndpoint?
                .description == "0.0.0.0:9900")
        #expect(try parse("metrics:\n  locator_listen: 127.0.0.1:9900\n").metrics.listen == nil)
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:9851\n  locator_listen: 127.0.0.1:9851\n")
                == "test.yaml:3:19: metrics.locator_listen: is metrics.listen's address and port; run and locate on one host cannot share one"
        )
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:65535\n")
                == "test.yaml:2:11: metrics.listen: port 65535 leaves no next port for locate (metrics.locator_listen's default); set metrics.locator_listen"
        )
    }

    /// The live map: off by default; on a loopback address as it is; beyond this host only with a
    /// password file and TLS (docs/metrics.md, "The live map").
    @Test func theMapIsOffUnlessConfiguredAndStaysOnThisHostWithoutPasswordAndTLS() throws {
        #expect(try parse("").metrics.map == false)
        let local = try parse("metrics:\n  listen: 127.0.0.1:9851\n  map: true\n").metrics
        #expect(local.map && local.mapPasswordFile == nil && local.tlsCertificate == nil)
        #expect(try parse("metrics:\n  locator_listen: '[::1]:9852'\n  map: true\n").metrics.map)
        #expect(
            failure("metrics:\n  map: true\n")
                == "test.yaml:2:8: metrics.map: needs metrics.listen or metrics.locator_listen: the map is served there"
        )
        let open =
            "test.yaml:3:8: metrics.map: would show positions beyond this host on 0.0.0.0:9851; set "
            + "metrics.map_password_file, metrics.tls_certificate and metrics.tls_key, or listen on a loopback "
            + "address (127.0.0.1, [::1])"
        #expect(failure("metrics:\n  listen: 0.0.0.0:9851\n  map: true\n") == open)
        // locate's endpoint counts too, though run's is on loopback.
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:9851\n  map: true\n  locator_listen: '[::]:9900'\n")?.contains(
                "beyond this host on [::]:9900") == true)
        // A password without TLS, or TLS without a password, is not enough.
        #expect(
            failure("metrics:\n  listen: 0.0.0.0:9851\n  map: true\n  map_password_file: /etc/p\n")?.contains(
                "would show positions beyond this host") == true)
        #expect(
            failure(
                "metrics:\n  listen: 0.0.0.0:9851\n  map: true\n  tls_certificate: /c.pem\n  tls_key: /k.pem\n")?
                .contains("would show positions beyond this host") == true)
        let lan = try parse(
            "metrics:\n  listen: 0.0.0.0:9851\n  map: true\n  map_password_file: /etc/p\n"
                + "  tls_certificate: /c.pem\n  tls_key: /k.pem\n"
        ).metrics
        #expect(lan.mapPasswordFile == "/etc/p" && lan.tlsCertificate == "/c.pem" && lan.tlsKey == "/k.pem")
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:9851\n  tls_key: /k.pem\n")
                == "test.yaml:3:12: metrics.tls_key: needs both metrics.tls_certificate and metrics.tls_key")
        #expect(failure("metrics:\n  map: yes please\n")?.hasPrefix("test.yaml:2:8: metrics.map: ") == true)
    }

    @Test func thePasswordFileIsUserColonPasswordLines() throws {
        #expect(
            try MapPasswordFile.parse("# who sees the map\nalice:s3cret\n\nbob:pa:ss\r\n")
                == [.init(user: "alice", password: "s3cret"), .init(user: "bob", password: "pa:ss")])
        #expect(throws: MapPasswordFile.Problem(line: 2, message: "expected user:password")) {
            try MapPasswordFile.parse("alice:s3cret\nbob\n")
        }
        #expect(throws: MapPasswordFile.Problem(line: 1, message: "expected user:password")) {
            try MapPasswordFile.parse(":nobody\n")
        }
        #expect(throws: MapPasswordFile.Problem(line: 1, message: "the password is empty")) {
            try MapPasswordFile.parse("alice:\n")
        }
        #expect(throws: MapPasswordFile.Problem(line: 0, message: "names no user:password")) {
            try MapPasswordFile.parse("# nobody yet\n")
        }
    }
}

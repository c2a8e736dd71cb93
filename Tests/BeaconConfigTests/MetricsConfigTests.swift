@testable import BeaconConfig
import BeaconCore
import Testing

/// `metrics.listen`: off by default, an IPv4 address and a port, errors at the value's position.
@Suite struct MetricsConfigTests {
    @Test func offByDefaultAndReadWhenSet() throws {
        #expect(try parse("").metrics.listen == nil)
        #expect(try parse("metrics:\n  listen:\n").metrics.listen == nil)
        #expect(
            try parse("metrics:\n  listen: 127.0.0.1:9851\n").metrics.listen
                == MetricsSettings.Endpoint(address: "127.0.0.1", port: 9851))
        #expect(try parse("metrics:\n  listen: 0.0.0.0:80\n").metrics.listen?.description == "0.0.0.0:80")
    }

    @Test func badValuesNameTheKeyAndPosition() {
        #expect(
            failure("metrics:\n  listen: localhost:9851\n")
                == "test.yaml:2:11: metrics.listen: 'localhost' is not an IPv4 address (like 127.0.0.1, or 0.0.0.0 "
                + "for every interface)")
        #expect(
            failure("metrics:\n  listen: 127.0.0.1:70000\n")
                == "test.yaml:2:11: metrics.listen: port must be from 1 to 65535, found '70000'")
        #expect(
            failure("metrics:\n  listen: 9851\n")
                == "test.yaml:2:11: metrics.listen: must be an IPv4 address and a port, like 127.0.0.1:9851, found '9851'")
        #expect(failure("metrics:\n  listen: 256.0.0.1:1\n")?.contains("'256.0.0.1' is not an IPv4 address") == true)
        #expect(failure("metrics:\n  listne: 1\n") == "test.yaml:2:3: metrics.listne: unknown key; did you mean 'listen'?")
    }
}

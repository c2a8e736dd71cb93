import BeaconCore
import Settings
import Testing

@testable import BeaconConfig

@Suite struct GatewayPositionConfigTests {
    @Test func aPositionIsMetresWithZOptional() throws {
        let c = try parse("gateway:\n  position: {x: 2.5, y: -1, z: 1.2}\n")
        #expect(c.gateway.position == SitePosition(x: 2.5, y: -1, z: 1.2))
        #expect(try parse("gateway:\n  position:\n    x: 3\n    y: 4\n").gateway.position == SitePosition(x: 3, y: 4))
        #expect(try parse("gateway:\n  position:\n").gateway.position == nil)
        #expect(try parse("gateway:\n  id: a\n").gateway.position == nil)
    }

    @Test func eachMistakeIsNamedAtItsKey() {
        #expect(
            failure("gateway:\n  position: {x: 1}\n")
                == "test.yaml:2:17: gateway.position.y: missing; a position needs x and y in metres")
        #expect(
            failure("gateway:\n  position:\n    y: 1\n")
                == "test.yaml:3:8: gateway.position.x: missing; a position needs x and y in metres")
        #expect(
            failure("gateway:\n  position: {x: a, y: 1}\n")
                == "test.yaml:2:17: gateway.position.x: expected a number, found 'a'")
        #expect(
            failure("gateway:\n  position: {x: 1, y: 1, w: 2}\n")
                == "test.yaml:2:26: gateway.position.w: unknown key; did you mean 'x'?")
        #expect(failure("gateway:\n  position: 3\n")?.hasPrefix("test.yaml:2:13: gateway.position: ") == true)
        #expect(
            failure("gateway:\n  position: {x: 1e6, y: 1}\n")
                == "test.yaml:2:17: gateway.position.x: must be between -100000 and 100000, found 1000000")
    }
}

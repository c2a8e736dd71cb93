import Foundation
import Testing

@testable import IntegrationSupport

/// No struct, class, actor or enum under Sources holds more than 15 stored properties: a type
/// that does has parts with names of their own, to be pulled out (docs/testing.md).
@Suite struct StoredPropertyLimitTests {
    static let limit = 15

    /// The types allowed over the limit, each with its reason. Those marked "to split" are not
    /// split yet; `everyExceptionIsOverTheLimit` takes each off the list once it is.
    static let exceptions: [String: String] = [
        "BeaconSlot":
            "a flat row of BeaconTable, one per tracked identity, read and written across its groups on the per-report path"
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every type declared under Sources, with the file it is in.
    static func declarations() throws -> [(file: String, type: StoredProperties.TypeDeclaration)] {
        let files = FileManager.default
        guard let walk = files.enumerator(atPath: sources.path) else { return [] }
        var out: [(String, StoredProperties.TypeDeclaration)] = []
        for case let path as String in walk where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            out += StoredProperties(source: text).types.map { (path, $0) }
        }
        return out
    }

    @Test func noTypeHoldsMoreThanFifteenStoredProperties() throws {
        let over = try Self.declarations().filter {
            $0.type.properties.count > Self.limit && Self.exceptions[$0.type.name] == nil
        }
        #expect(over.map { "\($0.file): \($0.type)" } == [])
    }

    /// An exception that no longer needs to be one leaves the list.
    @Test func everyExceptionIsOverTheLimit() throws {
        let declarations = try Self.declarations()
        for name in Self.exceptions.keys {
            let found = declarations.filter { $0.type.name == name }
            #expect(found.count == 1, "\(name)")
            #expect(found.allSatisfy { $0.type.properties.count > Self.limit }, "\(name)")
        }
    }

    /// The scan finds the types of the whole tree, with their properties.
    @Test func theScanReadsTheSources() throws {
        let declarations = try Self.declarations()
        #expect(declarations.count > 300)
        let track = try #require(declarations.first { $0.type.name == "LocatorTrack" })
        #expect(track.type.properties.contains("location"))
        #expect(!track.type.properties.contains("isGone"))
        #expect(declarations.contains { $0.type.name == "LocatorTrack.Sample" })
    }

    @Test func sixteenStoredPropertiesAreOverTheLimitAndOnlyStoredOnesCount() {
        let source = #"""
            /// A type with braces { in its comment, and "} in strings".
            struct Wide: Sendable {
                let a: Int
                var b = "}{ \(min(1, 2)) \("(")"
                private(set) var c: [String: Int] = [:]
                package var d: Dictionary<String, Int>
                var e, f: Int
                var g: Int = 0 { didSet { print(g) } }
                lazy var h: Int = { let inner = 1; return inner }()
                var i: (Int) -> Void
                @Wrapped var j: Int
                var k: Int? = nil
                let l =
                    1 + 2
                var m: Int
                var n = """
                    var notAProperty = 1 }
                    """
                var o = #"raw \" } "#
                var p /* { */ : Int
                var computed: Int { a + 1 }
                var alsoComputed: Int {
                    get { a }
                    set {}
                }
                static let shared = 1
                static var counter = 0
                func method() { var local = 1; local += 1 }
                init() { let x = 1; a = x }
                struct Inner { var q: Int; let r: Int }
                enum Kind { case one, two; var isOne: Bool { self == .one } }
            }
            extension Wide {
                var extra: Int { 1 }
                final class Nested {
                    class var shared: Nested { Nested() }
                    var s = 1
                }
            }
            protocol Shape { var area: Double { get } }
            """#
        let types = StoredProperties(source: source).types
        #expect(types.map(\.name) == ["Wide", "Wide.Inner", "Wide.Kind", "Wide.Nested"])
        #expect(types.first?.properties == Array("abcdefghijklmnop").map(String.init))
        #expect(types.first.map { $0.properties.count > Self.limit } == true)
        #expect(types.dropFirst().map(\.properties) == [["q", "r"], [], ["s"]])
    }
}

import Testing

@testable import BeaconConfig

@Suite struct SuggestionTests {
    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(Suggestion.editDistance(Array("prot"), Array("port")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.editDistance(Array("same"), Array("same")) == 0)
    }

    @Test func suggestsOnlyPlausibleTypos() {
        let keys = ["host", "port", "base_topic", "qos"]
        #expect(Suggestion.closest(to: "hots", in: keys) == "host")
        #expect(Suggestion.closest(to: "basetopic", in: keys) == "base_topic")
        #expect(Suggestion.closest(to: "colour", in: keys) == nil)
        #expect(Suggestion.closest(to: "x", in: keys) == nil)
    }

    @Test func aPrefixSuggestsTheLongerWord() {
        #expect(Suggestion.closest(to: "warn", in: ["info", "warning", "error"]) == "warning")
        #expect(Suggestion.closest(to: "wa", in: ["info", "warning", "error"]) == nil)
    }
}

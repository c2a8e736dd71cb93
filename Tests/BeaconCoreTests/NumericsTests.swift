import Testing

@testable import BeaconCore

@Suite struct NumericsTests {
    /// Reference values are the mathematical constants / CPython's libm results.
    @Test func expAndLogMatchKnownValues() {
        #expect(abs(Numerics.exp(1) - 2.718281828459045) < 1e-15)
        #expect(abs(Numerics.exp(-5.5) - 0.004086771438464067) < 1e-17)
        #expect(abs(Numerics.exp(0) - 1) == 0)
        #expect(abs(Numerics.exp(700) / 1.0142320547350045e+304 - 1) < 1e-13)
        #expect(Numerics.exp(800) == .infinity)
        #expect(Numerics.exp(-800) == 0)
        #expect(abs(Numerics.log(10) - 2.302585092994046) < 1e-15)
        #expect(abs(Numerics.log(1e-3) - -6.907755278982137) < 1e-14)
        #expect(Numerics.log(1) == 0)
        #expect(Numerics.log(0) == -.infinity)
        #expect(Numerics.log(-1).isNaN)
    }

    @Test func powMatchesKnownValues() {
        #expect(abs(Numerics.pow(2, 0.5) - 1.4142135623730951) < 1e-15)
        #expect(abs(Numerics.pow(1.2, 7.7095) - 4.0780055866629015) < 1e-13)
        #expect(abs(Numerics.pow(10, 3) - 1000) < 1e-11)
        #expect(Numerics.pow(0, 2) == 0)
        #expect(Numerics.pow(5, 0) == 1)
    }

    @Test func logInvertsExpAcrossTheRangeDistanceUses() {
        var x = -20.0
        while x <= 20 {
            #expect(abs(Numerics.log(Numerics.exp(x)) - x) < 1e-13)
            x += 0.37
        }
    }

    @Test func aLikelihoodsLogarithmIsWithinABillionth() {
        var x = 1.0
        while x < 1e200 {
            #expect(abs(Numerics.likelihoodLog(x) - Numerics.log(x)) < 1e-9)
            x *= 1.37
        }
    }
}

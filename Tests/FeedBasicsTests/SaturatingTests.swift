import FeedBasics
import Testing

@Suite("Saturating conversions")
struct SaturatingTests {
    @Test func aFloatingPointValueOutsideTheIntegerTypeIsClampedNotATrap() {
        #expect(Int64(saturating: 9_223_372_036_854_775_807.0 * 1000) == .max)
        #expect(Int64(saturating: Double(Int64.max)) == .max, "2^63 is one past the largest Int64")
        #expect(Int64(saturating: Double.infinity) == .max && Int64(saturating: -Double.infinity) == .min)
        #expect(Int64(saturating: -1e300) == .min && Int64(saturating: Double(Int64.min)) == .min)
        #expect(Int64(saturating: Double.nan) == 0)
        #expect(UInt8(saturating: 300.0) == 255 && UInt8(saturating: -0.5) == 0 && UInt8(saturating: -3.0) == 0)
    }

    @Test func aValueThatFitsIsRoundedTowardZeroAsTheStandardConversionDoes() {
        #expect(Int64(saturating: 90_250.9) == 90_250 && Int64(saturating: -2.7) == -2)
        let largestBelow = Double(Int64.max).nextDown
        #expect(Int64(saturating: largestBelow) == Int64(largestBelow))
        #expect(Int(saturating: 1e18) == 1_000_000_000_000_000_000)
    }
}

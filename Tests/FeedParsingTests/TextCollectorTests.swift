import FeedModel
import Testing

@testable import FeedParsing

/// A long text (an entry body of a megabyte) comes from the parser a few hundred bytes at a
/// time; its buffer must not double past it, or a 1 MB body costs 2 MiB.
@Suite("Collected text grows slowly once long")
struct TextCollectorTests {
    @Test(arguments: [FeedText.Kind.html, .xhtml])
    func aLongTextIsHeldInLittleMoreThanItsSize(kind: FeedText.Kind) {
        var collector = TextCollector(field: .content, frameIndex: 0, kind: kind, capturesMarkup: true, elementName: "content")
        let piece = Array(repeating: UInt8(ascii: "a"), count: 300)
        for _ in 0..<(700_000 / piece.count) {
            piece.withUnsafeBufferPointer { collector.append($0, insideChildMarkup: false) }
        }
        #expect(collector.bytes.count == 699_900)
        #expect(collector.bytes.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(collector.bytes.capacity < collector.bytes.count * 13 / 10, "held in \(collector.bytes.capacity) bytes")
    }
}

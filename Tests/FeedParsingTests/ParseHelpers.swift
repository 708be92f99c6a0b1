import FeedModel
import FeedParsing
import Foundation

func parse(_ document: String, charset: String? = nil, limits: ParserLimits = .default) throws -> ParsedFeed {
    try FeedParser.parse(Array(document.utf8), charset: charset, limits: limits)
}

/// Bytes of a fixture file shipped beside these tests.
func fixture(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureMissing(name: name)
    }
    return [UInt8](try Data(contentsOf: url))
}

struct FixtureMissing: Error {
    let name: String
}

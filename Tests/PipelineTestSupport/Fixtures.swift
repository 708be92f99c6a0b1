import Foundation

/// A per-feed database exactly as the original (pre-Feedmill) pipeline wrote it, for the
/// storage and update tests that upgrade one (`Fixtures/original-schema.sql` says how it is made).
public func originalSchemaDatabase() throws -> URL {
    guard let url = Bundle.module.url(forResource: "original-schema", withExtension: "sqlite", subdirectory: "Fixtures") else {
        throw FixtureError.missing("Fixtures/original-schema.sqlite")
    }
    return url
}

public enum FixtureError: Error {
    case missing(String)
}

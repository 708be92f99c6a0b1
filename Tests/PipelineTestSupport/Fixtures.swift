import Foundation

/// A per-feed database exactly as the original (pre-Feedmill) pipeline wrote it, for the
/// storage and update tests that upgrade one (`Fixtures/original-schema.sql` says how it is made).
public func originalSchemaDatabase() throws -> URL {
    try fixtureDatabase("original-schema")
}

/// A feed database as Feedmill wrote it before issue 40 (`Fixtures/feed-schema-merged-1.sql`).
public func schemaMergedOneDatabase() throws -> URL {
    try fixtureDatabase("feed-schema-merged-1")
}

/// A catalog as Feedmill wrote it before issue 40 (`Fixtures/catalog-before-reader-fields.sql`).
public func catalogBeforeReaderFields() throws -> URL {
    try fixtureDatabase("catalog-before-reader-fields")
}

private func fixtureDatabase(_ name: String) throws -> URL {
    guard let url = Bundle.module.url(forResource: name, withExtension: "sqlite", subdirectory: "Fixtures") else {
        throw FixtureError.missing("Fixtures/\(name).sqlite")
    }
    return url
}

public enum FixtureError: Error {
    case missing(String)
}

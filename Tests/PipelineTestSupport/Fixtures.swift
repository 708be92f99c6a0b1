import Foundation
import TestSupport

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

/// A data directory and its publish directory made by the Feedmill before issue 40 (feed and
/// catalog schema version 1; `Fixtures/publication-schema-1/README.md` says how), copied into
/// a new temporary directory as `data/` and `publish/`, ready to be upgraded.
public func schema1Publication() throws -> TemporaryDirectory {
    guard let url = Bundle.module.url(forResource: "publication-schema-1", withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureError.missing("Fixtures/publication-schema-1")
    }
    let copy = try TemporaryDirectory()
    for part in ["data", "publish"] {
        try FileManager.default.copyItem(at: url.appendingPathComponent(part), to: copy.url.appendingPathComponent(part))
    }
    return copy
}

/// The folder of `Fixtures/reader-fields`: four feeds carrying what a reader shows (its README).
public func readerFieldsFixtures() throws -> URL {
    guard let url = Bundle.module.url(forResource: "reader-fields", withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureError.missing("Fixtures/reader-fields")
    }
    return url
}

/// The folder of `Fixtures/feed-shapes`: four shapes real publishers use, each in a file named
/// for it (its README).
public func feedShapesFixtures() throws -> URL {
    guard let url = Bundle.module.url(forResource: "feed-shapes", withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureError.missing("Fixtures/feed-shapes")
    }
    return url
}

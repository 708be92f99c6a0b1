import Foundation
import TestSupport

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

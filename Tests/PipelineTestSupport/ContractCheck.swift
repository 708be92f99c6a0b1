import FeedPublishing
import Foundation
import TestSupport

/// The publication contract checked from outside Feedmill's Swift code, by two processes:
/// `Scripts/validate-contract` (the JSON Schemas in `schemas/`, with Debian's python3-jsonschema)
/// and `Scripts/content-digest` (the content digest written from the contract's text, with
/// Python's sqlite3 module, applying deltas with SQL as a client does).
///
/// A publication is archived as it is made (``keep(publication:label:)``): later publications
/// retire its files. ``problems()`` then checks everything kept in one run of each script.
public final class ContractArchive {
    private let directory: TemporaryDirectory
    private var jsonFiles: [String] = []
    /// A snapshot copy (a delta applied to it first, when given) and the digest it must have.
    private var digestChecks: [(file: String, delta: String?, expected: String, label: String)] = []
    private var count = 0

    public init() throws {
        directory = try TemporaryDirectory()
    }

    /// How many manifests and deltas have been kept for validation.
    public var validatedFiles: Int { jsonFiles.count }
    /// How many content digests will be checked.
    public var digestCount: Int { digestChecks.count }

    /// Keeps the publication in `publishDirectory` as it is now: its root and every pointer,
    /// every delta the record names (with a copy of the version it starts from, to apply it
    /// to), and every current snapshot with the digest the record gives.
    public func keep(publication publishDirectory: String, label: String) throws {
        let manifest = try PublishHarnessReader.manifest(publishDirectory)
        let root = try PublicationReader.root(publishDirectory)
        count += 1
        let prefix = directory.url.path + "/\(count)-"
        jsonFiles.append(try copy(publishDirectory + "/manifest.json", to: prefix + "manifest.json"))
        for feed in manifest.feeds {
            let pointer = "feed_\(feed.feedID).json"
            jsonFiles.append(try copy(publishDirectory + "/" + pointer, to: prefix + pointer))
        }
        if let catalog = root.catalog {
            let file = try copy(publishDirectory + "/" + catalog.file, to: prefix + catalog.file)
            digestChecks.append((file, nil, catalog.contentDigest ?? "(none)", "\(label): \(catalog.file)"))
        }
        for feed in manifest.feeds {
            let file = try copy(publishDirectory + "/" + feed.file, to: prefix + feed.file)
            digestChecks.append((file, nil, feed.contentDigest ?? "(none)", "\(label): \(feed.file)"))
            for delta in feed.deltas {
                let deltaCopy = try copy(publishDirectory + "/" + delta.file, to: prefix + delta.file)
                jsonFiles.append(deltaCopy)
                guard let old = feed.history.first(where: { $0.version == delta.fromVersion })?.file else {
                    throw ContractCheckError.failed("keep", "\(label): no version \(delta.fromVersion) of feed \(feed.feedID) for \(delta.file)")
                }
                let base = try copy(publishDirectory + "/" + old, to: prefix + "from-" + delta.file + ".sqlite")
                digestChecks.append((base, deltaCopy, feed.contentDigest ?? "(none)", "\(label): \(old) + \(delta.file)"))
            }
        }
    }

    /// Every problem: files the schemas reject, digests that differ (after applying deltas with
    /// SQL). Empty when the contract holds for everything kept.
    public func problems() throws -> [String] {
        var problems: [String] = []
        if !jsonFiles.isEmpty {
            let validation = try ContractCheck.validate(jsonFiles)
            if validation.status != 0 { problems.append("schema validation (status \(validation.status)):\n" + validation.output) }
        }
        if !digestChecks.isEmpty {
            let computed = try ContractCheck.contentDigests(digestChecks.map { ($0.file, $0.delta) })
            for (check, digest) in zip(digestChecks, computed) where digest != check.expected {
                problems.append("\(check.label): the manifest says \(check.expected), computed independently \(digest)")
            }
        }
        return problems
    }

    private func copy(_ source: String, to destination: String) throws -> String {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        return destination
    }
}

public enum ContractCheck {
    /// The repository this test support is in (for `Scripts/` and `schemas/`).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Debian's python3 (where python3-jsonschema is installed), else the one on PATH.
    static var python: [String] {
        InstalledTool.exists("/usr/bin/python3") ? ["/usr/bin/python3"] : ["/usr/bin/env", "python3"]
    }

    /// Runs `Scripts/validate-contract` over `files` (the schema chosen by each file's name, or
    /// `schema`): its exit status (0 all valid, 1 one invalid, 2 it could not run) and output.
    public static func validate(_ files: [String], schema: String? = nil) throws -> (status: Int32, output: String) {
        let arguments = (schema.map { ["--schema", $0] } ?? []) + files
        return try run(script: "validate-contract", arguments)
    }

    /// The content digest of each file, computed by `Scripts/content-digest`; a delta given
    /// with a file is applied to it first, in place.
    public static func contentDigests(_ files: [(file: String, delta: String?)]) throws -> [String] {
        let arguments = files.flatMap { file, delta in (delta.map { ["--apply", $0] } ?? []) + [file] }
        let result = try run(script: "content-digest", arguments)
        guard result.status == 0 else { throw ContractCheckError.failed("content-digest", result.output) }
        let digests = result.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        guard digests.count == files.count else { throw ContractCheckError.failed("content-digest", result.output) }
        return digests
    }

    private static func run(script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        let python = Self.python
        process.executableURL = URL(fileURLWithPath: python[0])
        process.arguments = Array(python.dropFirst()) + [repository + "/Scripts/" + script] + arguments
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        let output = Output(process)
        process.waitUntilExit()
        return (process.terminationStatus, output.stdout() + output.stderr())
    }
}

public enum ContractCheckError: Error, CustomStringConvertible {
    case failed(String, String)

    public var description: String {
        switch self {
        case .failed(let script, let output): "Scripts/\(script) failed: \(output)"
        }
    }
}

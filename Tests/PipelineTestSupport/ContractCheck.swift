import Foundation
import TestSupport

/// The publication contract checked from outside Feedmill's Swift code, by two processes:
/// `Scripts/validate-contract` (the JSON Schemas in `schemas/` with Debian's python3-jsonschema,
/// and what a schema cannot say: every file a client may be sent to exists with its sha256 and
/// size, names carry their feed's id, deltas lead where their entry says) and
/// `Scripts/content-digest --check` (the content digest written from the contract's text, with
/// Python's sqlite3 module, applying deltas with SQL as a client does).
///
/// A publication is archived whole as it is made (``keep(publication:label:)``): later
/// publications retire its files. ``problems()`` then checks everything kept in one run of each
/// script, oldest first, so that a delta is applied to the snapshot it starts from even when
/// that snapshot was retired since. It reads either format (the root's `format_version`), and
/// never Feedmill's own types: what it checks is the contract, not the publisher's idea of it.
public final class ContractArchive {
    private let directory: TemporaryDirectory
    private var kept: [(path: String, label: String)] = []
    /// The snapshots kept so far, by feed id and version: a delta from one of them is applied.
    private var served: Set<FeedVersion> = []

    public init() throws {
        directory = try TemporaryDirectory()
    }

    /// How many JSON files (roots, pointers, records of format 1, deltas) `validate-contract`
    /// will check: its count must be this one.
    public private(set) var validatedFiles = 0
    /// How many content digests `content-digest --check` will recompute: the catalog's and
    /// every usable entry's of each kept publication, and each of their deltas whose starting
    /// snapshot was kept; its count must be this one.
    public private(set) var digestCount = 0

    /// Keeps the publication in `publishDirectory` as it is now (every file in it).
    public func keep(publication publishDirectory: String, label: String) throws {
        let copy = directory.url.path + "/\(kept.count + 1)"
        let files = FileManager.default
        try files.createDirectory(atPath: copy, withIntermediateDirectories: false)
        for name in try files.contentsOfDirectory(atPath: publishDirectory).sorted() {
            var isDirectory: ObjCBool = false
            let source = publishDirectory + "/" + name
            guard files.fileExists(atPath: source, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try files.copyItem(atPath: source, toPath: copy + "/" + name)
        }
        let stated = try StatedPublication(directory: copy)
        served.formUnion(stated.served)
        validatedFiles += stated.jsonFiles
        digestCount += stated.snapshots + stated.deltaBases.filter { served.contains($0) }.count
        kept.append((copy, label))
    }

    /// Every problem: files the schemas or the cross-checks reject, digests that differ (after
    /// applying deltas with SQL), counts that are not the ones planned. Empty when the
    /// contract holds for everything kept.
    public func problems() throws -> [String] {
        guard !kept.isEmpty else { return [] }
        var problems: [String] = []
        let paths = kept.map(\.path)
        let validation = try ContractCheck.validate(paths)
        if validation.status != 0 { problems.append("validate-contract (status \(validation.status)):\n" + labelled(validation.output)) }
        if !validation.output.contains("checked \(kept.count) publication(s) (\(validatedFiles) file(s))") {
            problems.append("validate-contract did not check the \(validatedFiles) file(s) planned: \(validation.output.suffix(200))")
        }
        let digests = try ContractCheck.run(script: "content-digest", ["--check"] + paths)
        let lines = digests.output.split(separator: "\n").map(String.init)
        problems += lines.filter { !$0.hasPrefix("checked ") }.map(labelled)
        if !lines.contains(where: { $0.hasPrefix("checked \(digestCount) content digest(s)") }) {
            problems.append("content-digest did not check the \(digestCount) digest(s) planned: \(digests.output.suffix(200))")
        }
        if digests.status != 0 && problems.isEmpty { problems.append("content-digest (status \(digests.status)): \(digests.output)") }
        return problems
    }

    /// The script's output with each kept copy's path replaced by its label.
    private func labelled(_ output: String) -> String {
        kept.reversed().reduce(output) { text, publication in
            text.replacingOccurrences(of: publication.path + "/", with: publication.label + ": ")
        }
    }
}

/// A feed's snapshot of one version.
struct FeedVersion: Hashable {
    let feedID: Int
    let version: Int
}

/// What one kept publication states, read with `JSONSerialization` as any client would, to
/// plan how much the scripts must check.
struct StatedPublication {
    var jsonFiles = 0
    var snapshots = 0
    var served: Set<FeedVersion> = []
    var deltaBases: [FeedVersion] = []

    init(directory: String) throws {
        let root = try Self.object(directory + "/manifest.json")
        jsonFiles = 1
        snapshots = 1  // the catalog
        let exists = { (name: Any?) in (name as? String).map { FileManager.default.fileExists(atPath: directory + "/" + $0) } ?? false }
        var entries: [(feedID: Int, entry: [String: Any])] = []
        if root["format_version"] as? Int == 2 {
            let shards = root["shards"] as? [String: [String: Any]] ?? [:]
            // The catalog's index, its page groups and pages, its title groups and runs (issue 51).
            if let named = root["catalog_index"] as? [String: Any], let file = named["file"] as? String {
                jsonFiles += 1
                let index = try Self.object(directory + "/" + file)
                for (key, parts) in [("page_groups", "pages"), ("title_groups", "chunks")] {
                    for group in index[key] as? [[String: Any]] ?? [] {
                        guard let groupFile = group["file"] as? String else { continue }
                        jsonFiles += 1 + ((try Self.object(directory + "/" + groupFile))[parts] as? [Any] ?? []).count
                    }
                }
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                guard let match = name.wholeMatch(of: /feed_([1-9][0-9]*)\.json/), let feedID = Int(match.1) else { continue }
                jsonFiles += 1
                let pointer = try Self.object(directory + "/" + name)
                let all = pointer["entries"] as? [[String: Any]] ?? []
                entries += all.filter { Self.usable($0, shards) }.map { (feedID, $0) }
            }
        } else {
            if FileManager.default.fileExists(atPath: directory + "/.feedmill-publisher.json") { jsonFiles += 1 }
            for feed in root["feeds"] as? [[String: Any]] ?? [] {
                guard let feedID = feed["feedid"] as? Int else { continue }
                entries.append((feedID, feed))
                for old in feed["history"] as? [[String: Any]] ?? [] where exists(old["file"]) {
                    if let version = old["version"] as? Int { served.insert(FeedVersion(feedID: feedID, version: version)) }
                }
            }
        }
        for (feedID, entry) in entries {
            snapshots += 1
            if let version = entry["version"] as? Int, exists(entry["file"]) { served.insert(FeedVersion(feedID: feedID, version: version)) }
            for delta in entry["deltas"] as? [[String: Any]] ?? [] {
                if exists(delta["file"]) { jsonFiles += 1 }
                if let from = delta["from_version"] as? Int { deltaBases.append(FeedVersion(feedID: feedID, version: from)) }
            }
        }
    }

    /// The contract's usable-entry rule (docs/client-contract.md#the-usable-entry-rule).
    static func usable(_ entry: [String: Any], _ shards: [String: [String: Any]]) -> Bool {
        guard let label = entry["shard"] as? String, let shard = shards[label], let generation = entry["generation"] as? Int,
            let committed = shard["generation"] as? Int
        else { return false }
        return generation < committed || (generation == committed && entry["publication"] as? String == shard["publication"] as? String)
    }

    private static func object(_ path: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        guard let object = value as? [String: Any] else { throw ContractCheckError.failed("the archive", "\(path) is not a JSON object") }
        return object
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
    /// `schema`; a directory is a whole publication): its exit status (0 all valid, 1 one
    /// invalid, 2 it could not run) and output.
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

    /// Runs `Scripts/<script>` with `arguments`: its exit status and its output (stdout, then stderr).
    public static func run(script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
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

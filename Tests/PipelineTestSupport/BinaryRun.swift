import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import TestSupport

/// A data directory made by the real binaries from a feed farm on 127.0.0.1, and a publish
/// directory beside it.
public struct BinaryRun {
    public let create = Executable(name: "rss-create")
    public let update = Executable(name: "rss-update")
    public let publish = Executable(name: "rss-publish")
    public let server: TestHTTPServer
    public let root: TemporaryDirectory
    public var data: String { root.url.path + "/data" }
    public var out: String { root.url.path + "/publish" }
    public var options: [String] { ["--data-dir", data, "--allow-private-networks", "--concurrency", "2"] }

    public init(feeds: Int, items: Int = 3) throws {
        server = try feedFarm(count: feeds, items: items, delay: 0)
        root = try TemporaryDirectory()
    }

    public func createAll() throws -> (status: Int32, stdout: String, stderr: String) {
        try create.runCapturing(["--opml", server.baseURL + "/list.opml"] + options)
    }

    public func updateAll() throws -> (status: Int32, stdout: String, stderr: String) {
        try update.runCapturing(["--all"] + options)
    }

    public func publishAll(into directory: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try publish.runCapturing(["--data-dir", data, "--out", directory ?? out])
    }

    public func itemCount(_ feed: Int) throws -> Int {
        Int(try sqlite(data + "/feed_\(feed).sqlite", "SELECT COUNT(*) FROM items").first?.first??.description ?? "") ?? -1
    }

    /// Every file under `directory` with its size, links as `-> target`: what must not change.
    public func listing(_ directory: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                result[name] = "-> " + target
            } else {
                result[name] = "\((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1)"
            }
        }
        return result
    }
}

/// The manifest of a publish directory, read as a client would.
public enum PublishHarnessReader {
    /// The publisher's record of the whole feed list (shard 1/1), as the root names it.
    public static func manifest(_ directory: String) throws -> Manifest {
        try PublicationReader.record(directory)
    }

    /// A format-1 `manifest.json` (a publication made before format 2).
    public static func formatOneManifest(_ directory: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json")))
    }
}

extension TemporaryDirectory {
    /// Writes `contents` at an absolute path.
    public static func writeFile(_ path: String, _ contents: String) throws -> String {
        try contents.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }
}

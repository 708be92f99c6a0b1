import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Signed publications (issue 52): `rss-publish --generate-key` once, `--signing-key` on every
/// run; `rss-pull --trust` refuses anything not signed by a key it pins, keeps what it holds,
/// and converges on the publisher's files once the honest server is back.
@Suite("signed publications", .serialized)
struct SignedPublicationTests {
    let pull = Executable(name: "rss-pull")

    /// The files a client holds: every database with its bytes.
    static func databases(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".sqlite") {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    @Test func aKeyIsMadeOnceWithMode0600AndNeverOverwritten() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.url.path + "/signing.key"
        let made = try Executable(name: "rss-publish").runCapturing(["--generate-key", path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("ed25519:") && made.stdout.count > 40)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let before = FileManager.default.contents(atPath: path)
        let again = try Executable(name: "rss-publish").runCapturing(["--generate-key", path])
        #expect(again.status == 73 && again.stderr.contains("never overwritten"), "\(again)")
        #expect(FileManager.default.contents(atPath: path) == before)

        chmod(path, 0o644)
        let run = try BinaryRun(feeds: 1, items: 1)
        _ = try run.createAll()
        let refused = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--signing-key", path])
        #expect(refused.status == 77 && refused.stderr.contains("chmod 600"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: run.out + "/manifest.json"), "nothing published with a key others may read")
    }

    @Test func aPinnedClientTakesOnlyWhatTheKeySignedAndRepairsAfterAForgery() throws {
        let scratch = try TemporaryDirectory()
        let keyPath = scratch.url.path + "/signing.key", otherPath = scratch.url.path + "/other.key"
        let key = try Executable(name: "rss-publish").runCapturing(["--generate-key", keyPath]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let other = try Executable(name: "rss-publish").runCapturing(["--generate-key", otherPath]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try BinaryRun(feeds: 3, items: 2)
        _ = try run.createAll()
        let published = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--signing-key", keyPath, "--now", "1800000000"])
        #expect(published.status == 0, "\(published.stderr)")
        let server = try HostileTestServer(directory: run.out)
        let folder = scratch.url.path + "/client"

        // The signatures checked from outside (python3-cryptography, no Feedmill code).
        let outside = try ContractCheck.run(script: "validate-contract", ["--trust", key, run.out])
        #expect(outside.status == 0, "\(outside.output)")
        let outsideOther = try ContractCheck.run(script: "validate-contract", ["--trust", other, run.out])
        #expect(outsideOther.status != 0 && outsideOther.output.contains("not one trusted"), "\(outsideOther.output)")

        // Signed by the key pinned: synced; by another: refused, nothing written.
        let first = try pull.runCapturing([server.baseURL, folder, "--trust", key, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let held = Self.databases(folder)
        #expect(held.count == 4)
        let strangers = scratch.url.path + "/stranger"
        let wrongKey = try pull.runCapturing([server.baseURL, strangers, "--trust", other])
        #expect(wrongKey.status == 70 && wrongKey.stderr.contains("which this client does not trust"), "\(wrongKey)")
        #expect(Self.databases(strangers).isEmpty)
        // Browsing the catalog: the root checked the same way.
        let search = try pull.runCapturing([server.baseURL, "--search", "Feed", "--trust", key])
        #expect(search.status == 0 && !search.stdout.isEmpty, "\(search)")
        let strangerSearch = try pull.runCapturing([server.baseURL, "--search", "Feed", "--trust", other])
        #expect(strangerSearch.status == 70 && strangerSearch.stderr.contains("which this client does not trust"), "\(strangerSearch)")

        // An unchanged feed still costs a 304: the signature does not change its pointer's bytes.
        for feed in 1...3 { try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("signed-\(feed)")], now: 5_000) }
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--signing-key", keyPath, "--now", "1800003600", "--feed", "1"]).status == 0)
        let second = try pull.runCapturing([server.baseURL, folder, "--trust", key, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("\"not_modified\":2"), "feeds 2 and 3 unchanged: \(second.stdout)")
        let current = Self.databases(folder)

        // A publication from the same data signed by the attacker's key, served in its place.
        let forgery = scratch.url.path + "/forgery"
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", forgery, "--signing-key", otherPath, "--now", "1800007200"]).status == 0)
        for feed in 1...3 { try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("later-\(feed)")], now: 6_000) }
        server.misbehave { path in
            FileManager.default.contents(atPath: forgery + path).map { .reply(status: 200, headers: [], body: [UInt8]($0)) }
        }
        let forged = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect(forged.status == 70 && forged.stderr.contains("manifest.json: it is signed by key"), "\(forged)")
        #expect(Self.databases(folder) == current, "the files held are kept")

        // The honest root with one pointer changed on the way (its signature kept).
        let out = run.out
        server.misbehave { path in
            guard path == "/feed_2.json", let bytes = FileManager.default.contents(atPath: out + path) else { return nil }
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"feedid\":2", with: "\"feedid\":2 ")
            return .reply(status: 200, headers: [], body: Array(text.utf8))
        }
        let tampered = try pull.runCapturing([server.baseURL, folder, "--trust", key, "--feed", "2"])
        #expect(tampered.status == 1 && tampered.stderr.contains("does not match its content"), "\(tampered)")
        #expect(Self.databases(folder)["feed_2.sqlite"] == current["feed_2.sqlite"])

        // An unsigned publication is refused by a pinned client, read by one that pins none.
        let unsigned = scratch.url.path + "/unsigned"
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", unsigned, "--now", "1800010800"]).status == 0)
        server.misbehave { path in FileManager.default.contents(atPath: unsigned + path).map { .reply(status: 200, headers: [], body: [UInt8]($0)) } }
        let notSigned = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect(notSigned.status == 70 && notSigned.stderr.contains("it is not signed"), "\(notSigned)")
        let anyone = try pull.runCapturing([server.baseURL, scratch.url.path + "/anyone"])
        #expect(anyone.status == 0, "\(anyone.stderr)")

        // The honest server back: the pinned client converges on what the key signed.
        server.behave()
        let honest = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect(honest.status == 0, "\(honest.stderr)")
        let reference = scratch.url.path + "/reference"
        #expect(try pull.runCapturing([server.baseURL, reference, "--trust", key]).status == 0)
        #expect(Self.databases(folder) == Self.databases(reference))
        #expect(!held.isEmpty)
    }

    /// A replay: the current root, but one feed's pointer (and its snapshot) from an earlier
    /// publication, validly signed. Its generation is older than the one the client applied to
    /// that feed, so it is refused and the newer file kept; a root replayed whole is refused
    /// as stale. Once the server gives the current pointer again, nothing is downloaded.
    @Test func aReplayedPointerOrRootDoesNotTakeAFeedBack() throws {
        let scratch = try TemporaryDirectory()
        let keyPath = scratch.url.path + "/signing.key"
        let key = try Executable(name: "rss-publish").runCapturing(["--generate-key", keyPath]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try BinaryRun(feeds: 2, items: 2)
        _ = try run.createAll()
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--signing-key", keyPath, "--now", "1800000000"]).status == 0)
        // What a hostile mirror keeps of the first publication.
        let old = scratch.url.path + "/old"
        #expect(try runToCompletion("/bin/cp", ["-a", run.out, old]).status == 0)
        let server = try HostileTestServer(directory: run.out)
        let folder = scratch.url.path + "/client"
        #expect(try pull.runCapturing([server.baseURL, folder, "--trust", key]).status == 0)

        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("newer")], now: 5_000)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--signing-key", keyPath, "--now", "1800003600"]).status == 0)
        #expect(try pull.runCapturing([server.baseURL, folder, "--trust", key]).status == 0)
        let current = Self.databases(folder)

        // The old pointer and every old object, the current root.
        server.misbehave { path in
            guard path != "/manifest.json" else { return nil }
            return FileManager.default.contents(atPath: old + path).map { .reply(status: 200, headers: [], body: [UInt8]($0)) }
        }
        let replayed = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect(replayed.status == 1 && replayed.stderr.contains("feed_1.json: its entry is of generation 1"), "\(replayed)")
        #expect(Self.databases(folder) == current, "the newer file is kept")

        // The whole old publication: its root is stale.
        server.misbehave { path in FileManager.default.contents(atPath: old + path).map { .reply(status: 200, headers: [], body: [UInt8]($0)) } }
        let stale = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect((stale.stdout + stale.stderr).contains("older than"), "\(stale)")
        #expect(Self.databases(folder) == current)

        server.behave()
        let honest = try pull.runCapturing([server.baseURL, folder, "--trust", key])
        #expect(honest.status == 0, "\(honest.stderr)")
        #expect(Self.databases(folder) == current)
    }
}

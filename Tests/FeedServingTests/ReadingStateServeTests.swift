import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `/v1/state` on a running rss-serve, through curl: two users, a user's two devices, the
/// tokens, the limits, a damaged store.
@Suite("rss-serve: reading state at /v1/state")
struct ReadingStateServeTests {
    /// rss-serve over a published data directory, with a users file: ann (a phone and a
    /// laptop token) and bob.
    struct Server {
        let run: BinaryRun
        let serve: ServeProcess
        let usersFile: String
        var url: String { serve.baseURL + "/v1/state" }

        init(extra: [String] = [], prepare: (String) throws -> Void = { _ in }) throws {
            run = try BinaryRun(feeds: 1, items: 1)
            #expect(try run.createAll().status == 0)
            #expect(try run.publishAll().status == 0)
            usersFile = run.root.url.path + "/users"
            try Self.usersText(["ann": ["ann-phone", "ann-laptop"], "bob": ["bob-token"]]).write(toFile: usersFile, atomically: true, encoding: .utf8)
            chmod(usersFile, 0o600)
            try prepare(run.data)
            serve = try ServeProcess(out: run.out, in: run.root.url.path, extra: ["--data-dir", run.data, "--users", usersFile] + extra)
        }

        static func usersText(_ tokens: [String: [String]]) -> String {
            tokens.sorted { $0.key < $1.key }.flatMap { name, tokens in tokens.map { "\(name) \(SHA256.hexDigest(Array($0.utf8)))\n" } }.joined()
        }

        /// A request: the status, the headers, the JSON body.
        func call(_ token: String?, post body: String? = nil, query: String = "", headers: [String] = []) throws -> (status: Int, head: String, json: [String: Any]) {
            var arguments = headers.flatMap { ["-H", $0] }
            if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
            if let body { arguments += ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body] }
            let answer = try curl(arguments + [url + query])
            let status = Int(answer.head.split(separator: " ").dropFirst().first ?? "") ?? 0
            let json = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any] ?? [:]
            return (status, answer.head, json)
        }
    }

    static func marks(_ json: [String: Any]) -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: (json["marks"] as? [[String: Any]] ?? []).map { ("\($0["feedid"] ?? "")/\($0["id"] ?? "")", $0) })
    }

    @Test func twoDevicesAndTwoUsersNoMarkLostNoneSeenByTheWrongUser() throws {
        let server = try Server()
        // Without a valid token: 401, and nothing said of anyone's marks.
        for token in [nil, "wrong", SHA256.hexDigest(Array("ann-phone".utf8))] {
            let answer = try server.call(token)
            #expect(answer.status == 401 && header("WWW-Authenticate", in: answer.head) == "Bearer realm=\"feedmill\"", "\(answer)")
            #expect(answer.json["marks"] == nil)
        }
        #expect(try server.call(nil, post: #"{"marks": [{"feedid": 1, "id": "a", "read": true, "at": 1}]}"#).status == 401)

        // Ann's phone and laptop edit offline, then both sync: in whichever order, every field
        // ends at its latest setting.
        let phone = #"{"marks": [{"feedid": 1, "id": "a", "read": true, "at": 100}, {"feedid": 1, "id": "b", "starred": true, "at": 100}]}"#
        let laptop = #"{"marks": [{"feedid": 1, "id": "a", "read": false, "at": 90}, {"feedid": 1, "id": "a", "starred": true, "at": 95}, {"feedid": 1, "id": "b", "read": true, "at": 110}]}"#
        let phoneSent = try server.call("ann-phone", post: phone)
        #expect(phoneSent.status == 200 && phoneSent.json["accepted"] as? Int == 2, "\(phoneSent)")
        #expect(try server.call("ann-laptop", post: laptop).status == 200)
        let ann = try server.call("ann-laptop")
        let marks = Self.marks(ann.json)
        #expect(marks["1/a"]?["read"] as? Bool == true && marks["1/a"]?["read_at"] as? Int == 100, "the later read kept: \(ann.json)")
        #expect(marks["1/a"]?["starred"] as? Bool == true && marks["1/b"]?["starred"] as? Bool == true && marks["1/b"]?["read"] as? Bool == true)
        let cursor = try #require(ann.json["cursor"] as? String)

        // Bob: none of ann's marks, and his own change none of hers.
        let bob = try server.call("bob-token")
        #expect(bob.status == 200 && (bob.json["marks"] as? [Any])?.isEmpty == true, "\(bob.json)")
        #expect(try server.call("bob-token", post: #"{"marks": [{"feedid": 1, "id": "a", "read": false, "at": 500}]}"#).status == 200)
        let bodyOfBob = #"{"marks": [{"feedid": 1, "id": "a", "read": false, "at": 500}], "user": "ann"}"#
        #expect(try server.call("bob-token", post: bodyOfBob).status == 200, "a user named in the body is ignored")
        #expect(Self.marks(try server.call("ann-phone").json)["1/a"]?["read"] as? Bool == true, "bob changed none of ann's marks")
        #expect(Self.marks(try server.call("bob-token").json)["1/a"]?["read"] as? Bool == false)

        // Since the cursor: nothing, then only what changed after it.
        let since = try server.call("ann-phone", query: "?since=" + cursor)
        #expect((since.json["marks"] as? [Any])?.isEmpty == true && since.json["cursor"] as? String == cursor, "\(since.json)")
        #expect(try server.call("ann-phone", post: #"{"marks": [{"feedid": 1, "id": "b", "starred": false, "at": 200}]}"#).json["changed"] as? Int == 1)
        let later = Self.marks(try server.call("ann-laptop", query: "?since=" + cursor).json)
        #expect(Array(later.keys) == ["1/b"] && later["1/b"]?["starred"] as? Bool == false, "\(later)")

        // Malformed and oversized bodies: said, and nothing stored.
        let malformed = try server.call("ann-phone", post: #"{"marks": [{"feedid": "one", "id": "a", "read": true, "at": 1}]}"#)
        #expect(malformed.status == 400 && (malformed.json["error"] as? String)?.contains("marks[0].feedid") == true, "\(malformed)")
        #expect(try server.call("ann-phone", query: "?since=x").status == 400)
        let large = server.run.root.url.path + "/large.json"
        try Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 10).write(to: URL(fileURLWithPath: large))
        #expect(try server.call("ann-phone", post: "@" + large).status == 413)
        #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer ann-phone", server.url]).head.hasPrefix("HTTP/1.1 405"))

        // A token added to the file works without a restart; one removed no longer does.
        try Server.usersText(["ann": ["ann-phone"], "cat": ["cat-token"]]).write(toFile: server.usersFile, atomically: true, encoding: .utf8)
        chmod(server.usersFile, 0o600)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, try server.call("cat-token").status != 200 { usleep(200_000) }
        #expect(try server.call("cat-token").status == 200 && (try server.call("cat-token").json["marks"] as? [Any])?.isEmpty == true)
        #expect(try server.call("ann-laptop").status == 401 && (try server.call("bob-token")).status == 401)
        #expect(Self.marks(try server.call("ann-phone").json)["1/a"]?["read"] as? Bool == true, "ann's marks outlive a token")
        var status = stat()
        #expect(stat(server.run.data + "/reading-state.sqlite", &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(server.serve.stop().status == 0)
    }

    @Test func requestsPastTheRateAreAnswered429AndGuessingTokensIsSlowedToo() throws {
        let server = try Server(extra: ["--state-rate", "0.5", "--state-burst", "3"])
        let statuses = try (0..<5).map { _ in try server.call("ann-phone").status }
        #expect(statuses == [200, 200, 200, 429, 429], "\(statuses)")
        let limited = try server.call("ann-phone")
        #expect(Int(header("Retry-After", in: limited.head) ?? "") ?? 0 >= 1, "\(limited.head)")
        #expect(try server.call("bob-token").status == 200, "another user has their own rate")
        let guesses = try (0..<5).map { try server.call("guess-\($0)").status }
        #expect(guesses == [401, 401, 401, 429, 429], "\(guesses)")
        #expect(server.serve.stop().status == 0)
    }

    @Test func aDamagedStoreAnswers503AndTheRestIsServed() throws {
        let server = try Server { data in
            try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: data + "/reading-state.sqlite"))
        }
        let answer = try server.call("ann-phone")
        #expect(answer.status == 503 && header("Retry-After", in: answer.head) != nil, "\(answer)")
        #expect(try curl([server.serve.baseURL + "/manifest.json"]).head.hasPrefix("HTTP/1.1 200"))
        #expect(server.serve.logText.contains("reading state cannot be kept"), "\(server.serve.logText)")
        #expect(server.serve.stop().status == 0)
    }

    @Test func aUsersFileOthersMayWriteStopsTheStart() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let users = run.root.url.path + "/users"
        try "ann \(SHA256.hexDigest(Array("t".utf8)))\n".write(toFile: users, atomically: true, encoding: .utf8)
        chmod(users, 0o666)
        let result = try Executable(name: "rss-serve").runCapturing(["--listen", "127.0.0.1:0", "--out", run.out, "--data-dir", run.data, "--users", users])
        #expect(result.status == 64 && result.stderr.contains("may be written by others"), "\(result)")
    }
}

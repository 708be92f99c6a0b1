@testable import FeedServing
import FeedBasics
import Foundation
import TestSupport
import Testing

/// The rules of `/v1/state` without a server: the merge, the body, the users file, the rate.
@Suite("Reading state: merge, body, users, rate")
struct ReadingStateRuleTests {
    @Test func theLaterSettingWinsAndATieKeepsTheMark() {
        let stored = MarkedField(value: true, at: 100)
        #expect(MarkedField.merged(stored: nil, incoming: MarkedField(value: false, at: 5)) == MarkedField(value: false, at: 5))
        #expect(MarkedField.merged(stored: stored, incoming: MarkedField(value: false, at: 99)) == nil, "an older setting changes nothing")
        #expect(MarkedField.merged(stored: stored, incoming: MarkedField(value: false, at: 101)) == MarkedField(value: false, at: 101))
        #expect(MarkedField.merged(stored: stored, incoming: MarkedField(value: false, at: 100)) == nil, "a tie keeps the mark")
        #expect(MarkedField.merged(stored: MarkedField(value: false, at: 100), incoming: MarkedField(value: true, at: 100)) == MarkedField(value: true, at: 100))
        #expect(MarkedField.merged(stored: stored, incoming: stored) == nil)
    }

    /// Two devices' offline edits, sent in every order: the same marks in the end, and each
    /// field the latest setting of either.
    @Test func devicesEditingOfflineConvergeInAnyOrder() throws {
        let phone = [
            ReadMark(feedID: 1, itemID: "a", read: true, starred: nil, at: 100),
            ReadMark(feedID: 1, itemID: "b", read: true, starred: true, at: 110),
            ReadMark(feedID: 2, itemID: "a", read: nil, starred: true, at: 130),
        ]
        let laptop = [
            ReadMark(feedID: 1, itemID: "a", read: false, starred: true, at: 120),
            ReadMark(feedID: 1, itemID: "b", read: false, starred: nil, at: 105),
            ReadMark(feedID: 2, itemID: "a", read: true, starred: false, at: 125),
        ]
        var outcomes: [[ReadingStateStore.Stored]] = []
        for order in [[phone, laptop], [laptop, phone], [Array(phone.prefix(1)), laptop, Array(phone.dropFirst())]] {
            let directory = try TemporaryDirectory()
            let store = try ReadingStateStore(dataDirectory: directory.url.path)
            for batch in order { _ = try store.merge(batch, user: "ann") }
            outcomes.append(try store.page(user: "ann", after: 0, limit: 100).marks.sorted { ($0.feedID, $0.itemID) < ($1.feedID, $1.itemID) })
        }
        #expect(outcomes.allSatisfy { $0 == outcomes[0] }, "\(outcomes)")
        let expected: [ReadingStateStore.Stored] = [
            .init(feedID: 1, itemID: "a", read: MarkedField(value: false, at: 120), starred: MarkedField(value: true, at: 120)),
            .init(feedID: 1, itemID: "b", read: MarkedField(value: true, at: 110), starred: MarkedField(value: true, at: 110)),
            .init(feedID: 2, itemID: "a", read: MarkedField(value: true, at: 125), starred: MarkedField(value: true, at: 130)),
        ]
        #expect(outcomes[0] == expected)
    }

    @Test func aCursorGivesOnlyLaterChangesAPageAtATimeAndUsersApart() throws {
        let directory = try TemporaryDirectory()
        let store = try ReadingStateStore(dataDirectory: directory.url.path)
        let marks = (1...5).map { ReadMark(feedID: 1, itemID: "i\($0)", read: true, starred: nil, at: 10) }
        #expect(try store.merge(marks, user: "ann") == 5)
        #expect(try store.merge(marks, user: "ann") == 0, "the same marks again change nothing")
        #expect(try store.merge([ReadMark(feedID: 1, itemID: "i1", read: false, starred: nil, at: 11)], user: "bob") == 1)
        let first = try store.page(user: "ann", after: 0, limit: 3)
        #expect(first.marks.map(\.itemID) == ["i1", "i2", "i3"] && first.more)
        let second = try store.page(user: "ann", after: first.cursor, limit: 3)
        #expect(second.marks.map(\.itemID) == ["i4", "i5"] && !second.more)
        let none = try store.page(user: "ann", after: second.cursor, limit: 3)
        #expect(none.marks.isEmpty && none.cursor == second.cursor)
        _ = try store.merge([ReadMark(feedID: 1, itemID: "i2", read: nil, starred: true, at: 12)], user: "ann")
        #expect(try store.page(user: "ann", after: second.cursor, limit: 3).marks.map(\.itemID) == ["i2"])
        #expect(try store.page(user: "bob", after: 0, limit: 10).marks.map { $0.read?.value } == [false], "bob's marks are his alone")
        var status = stat()
        #expect(stat(store.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test func aUserKeepsAtMostTheLimitAndARequestPastItKeepsNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try ReadingStateStore(dataDirectory: directory.url.path, markLimit: 3)
        let two = (1...2).map { ReadMark(feedID: 1, itemID: "i\($0)", read: true, starred: nil, at: 10) }
        #expect(try store.merge(two, user: "ann") == 2)
        let more = (2...4).map { ReadMark(feedID: 1, itemID: "i\($0)", read: false, starred: nil, at: 20) }
        #expect(throws: ReadingStateStore.TooManyMarks.self) { try store.merge(more, user: "ann") }
        #expect(try store.page(user: "ann", after: 0, limit: 10).marks.map { $0.read?.value } == [true, true], "nothing of the refused request kept")
        #expect(try store.merge(Array(more.prefix(2)), user: "ann") == 2, "within the limit: taken")
        #expect(try store.merge(more, user: "bob") == 3, "the limit is each user's")
    }

    @Test func aBodyIsCheckedFieldByFieldAndAFutureTimeIsNow() throws {
        let good = #"{"marks": [{"feedid": 3, "id": "x", "read": true, "at": 5000}, {"feedid": 3, "id": "y", "starred": false, "at": 10}]}"#
        #expect(try ReadMarkJSON.marks(from: Array(good.utf8), limit: 10, now: 1_000) == [
            ReadMark(feedID: 3, itemID: "x", read: true, starred: nil, at: 1_000), ReadMark(feedID: 3, itemID: "y", read: nil, starred: false, at: 10),
        ])
        let refused: [(String, String)] = [
            ("[]", "the body"), ("{}", "marks: missing"), (#"{"marks": [{"id": "x", "read": true, "at": 1}]}"#, "marks[0].feedid: missing"),
            (#"{"marks": [{"feedid": 0, "id": "x", "read": true, "at": 1}]}"#, "marks[0].feedid"),
            (#"{"marks": [{"feedid": 1, "id": "", "read": true, "at": 1}]}"#, "marks[0].id"),
            (#"{"marks": [{"feedid": 1, "id": "x", "read": "yes", "at": 1}]}"#, "marks[0].read: expected true or false"),
            (#"{"marks": [{"feedid": 1, "id": "x", "at": 1}]}"#, "neither read nor starred"),
            (#"{"marks": [{"feedid": 1.5, "id": "x", "read": true, "at": 1}]}"#, "whole numbers"),
            (#"{"marks": [{"feedid": 1, "id": "x", "read": true, "at": -1}]}"#, "marks[0].at"), ("not json", "not JSON"),
        ]
        for (body, said) in refused {
            #expect(throws: ReadMarkJSON.Invalid.self, "\(body)") { try ReadMarkJSON.marks(from: Array(body.utf8), limit: 10, now: 1_000) }
            do { _ = try ReadMarkJSON.marks(from: Array(body.utf8), limit: 10, now: 1_000) } catch {
                #expect(error.description.contains(said), "\(body): \(error.description)")
                #expect(body == "not json" || !error.description.contains("not JSON"), "JSON is not said not to be: \(error.description)")
            }
        }
        let many = #"{"marks": ["# + Array(repeating: #"{"feedid": 1, "id": "x", "read": true, "at": 1}"#, count: 3).joined(separator: ",") + "]}"
        #expect(throws: ReadMarkJSON.Invalid(description: "more than 2 marks in one request")) { try ReadMarkJSON.marks(from: Array(many.utf8), limit: 2, now: 1) }
    }

    @Test func theUsersFileHoldsHashesOnlyAndIsRefusedWhenUnsafeOrMalformed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/users"
        let hash = SHA256.hexDigest(Array("phone-token".utf8))
        try "# users\nann \(hash)\n\nann \(SHA256.hexDigest(Array("laptop-token".utf8)))\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o640)
        let users = try UserTokens(path: path)
        #expect(users.user(authorization: "Bearer phone-token") == "ann" && users.user(authorization: "bearer laptop-token") == "ann")
        #expect(users.user(authorization: "Bearer \(hash)") == nil, "the hash is not a token")
        #expect(users.user(authorization: "Basic cGhvbmUtdG9rZW4=") == nil && users.user(authorization: nil) == nil)
        let malformed: [(String, String)] = [
            ("ann\n", ":1: expected NAME"), ("ann zz\n", ":1: the token's SHA-256"), ("a/b \(hash)\n", ":1: a user name"),
            ("ann \(hash)\nbob \(hash)\n", ":2: the same token as ann"),
        ]
        for (text, said) in malformed {
            #expect(throws: UserTokens.Invalid.self) { try UserTokens.parse(text, name: "users") }
            do { _ = try UserTokens.parse(text, name: "users") } catch { #expect(error.description.contains(said), "\(error.description)") }
        }
        // Deleted: no one is let in (the file is looked at again a second after the last look).
        try FileManager.default.removeItem(atPath: path)
        usleep(1_100_000)
        #expect(users.user(authorization: "Bearer phone-token") == nil, "a deleted file lets no one in")
        try "ann \(hash)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        usleep(1_100_000)
        #expect(users.user(authorization: "Bearer phone-token") == "ann" && users.user(authorization: "Bearer laptop-token") == nil)
        chmod(path, 0o666)
        do {
            _ = try UserTokens(path: path)
            Issue.record("a file others may write was taken")
        } catch {
            #expect(error.description.contains("may be written by others"))
        }
    }

    @Test func aRateIsABurstThenOnePerInterval() {
        let limiter = RateLimiter(burst: 2, interval: .seconds(1), maxKeys: 2)
        let start = ContinuousClock.now
        #expect(limiter.take("a", now: start) == nil && limiter.take("a", now: start) == nil)
        let wait = limiter.take("a", now: start)
        #expect(wait != nil && wait! <= .seconds(1))
        #expect(limiter.take("b", now: start) == nil, "another key has its own bucket")
        #expect(limiter.take("a", now: start + .milliseconds(1_100)) == nil, "a token back after the interval")
        for key in (0..<10).map(String.init) { _ = limiter.take(key, now: start) }
        #expect(limiter.take("a", now: start + .seconds(2)) == nil, "bounded keys; a forgotten key starts full")
    }
}

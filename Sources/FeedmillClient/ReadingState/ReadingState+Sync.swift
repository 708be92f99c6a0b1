import Foundation

extension ReadingState {
    /// Sends the marks set here since the last success, then receives the user's marks changed
    /// since the stored cursor, page by page, merged field by field (``MarkedValue/merged(_:_:)``),
    /// the cursor stored after each page; then ``prune()``. Marks not sent stay to be sent: a
    /// 401 throws ``ClientError/unauthorized(url:)``, a 429 or 503
    /// ``ClientError/retryLater(url:status:seconds:)`` with the server's `Retry-After`, any other
    /// failure the transport's error; nothing set here is lost by a failed sync.
    ///
    /// `server` is `rss-serve`'s base URL; `token` the user's (`Authorization: Bearer`).
    public func sync(server: URL, token: String, transport: any ClientTransport = DefaultTransport.make(timeout: 30)) async throws(ClientError) -> StateSyncReport {
        let base = server.absoluteString.hasSuffix("/") ? server : server.appendingPathComponent("")
        let endpoint = base.appendingPathComponent("v1/state")
        let database = try ReadingStateDatabase(folder: folder)
        var report = StateSyncReport()
        report.rebuilt = database.rebuilt
        // Another server (or user) has other marks: start its cursor over.
        let identity = endpoint.absoluteString + " " + SHA256Hasher.hexDigest(Data(token.utf8))
        if try database.value("server") != identity {
            try database.set("cursor", nil)
            try database.set("server", identity)
        }
        let headers = ["Authorization": "Bearer " + token, "Accept": "application/json"]
        report.pushed = try await push(database, to: endpoint, headers: headers, transport: transport)
        try await pull(database, from: endpoint, headers: headers, transport: transport, report: &report)
        report.pruned = try prune()
        return report
    }

    /// POSTs the pending marks, `marksPerPost` at a time; clears each field sent unless it was
    /// set again meanwhile.
    private func push(_ database: ReadingStateDatabase, to endpoint: URL, headers: [String: String], transport: any ClientTransport) async throws(ClientError) -> Int {
        var sent = 0
        while true {
            let statement = try database.connection.prepare("""
                SELECT feedid, id, read, read_at, read_pending, starred, starred_at, starred_pending FROM marks
                WHERE read_pending = 1 OR starred_pending = 1 ORDER BY feedid, id LIMIT \(Self.marksPerPost)
                """)
            var batch: [(mark: ItemMark, read: Bool, starred: Bool)] = []
            while try statement.step() {
                guard let feedID = statement.value(at: 0).integer, case .text(let id) = statement.value(at: 1) else { continue }
                let mark = ItemMark(
                    feedID: feedID, id: String(decoding: id, as: UTF8.self), read: ReadingStateDatabase.field(statement, 2),
                    starred: ReadingStateDatabase.field(statement, 5))
                batch.append((mark, statement.value(at: 4).integer == 1, statement.value(at: 7).integer == 1))
            }
            guard !batch.isEmpty else { return sent }
            var body: [[String: Any]] = []
            for (mark, read, starred) in batch {
                // One entry per time: the server's `at` is the mark's, for the fields it carries.
                if read, starred, let r = mark.read, let s = mark.starred, r.at == s.at {
                    body.append(["feedid": mark.feedID, "id": mark.id, "read": r.value, "starred": s.value, "at": r.at])
                    continue
                }
                if read, let r = mark.read { body.append(["feedid": mark.feedID, "id": mark.id, "read": r.value, "at": r.at]) }
                if starred, let s = mark.starred { body.append(["feedid": mark.feedID, "id": mark.id, "starred": s.value, "at": s.at]) }
            }
            let data: Data
            do {
                data = try JSONSerialization.data(withJSONObject: ["marks": body], options: [.sortedKeys, .withoutEscapingSlashes])
            } catch {
                throw .unreadableAnswer(url: endpoint, reason: "the marks cannot be written as JSON: \(error.localizedDescription)")
            }
            _ = try await Self.request(
                TransportRequest(url: endpoint, maxBytes: 1 << 20, method: "POST", headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: data),
                transport: transport)
            try database.connection.execute("BEGIN IMMEDIATE")
            do throws(ClientError) {
                let clearRead = try database.connection.prepare("UPDATE marks SET read_pending = 0 WHERE feedid = ? AND id = ? AND read_at = ?")
                let clearStarred = try database.connection.prepare("UPDATE marks SET starred_pending = 0 WHERE feedid = ? AND id = ? AND starred_at = ?")
                for (mark, read, starred) in batch {
                    let key: [SQLiteValue] = [.integer(mark.feedID), .text(Array(mark.id.utf8))]
                    if read, let r = mark.read { try clearRead.run(key + [.integer(r.at)]) }
                    if starred, let s = mark.starred { try clearStarred.run(key + [.integer(s.at)]) }
                }
                try database.connection.execute("COMMIT")
            } catch {
                try? database.connection.execute("ROLLBACK")
                throw error
            }
            sent += batch.count
        }
    }

    /// GETs the marks changed since the cursor, page by page, merging each.
    private func pull(
        _ database: ReadingStateDatabase, from endpoint: URL, headers: [String: String], transport: any ClientTransport, report: inout StateSyncReport
    ) async throws(ClientError) {
        for _ in 0..<10_000 {
            var url = endpoint
            if let cursor = try database.value("cursor"),
                let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
                let withCursor = URL(string: endpoint.absoluteString + "?since=" + encoded)
            {
                url = withCursor
            }
            let response = try await Self.request(TransportRequest(url: url, maxBytes: Self.answerByteLimit, headers: headers), transport: transport)
            let page = try StatePage.decode(response.body, from: url)
            try database.connection.execute("BEGIN IMMEDIATE")
            do throws(ClientError) {
                for incoming in page.marks {
                    report.pulled += 1
                    let held = try database.mark(feedID: incoming.feedID, id: incoming.id)
                    var mark = held?.mark ?? ItemMark(feedID: incoming.feedID, id: incoming.id)
                    let read = MarkedValue.merged(mark.read, incoming.read)
                    let starred = MarkedValue.merged(mark.starred, incoming.starred)
                    guard read != mark.read || starred != mark.starred else { continue }
                    // A field the server's value replaced is no longer this device's to send.
                    let readPending = (held?.readPending ?? false) && read == mark.read
                    let starredPending = (held?.starredPending ?? false) && starred == mark.starred
                    mark.read = read
                    mark.starred = starred
                    try database.write(mark, readPending: readPending, starredPending: starredPending)
                    report.changed += 1
                }
                try database.set("cursor", page.cursor)
                try database.connection.execute("COMMIT")
            } catch {
                try? database.connection.execute("ROLLBACK")
                throw error
            }
            if !page.more { return }
        }
    }

    /// One request; the contract's statuses as the client's errors.
    static func request(_ request: TransportRequest, transport: any ClientTransport) async throws(ClientError) -> TransportResponse {
        let response = try await SyncSession.perform(request, with: transport).get()
        switch response.status {
        case 200: return response
        case 401: throw .unauthorized(url: request.url)
        case 429, 503: throw .retryLater(url: request.url, status: response.status, seconds: response.retryAfter)
        default: throw .httpStatus(url: request.url, status: response.status)
        }
    }
}

/// A GET's answer: `{"marks": [...], "cursor": "…", "more": bool}`.
struct StatePage {
    var marks: [ItemMark]
    var cursor: String
    var more: Bool

    static func decode(_ data: Data, from url: URL) throws(ClientError) -> StatePage {
        func refuse(_ reason: String) -> ClientError { .unreadableAnswer(url: url, reason: "the reading state is not as the contract gives it: \(reason)") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw refuse("not a JSON object") }
        guard let list = object["marks"] as? [[String: Any]], let cursor = object["cursor"] as? String, cursor.utf8.count <= 200 else {
            throw refuse("marks or cursor missing")
        }
        func integer(_ value: Any?) -> Int64? {
            guard let number = value as? NSNumber, !number.isJSONBoolean, NSNumber(value: number.int64Value) == number else { return nil }
            return number.int64Value
        }
        func field(_ mark: [String: Any], _ name: String) throws(ClientError) -> MarkedValue? {
            guard let value = mark[name] else { return nil }
            guard let flag = value as? NSNumber, flag.isJSONBoolean, let at = integer(mark[name + "_at"] ?? mark["at"]) else {
                throw refuse("\(name) is not true or false with its time")
            }
            return MarkedValue(flag.boolValue, at: at)
        }
        var marks: [ItemMark] = []
        for mark in list {
            guard let feedID = integer(mark["feedid"]), feedID > 0, let id = mark["id"] as? String else { throw refuse("a mark without feedid or id") }
            marks.append(ItemMark(feedID: feedID, id: id, read: try field(mark, "read"), starred: try field(mark, "starred")))
        }
        return StatePage(marks: marks, cursor: cursor, more: object["more"] as? Bool ?? false)
    }
}

import FeedFetching
import Foundation

/// Subscription requests to hubs (W3C WebSub §5.1): a form POST, under the fetcher's rules —
/// the same SSRF guard (`--allow-private-networks` to reach 127.0.0.1), proxies, timeouts and
/// size cap as `rss-update`'s fetches. Blocking: run off the server's event loops.
struct HubClient: Sendable {
    let configuration: FetchConfiguration

    /// `nil` when the hub accepted (any 2xx; 202 is the spec's), else why not.
    func request(mode: String, hub: String, topic: String, callback: String, secret: String?, lease: Int64?) -> String? {
        var fields = [("hub.mode", mode), ("hub.topic", topic), ("hub.callback", callback)]
        if let secret { fields.append(("hub.secret", secret)) }
        if let lease { fields.append(("hub.lease_seconds", String(lease))) }
        var request = FetchRequest(url: hub)
        request.form = fields.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        do {
            _ = try HTTPFetcher(configuration: configuration).fetch(request)
            return nil
        } catch {
            return error.message
        }
    }

    /// `application/x-www-form-urlencoded`: everything but unreserved characters escaped.
    static func formEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// The one percent-encoding SigV4 accepts: every byte but `A-Z a-z 0-9 - . _ ~` as `%XX`
/// (upper-case hex), `/` kept in a key's path. libcurl 7.88 signs the URL it is given as it
/// is (it neither re-encodes the path nor sorts the query), so the URL must already be in this
/// canonical form or the server's signature differs (checked against SeaweedFS: a raw `+`, `=`
/// or an unsorted query is refused with SignatureDoesNotMatch).
enum S3URIEncoding {
    /// A key as a URL path: each byte encoded, slashes kept.
    static func path(_ key: String) -> String { encode(key, keepSlash: true) }

    /// A query value or name: slashes encoded too.
    static func component(_ text: String) -> String { encode(text, keepSlash: false) }

    /// The query string of `parameters`, sorted by name as the canonical request is.
    static func query(_ parameters: [(name: String, value: String)]) -> String {
        parameters.sorted { $0.name < $1.name }.map { "\(component($0.name))=\(component($0.value))" }.joined(separator: "&")
    }

    private static func encode(_ text: String, keepSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte.isUnreserved || (keepSlash && byte == UInt8(ascii: "/")) {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

private extension UInt8 {
    var isUnreserved: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == UInt8(ascii: "-") || self == UInt8(ascii: ".") || self == UInt8(ascii: "_") || self == UInt8(ascii: "~")
    }
}

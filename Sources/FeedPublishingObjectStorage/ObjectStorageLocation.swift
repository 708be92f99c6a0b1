/// Where a publication goes in object storage: `s3://bucket/prefix`, as `--out` gives it.
/// The prefix is where the names of a publication live (`prefix/manifest.json`); it is never a
/// scope of deletion: only names the publisher wrote are ever deleted, one by one.
public struct ObjectStorageLocation: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// Without leading or trailing slashes; empty for the bucket's top.
    public let prefix: String

    /// Why `--out s3://...` cannot be used, said with what would be right.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let given: String
        public let reason: String
        public var description: String { "\(given) is not a usable s3://bucket/prefix: \(reason)" }
    }

    /// Whether `--out` names object storage rather than a directory.
    public static func names(_ out: String) -> Bool { out.lowercased().hasPrefix("s3://") }

    /// `s3://bucket` or `s3://bucket/some/prefix/`: a bucket name as S3 allows them (3-63 of
    /// `a-z 0-9 . -`, starting and ending with a letter or digit), a prefix of printable ASCII.
    public init(parsing given: String) throws(Invalid) {
        guard Self.names(given) else { throw Invalid(given: given, reason: "it does not start with s3://") }
        let rest = given.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        var prefix = Substring(rest.dropFirst(bucket.count))
        while prefix.hasPrefix("/") { prefix = prefix.dropFirst() }
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        let allowed = bucket.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
        guard (3...63).contains(bucket.count), allowed, let first = bucket.utf8.first, let last = bucket.utf8.last,
            first != 0x2E && first != 0x2D, last != 0x2E && last != 0x2D
        else {
            throw Invalid(given: given, reason: "\"\(bucket)\" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)")
        }
        guard prefix.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !prefix.contains("//"), prefix.utf8.count <= 512 else {
            throw Invalid(given: given, reason: "the prefix must be printable ASCII without spaces or empty segments")
        }
        self.bucket = bucket
        self.prefix = String(prefix)
    }

    /// The object key of a publication's `name`.
    public func key(_ name: String) -> String { prefix.isEmpty ? name : prefix + "/" + name }

    /// The name of a listed key directly under the prefix, nil for anything else (deeper
    /// keys belong to no publication here).
    func name(ofKey key: String) -> String? {
        let name = prefix.isEmpty ? Substring(key) : key.hasPrefix(prefix + "/") ? key.dropFirst(prefix.count + 1) : nil
        guard let name, !name.isEmpty, !name.contains("/") else { return nil }
        return String(name)
    }

    /// The prefix as a listing's: every key below it, with its slash.
    var listingPrefix: String { prefix.isEmpty ? "" : prefix + "/" }

    public var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }
}

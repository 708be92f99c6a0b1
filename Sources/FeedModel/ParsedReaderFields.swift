/// A person as the document credits them, before normalisation: Atom `author` (`name`,
/// `email`, `uri`), JSON Feed `authors` (`name`, `url`), or one string (RSS `author`,
/// `dc:creator`, `itunes:author`) that normalisation splits into name and address.
public struct ParsedPerson: Sendable, Equatable {
    /// The name as written; for a person written as one string, that whole string.
    public var name: String?
    public var email: String?
    /// Unresolved, with the `xml:base` values in effect where it was found.
    public var uri: FeedLink?
    /// Written as one string (`joe@example.com (Joe)`, `Joe <joe@example.com>`, a bare
    /// address): `name` is still to be split, by one rule, in normalisation.
    public var isOneString: Bool

    public init(name: String? = nil, email: String? = nil, uri: FeedLink? = nil, isOneString: Bool = false) {
        self.name = name
        self.email = email
        self.uri = uri
        self.isOneString = isOneString
    }

    /// A person written as one string.
    public static func written(_ text: String) -> ParsedPerson { ParsedPerson(name: text, isOneString: true) }
}

/// A category as the document states it: RSS `category` (text, `domain`), Atom `category`
/// (`term`, `label`, `scheme`), `dc:subject`, JSON Feed `tags`.
public struct ParsedCategory: Sendable, Equatable {
    public var term: String?
    public var label: String?
    public var scheme: String?

    public init(term: String?, label: String? = nil, scheme: String? = nil) {
        self.term = term
        self.label = label
        self.scheme = scheme
    }
}

/// A media file attached to an entry (a podcast episode, a video, a PDF): RSS `enclosure`,
/// Atom `link rel="enclosure"`, `media:content` (alone or in `media:group`), JSON Feed
/// `attachments`. Clients store it as one object of `items.enclosures_json`.
public struct Enclosure: Sendable, Equatable {
    /// An absolute `http`/`https` URL, resolved against the entry's own base.
    public var url: String
    /// The MIME type as the feed states it (`audio/mpeg`), lowercased; `nil` when not stated.
    public var type: String?
    /// The size in bytes as the feed states it; `nil` when absent, not a number, or 0 (which
    /// podcast feeds write to mean "unknown").
    public var length: Int64?
    /// Playing time in whole seconds: `itunes:duration` (for the entry's first audio or video
    /// enclosure), `media:content duration`, JSON Feed `duration_in_seconds`.
    public var duration: Int64?

    public init(url: String, type: String? = nil, length: Int64? = nil, duration: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
        self.duration = duration
    }
}

/// A topic an entry is filed under: RSS `category` (with its `domain`), Atom `category`
/// (`term`, `label`, `scheme`), `dc:subject`, JSON Feed `tags`.
public struct EntryCategory: Sendable, Equatable {
    /// What the feed files the entry under: plain text, never empty.
    public var term: String
    /// A human-readable label when the feed gives one other than the term (Atom `label`).
    public var label: String?
    /// The vocabulary the term belongs to (RSS `domain`, Atom `scheme`), as written.
    public var scheme: String?

    public init(term: String, label: String? = nil, scheme: String? = nil) {
        self.term = term
        self.label = label
        self.scheme = scheme
    }
}

/// A person credited with an entry or a feed: Atom `author`, RSS `author` (`email (Name)` and
/// `Name <email>` split), `dc:creator`, `itunes:author`, JSON Feed `authors`.
public struct Person: Sendable, Equatable {
    /// Plain text; `nil` when the feed gives only an address.
    public var name: String?
    public var email: String?
    /// An absolute `http`/`https` URL.
    public var uri: String?

    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }

    /// What a reader shows for the person: the name, else the address.
    public var displayName: String? { name ?? email }
}

/// What a feed says about itself that a reader shows next to its title; published on the
/// catalog's `about` side.
public struct FeedDescription: Sendable, Equatable {
    /// RSS/RDF channel `description`, Atom `subtitle`/`tagline`, JSON Feed `description`, as plain text.
    public var description: String?
    /// The feed's picture, an absolute `http`/`https` URL: RSS channel `image/url`,
    /// `itunes:image`, Atom `icon` else `logo`, JSON Feed `icon` else `favicon`.
    public var imageURL: String?
    /// RSS `language`, `dc:language`, Atom `xml:lang` on the root, JSON Feed `language`, as written (`en-us`).
    public var language: String?

    public init(description: String? = nil, imageURL: String? = nil, language: String? = nil) {
        self.description = description
        self.imageURL = imageURL
        self.language = language
    }
}

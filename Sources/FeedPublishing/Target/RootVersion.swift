/// The version of the root a publication read, which its commit expects still to be there
/// (SPEC-41 §6): a directory's is the sha256 of the bytes read, object storage's the ETag.
public struct RootVersion: Sendable, Equatable {
    /// nil: there was no root.
    public let token: String?

    public init(token: String?) {
        self.token = token
    }
}

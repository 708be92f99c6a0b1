import Foundation

/// A publication directory (`rss-publish --out DIR`), read through ``PublicationFiles``' rules:
/// plain regular files directly in it, no link followed. The root's version is its file identity
/// (device, inode, size, modification time), which every commit (a rename into place) changes.
struct DirectorySource: PublicationSource {
    let files: PublicationFiles
    let notifier: DirectoryNotifier?

    init(files: PublicationFiles) {
        self.files = files
        notifier = DirectoryNotifier(directory: files.directory)
    }

    var location: String { files.directory }

    func lookAtRoot(known: String?) -> RootLook {
        guard let now = files.identity("manifest.json") else { return .absent }
        if Self.version(now) == known { return .unchanged }
        guard let (bytes, identity) = files.read("manifest.json") else { return .absent }
        return .root(bytes: bytes, version: Self.version(identity), committed: identity.modified)
    }

    func read(_ name: String) -> [UInt8]? { files.read(name)?.bytes }

    func names() -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: files.directory)
    }

    static func version(_ identity: EntityTags.Identity) -> String {
        "\(identity.device):\(identity.inode):\(identity.size):\(identity.modified)"
    }
}

/// Why a database could not be opened, migrated or written. One line a person understands,
/// with the file it concerns.
public struct StorageError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }

    static func wrap<T>(_ path: String, _ action: String, _ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(path: path, message: "\(action) failed: \(error)")
        }
    }
}

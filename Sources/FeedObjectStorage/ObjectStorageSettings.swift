import Foundation

/// Where the objects go and who writes them, read from the standard AWS environment
/// variables, never from the command line (where `ps` and shell history would show the
/// secret). `AWS_ENDPOINT_URL` names an S3-compatible server (SeaweedFS, MinIO, R2, ...); when
/// it is absent the endpoint is AWS's own for the region.
public struct ObjectStorageSettings: Sendable, Equatable {
    public var endpoint: String
    public var region: String
    public var credentials: ObjectStorageCredentials

    public init(endpoint: String, region: String, credentials: ObjectStorageCredentials) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
    }

    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` (optional),
    /// `AWS_REGION` or else `AWS_DEFAULT_REGION` (else us-east-1, as the AWS CLI), and
    /// `AWS_ENDPOINT_URL_S3` or else `AWS_ENDPOINT_URL` (else `https://s3.REGION.amazonaws.com`).
    /// The shared files (`~/.aws/credentials`, `config`) are not read yet.
    public static func fromEnvironment(_ environment: [String: String]) throws(ObjectStorageError) -> ObjectStorageSettings {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        guard let accessKeyID = value("AWS_ACCESS_KEY_ID") else { throw .missingSetting(variable: "AWS_ACCESS_KEY_ID") }
        guard let secret = value("AWS_SECRET_ACCESS_KEY") else { throw .missingSetting(variable: "AWS_SECRET_ACCESS_KEY") }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        let given = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") ?? "https://s3.\(region).amazonaws.com"
        var endpoint = given
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        let lowered = endpoint.lowercased()
        let scheme = lowered.hasPrefix("https://") ? "https://" : lowered.hasPrefix("http://") ? "http://" : nil
        guard let scheme, endpoint.count > scheme.count, !endpoint.dropFirst(scheme.count).contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" }) else {
            throw .invalidEndpoint(given)
        }
        let credentials = ObjectStorageCredentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        return ObjectStorageSettings(endpoint: endpoint, region: region, credentials: credentials)
    }
}

/// An access key, its secret and, for temporary credentials, the session token. The
/// description hides the secret and the token, so a settings dump or a log never shows them.
public struct ObjectStorageCredentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "\(accessKeyID) (secret hidden\(sessionToken == nil ? "" : ", session token hidden"))" }
}

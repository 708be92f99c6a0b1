import Foundation

/// Where the objects go and who writes them, read from the standard AWS environment
/// variables and the AWS CLI's shared files, never from the command line (where `ps` and shell
/// history would show the secret). `AWS_ENDPOINT_URL` names an S3-compatible server (SeaweedFS,
/// MinIO, R2, ...); when it is absent the endpoint is AWS's own for the region.
public struct ObjectStorageSettings: Sendable, Equatable {
    public var endpoint: String
    public var region: String
    public var credentials: ObjectStorageCredentials
    /// Where each setting came from, for messages that say what to fix (not compared).
    public var origin: Origin

    /// The variable or file each setting was read from.
    public struct Origin: Sendable {
        public var credentials: String
        public var endpoint: String
        public var region: String

        public init(credentials: String, endpoint: String, region: String) {
            self.credentials = credentials
            self.endpoint = endpoint
            self.region = region
        }
    }

    public init(endpoint: String, region: String, credentials: ObjectStorageCredentials, origin: Origin? = nil) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.origin = origin ?? Origin(credentials: "the credentials given", endpoint: "the endpoint given", region: "the region given")
    }

    public static func == (left: ObjectStorageSettings, right: ObjectStorageSettings) -> Bool {
        left.endpoint == right.endpoint && left.region == right.region && left.credentials == right.credentials
    }

    /// The AWS CLI's order:
    /// - credentials: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`), else
    ///   the profile's `aws_access_key_id`, `aws_secret_access_key`, `aws_session_token` in the
    ///   credentials file, then in the config file;
    /// - region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else us-east-1;
    /// - endpoint: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `s3 = endpoint_url`,
    ///   then `endpoint_url`, else `https://s3.REGION.amazonaws.com`.
    /// The profile is `AWS_PROFILE` (else `default`); the files are found from `HOME` unless
    /// `AWS_SHARED_CREDENTIALS_FILE` / `AWS_CONFIG_FILE` say where.
    public static func fromEnvironment(_ environment: [String: String]) throws(ObjectStorageError) -> ObjectStorageSettings {
        func value(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let files = AWSSharedFiles(environment: environment)
        if files.profileChosen && !files.profileFound && value("AWS_ACCESS_KEY_ID") == nil {
            throw .missingProfile(profile: files.profile, places: files.describedPlaces)
        }
        let credentials: ObjectStorageCredentials
        let credentialsOrigin: String
        if value("AWS_ACCESS_KEY_ID") != nil || files.credential("aws_access_key_id") == nil {
            guard let accessKeyID = value("AWS_ACCESS_KEY_ID") else { throw .missingSetting(variable: "AWS_ACCESS_KEY_ID") }
            guard let secret = value("AWS_SECRET_ACCESS_KEY") else { throw .missingSetting(variable: "AWS_SECRET_ACCESS_KEY") }
            credentials = ObjectStorageCredentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
            credentialsOrigin = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        } else {
            guard let accessKeyID = files.credential("aws_access_key_id"), let secret = files.credential("aws_secret_access_key") else {
                throw .missingProfile(profile: files.profile, places: files.describedPlaces + " (aws_secret_access_key is missing)")
            }
            credentials = ObjectStorageCredentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: files.credential("aws_session_token"))
            credentialsOrigin = files.describedPlaces
        }
        let region: String
        let regionOrigin: String
        if let chosen = value("AWS_REGION") { (region, regionOrigin) = (chosen, "AWS_REGION") }
        else if let chosen = value("AWS_DEFAULT_REGION") { (region, regionOrigin) = (chosen, "AWS_DEFAULT_REGION") }
        else if let chosen = files.setting("region") { (region, regionOrigin) = (chosen, "region of " + files.describedPlaces) }
        else { (region, regionOrigin) = ("us-east-1", "the default region (set AWS_REGION)") }
        let given: String
        let endpointOrigin: String
        if let chosen = value("AWS_ENDPOINT_URL_S3") { (given, endpointOrigin) = (chosen, "AWS_ENDPOINT_URL_S3") }
        else if let chosen = value("AWS_ENDPOINT_URL") { (given, endpointOrigin) = (chosen, "AWS_ENDPOINT_URL") }
        else if let chosen = files.setting("s3.endpoint_url") ?? files.setting("endpoint_url") {
            (given, endpointOrigin) = (chosen, "endpoint_url of " + files.describedPlaces)
        } else {
            (given, endpointOrigin) = ("https://s3.\(region).amazonaws.com", "AWS's endpoint for \(region) (set AWS_ENDPOINT_URL for another server)")
        }
        var endpoint = given
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        let lowered = endpoint.lowercased()
        let scheme = lowered.hasPrefix("https://") ? "https://" : lowered.hasPrefix("http://") ? "http://" : nil
        guard let scheme, endpoint.count > scheme.count, !endpoint.dropFirst(scheme.count).contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" }) else {
            throw .invalidEndpoint(given)
        }
        return ObjectStorageSettings(
            endpoint: endpoint, region: region, credentials: credentials,
            origin: Origin(credentials: credentialsOrigin, endpoint: endpointOrigin, region: regionOrigin))
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

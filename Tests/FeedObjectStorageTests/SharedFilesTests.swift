import FeedObjectStorage
import Foundation
import TestSupport
import Testing

/// Settings from the AWS CLI's shared files, in its order, beside the variables.
@Suite("settings from ~/.aws/credentials and ~/.aws/config")
struct SharedFilesTests {
    private func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("profiles, the config file's region and endpoint, the variables first")
    func readsProfiles() throws {
        let home = try TemporaryDirectory()
        let root = home.url.path
        try write("""
            [default]
            aws_access_key_id = DEFAULTKEY
            aws_secret_access_key = defaultsecret

            # a comment
            [publisher]
            aws_access_key_id=PUBKEY
            aws_secret_access_key=pubsecret
            aws_session_token = pubtoken
            """, root + "/.aws/credentials")
        try write("""
            [default]
            region = eu-west-3
            [profile publisher]
            region = eu-central-1
            s3 =
              endpoint_url = http://127.0.0.1:8333
            [profile config-only]
            aws_access_key_id = CFGKEY
            aws_secret_access_key = cfgsecret
            endpoint_url = https://storage.example:9000/
            """, root + "/.aws/config")

        let byDefault = try ObjectStorageSettings.fromEnvironment(["HOME": root])
        #expect(byDefault == ObjectStorageSettings(
            endpoint: "https://s3.eu-west-3.amazonaws.com", region: "eu-west-3", credentials: .init(accessKeyID: "DEFAULTKEY", secretAccessKey: "defaultsecret")))
        #expect(byDefault.origin.credentials.contains("profile \"default\" in \(root)/.aws/credentials"))

        let publisher = try ObjectStorageSettings.fromEnvironment(["HOME": root, "AWS_PROFILE": "publisher"])
        #expect(publisher == ObjectStorageSettings(
            endpoint: "http://127.0.0.1:8333", region: "eu-central-1",
            credentials: .init(accessKeyID: "PUBKEY", secretAccessKey: "pubsecret", sessionToken: "pubtoken")))
        #expect(publisher.origin.endpoint.hasPrefix("endpoint_url of profile \"publisher\""))

        let configOnly = try ObjectStorageSettings.fromEnvironment(["HOME": root, "AWS_PROFILE": "config-only"])
        #expect(configOnly.credentials.accessKeyID == "CFGKEY")
        #expect(configOnly.endpoint == "https://storage.example:9000")
        #expect(configOnly.region == "us-east-1")

        // The variables win over the files, each setting on its own.
        let mixed = try ObjectStorageSettings.fromEnvironment([
            "HOME": root, "AWS_PROFILE": "publisher", "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "envsecret",
            "AWS_DEFAULT_REGION": "ap-south-1", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9",
        ])
        #expect(mixed == ObjectStorageSettings(
            endpoint: "http://127.0.0.1:9", region: "ap-south-1", credentials: .init(accessKeyID: "ENVKEY", secretAccessKey: "envsecret")))
        #expect(mixed.origin.credentials == "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")

        // Files moved by their variables, "~" meaning HOME.
        try write("[default]\naws_access_key_id = MOVED\naws_secret_access_key = movedsecret\n", root + "/elsewhere/creds")
        let moved = try ObjectStorageSettings.fromEnvironment([
            "HOME": root, "AWS_SHARED_CREDENTIALS_FILE": "~/elsewhere/creds", "AWS_CONFIG_FILE": root + "/none",
        ])
        #expect(moved.credentials.accessKeyID == "MOVED")
        #expect(moved.region == "us-east-1")
    }

    @Test("a profile that is not there, or has no secret, is refused by name")
    func refusesMissingProfiles() throws {
        let home = try TemporaryDirectory()
        let root = home.url.path
        try write("[halfway]\naws_access_key_id = KEY\n", root + "/.aws/credentials")
        let error = try #require(throws: ObjectStorageError.self) {
            try ObjectStorageSettings.fromEnvironment(["HOME": root, "AWS_PROFILE": "nobody"])
        }
        #expect(error == .missingProfile(profile: "nobody", places: "profile \"nobody\" in \(root)/.aws/credentials and \(root)/.aws/config"))
        #expect(error.description.contains("AWS_PROFILE"))
        let half = try #require(throws: ObjectStorageError.self) {
            try ObjectStorageSettings.fromEnvironment(["HOME": root, "AWS_PROFILE": "halfway"])
        }
        #expect(half.description.contains("aws_secret_access_key"))
        // No variables and no files: the variable to set is named.
        #expect(throws: ObjectStorageError.missingSetting(variable: "AWS_ACCESS_KEY_ID")) {
            try ObjectStorageSettings.fromEnvironment(["HOME": root + "/no-such-home"])
        }
    }
}

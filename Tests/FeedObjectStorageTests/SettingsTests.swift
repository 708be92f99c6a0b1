import FeedObjectStorage
import Testing

@Suite("settings from the standard AWS variables")
struct SettingsTests {
    @Test("the credentials, region and endpoint come from the environment, with the AWS CLI's fallbacks")
    func readsTheVariables() throws {
        let full = try ObjectStorageSettings.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "AKIA", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
            "AWS_REGION": "eu-west-3", "AWS_DEFAULT_REGION": "us-west-2", "AWS_ENDPOINT_URL": "http://127.0.0.1:8333/",
        ])
        #expect(full == ObjectStorageSettings(
            endpoint: "http://127.0.0.1:8333", region: "eu-west-3",
            credentials: .init(accessKeyID: "AKIA", secretAccessKey: "secret", sessionToken: "token")))

        let fallback = try ObjectStorageSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "AKIA", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_DEFAULT_REGION": "us-west-2"])
        #expect(fallback.region == "us-west-2")
        #expect(fallback.endpoint == "https://s3.us-west-2.amazonaws.com")
        #expect(fallback.credentials.sessionToken == nil)

        let s3Specific = try ObjectStorageSettings.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL": "http://general:1", "AWS_ENDPOINT_URL_S3": "https://s3only:2",
        ])
        #expect(s3Specific.endpoint == "https://s3only:2")
        #expect(s3Specific.region == "us-east-1")
    }

    @Test("a missing credential or an endpoint that is not an http(s) origin is refused by name")
    func refusesIncompleteSettings() {
        #expect(throws: ObjectStorageError.missingSetting(variable: "AWS_ACCESS_KEY_ID")) {
            try ObjectStorageSettings.fromEnvironment(["AWS_SECRET_ACCESS_KEY": "s"])
        }
        #expect(throws: ObjectStorageError.missingSetting(variable: "AWS_SECRET_ACCESS_KEY")) {
            try ObjectStorageSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "  "])
        }
        for endpoint in ["ftp://host", "host:8333", "http://", "http://host/path", "http://user@host", "file:///etc"] {
            #expect(throws: ObjectStorageError.invalidEndpoint(endpoint)) {
                try ObjectStorageSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL": endpoint])
            }
        }
    }

    @Test("the secret and the session token never appear in a description")
    func hidesSecrets() throws {
        let settings = try ObjectStorageSettings.fromEnvironment(["AWS_ACCESS_KEY_ID": "AKIA", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "t0k3n"])
        for text in ["\(settings)", "\(settings.credentials)", String(reflecting: settings.credentials)] {
            #expect(!text.contains("s3cr3t"))
            #expect(!text.contains("t0k3n"))
        }
    }
}

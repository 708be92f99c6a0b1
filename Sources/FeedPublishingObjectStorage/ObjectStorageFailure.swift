import FeedObjectStorage
import FeedPublishing

/// An object-storage failure as the publication reports it: the kind decides the exit status
/// (``TargetFailure``), the words name the bucket, the endpoint, and the AWS variable or file
/// an operator changes to fix it.
struct ObjectStorageFailure {
    let location: ObjectStorageLocation
    let settings: ObjectStorageSettings
    let retry: RetryPolicy

    func publishError(_ error: ObjectStorageError) -> PublishError {
        let endpoint = settings.endpoint
        let origin = settings.origin
        switch error {
        case .wrongCredentials(let code, let message):
            return target(
                "\(endpoint) refused the credentials of \(origin.credentials) (\(code)\(message.isEmpty ? "" : ": \(message)")); "
                    + "fix AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile in ~/.aws/credentials (AWS_PROFILE)", .denied)
        case .accessDenied(let key, let message):
            return target(
                "access to \(key) in the bucket \"\(location.bucket)\" at \(endpoint) was denied (\(message)) for the credentials of "
                    + "\(origin.credentials); they need s3:ListBucket, s3:GetObject, s3:PutObject and s3:DeleteObject on it "
                    + "(docs/s3-object-storage.md)", .denied)
        case .missingSetting, .missingProfile:
            return target("\(error.description)", .denied)
        case .missingBucket(let bucket):
            return target(
                "the bucket \"\(bucket)\" does not exist at \(endpoint) (the endpoint from \(origin.endpoint)); create it, "
                    + "or fix the bucket in --out or the endpoint", .missing)
        case .network(_, let curlCode, let message):
            return target(
                "\(endpoint) did not answer: \(message) (curl \(curlCode)) after \(retry.maxAttempts) tries; check the endpoint "
                    + "(from \(origin.endpoint); AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL or endpoint_url in ~/.aws/config)", .unreachable)
        case .server(let status, let code, let message) where status == 429 || status >= 500:
            return target(
                "\(endpoint) kept answering \(status) \(code)\(message.isEmpty ? "" : ": \(message)") after \(retry.maxAttempts) tries "
                    + "for the bucket \"\(location.bucket)\"; try again later", .unreachable)
        case .invalidEndpoint(let given):
            return target("the endpoint \"\(given)\" (from \(origin.endpoint)) is not an http(s) URL with a host", .other)
        default:
            return target("\(error.description) (bucket \"\(location.bucket)\" at \(endpoint))", .other)
        }
    }

    private func target(_ reason: String, _ kind: TargetFailure) -> PublishError {
        .target(location: location.description, reason: reason, kind: kind)
    }
}

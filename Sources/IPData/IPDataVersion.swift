/// The version of this SDK.
public enum IPDataVersion {
    /// The release this source belongs to, for example `1.0.2`. It matches the version in the
    /// README's installation snippet (a test checks that) and is sent as `User-Agent: ipdata-swift/<version>`.
    public static let current = "1.0.2"
}

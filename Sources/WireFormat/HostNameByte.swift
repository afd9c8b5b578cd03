/// The bytes of a DNS host name in its ASCII form: letters, digits, `-` and `.`, with an international name in its
/// `xn--` form (RFC 1123 §2.1, RFC 5890 §2.3.2.1).
///
/// None of them has a meaning of its own in a URL, an HTTP field, a `Content-Security-Policy` or an HTML attribute.
package enum HostNameByte {
    /// Whether `byte` may stand in a host name.
    @inlinable
    package static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}

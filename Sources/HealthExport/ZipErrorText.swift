import CLibArchive

/// libarchive's message for the last error of the zip reader `archive`, or `fallback` when it
/// set none (some damaged zips, a zip64 end-of-central-directory record with one byte changed
/// or a zip cut short after a local header, fail with a NULL message, and `String(cString:)`
/// on it trapped).
func zipErrorText(_ archive: OpaquePointer, fallback: String = "the archive is damaged or truncated") -> String {
    guard let message = archive_error_string(archive) else { return fallback }
    let text = String(cString: message)
    return text.isEmpty ? fallback : text
}

extension ExportReader {
    /// The export file `read` takes from an unzipped folder (the first `.xml` file within two
    /// levels, in name order, that starts like a Health export), or nil when there is none.
    /// For callers that need to tell whether that file changed (a batch's status records).
    public static func exportFile(inFolder folder: String) -> String? {
        findExportFile(inDirectory: folder)
    }
}

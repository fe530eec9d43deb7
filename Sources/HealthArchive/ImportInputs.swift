import HealthExport

/// The inputs of `import`: what `report` takes (zip, XML, an unzipped export folder, `-`), and
/// folders of exports.
public enum ImportInputs {
    /// The exports an argument names, in the order they are imported.
    ///
    /// A folder with an XML file of its own, or a folder with a single subfolder and no zip, is
    /// one unzipped export (the reader finds the XML two levels deep). Any other folder is a
    /// folder of exports: its `.zip` files and its subfolders, each one input, in name order
    /// (`__MACOSX` and hidden entries skipped). Everything else is one input.
    public static func expand(_ argument: String) -> [ExportInput] {
        guard argument != "-" else { return [.standardInput] }
        guard isDirectory(argument) else { return [.path(argument)] }
        let entries = names(in: argument)
        let xml = entries.filter { $0.lowercased().hasSuffix(".xml") && !isDirectory(join(argument, $0)) }
        let zips = entries.filter { $0.lowercased().hasSuffix(".zip") && !isDirectory(join(argument, $0)) }
        let folders = entries.filter { isDirectory(join(argument, $0)) }
        if !xml.isEmpty || (zips.isEmpty && folders.count <= 1) { return [.path(argument)] }
        return (zips + folders).sorted().map { .path(join(argument, $0)) }
    }

    private static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    private static func isDirectory(_ path: String) -> Bool {
        ArchivePlatform.status(path)?.isDirectory == true
    }

    private static func names(in dir: String) -> [String] {
        ArchivePlatform.folderEntries(dir).filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }.sorted()
    }
}

import Foundation
import HealthExport
import TestSupport
import Testing

/// Route files that an attacker or an unlucky user put in `workout-routes/`.
@Suite("Hostile route files")
struct HostileRouteFileTests {
    /// A fresh unzipped export (`<dir>/apple_health_export/` with an export.xml and an empty
    /// `workout-routes/`); returns the export folder.
    static func unzippedExport() throws -> URL {
        let dir = try TestScratch.folder("ha-routes")
        let export = dir.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(
            at: export.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try Data("<HealthData/>".utf8).write(to: export.appendingPathComponent("export.xml"))
        return export
    }

    /// `<ele>1e301</ele>` on line 4: on main its rise made a 302-digit `route_elevation_gain_m`.
    /// An elevation beyond ±3.4e38 m (the bound a record's value has) refuses the file, naming
    /// the line and the value; the file's other route values are not used either.
    @Test func anElevationOf1e301IsRefusedWithItsLine() throws {
        let gpx = """
            <gpx><trk><trkseg>
            <trkpt lat="0" lon="0"><ele>10</ele></trkpt>
            <trkpt lat="0.001" lon="0"><ele>12</ele></trkpt>
            <trkpt lat="0.002" lon="0"><ele>1e301</ele></trkpt>
            </trkseg></trk></gpx>
            """
        do {
            let s = try RouteSummary.read(gpx: Array(gpx.utf8), name: "r.gpx")
            Issue.record("read as \(s)")
        } catch {
            #expect(error == .implausible(file: "r.gpx", line: 4, message: "elevation 1e301 m is beyond ±3.4e38"))
            #expect(error.description == "r.gpx: line 4: implausible value: elevation 1e301 m is beyond ±3.4e38")
        }
        // 3.4e38 itself is within the bound: rises of 2 m and 3.4e38 − 12 m, 3.4e38 in a Double.
        let edge = gpx.replacingOccurrences(of: "1e301", with: "3.4e38")
        #expect(try RouteSummary.read(gpx: Array(edge.utf8), name: "r.gpx").elevationGainM == 3.4e38)
    }

    /// A FIFO named `*.gpx`: on main a blocking `open()` waited for a writer that never comes
    /// (this test then fails at its time limit). It is refused as not a regular file. The limit
    /// covers making the unzipped export too, which took over a minute on a machine at load 20.
    @Test(.timeLimit(.minutes(5))) func aFIFOIsNotARouteFile() throws {
        let export = try Self.unzippedExport()
        let fifo = export.appendingPathComponent("workout-routes/route_a.gpx")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let index = try #require(RouteFileIndex.read(.path(export.path)))
        #expect(
            index.files["/workout-routes/route_a.gpx"]
                == .failure(.unreadable(file: fifo.path, reason: "not a regular file")))
    }

    /// A link in `workout-routes/` to a GPX file outside the export folder: on main it was
    /// read. A link to a file inside the export folder is still read.
    @Test func aLinkToARouteOutsideTheExportIsNotRead() throws {
        let export = try Self.unzippedExport()
        let routes = export.appendingPathComponent("workout-routes")
        let gpx = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let outside = export.deletingLastPathComponent().appendingPathComponent("secret.gpx")
        try Data(gpx.utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: routes.appendingPathComponent("route_out.gpx"), withDestinationURL: outside)
        let inside = export.appendingPathComponent("kept.gpx")
        try Data(gpx.utf8).write(to: inside)
        try FileManager.default.createSymbolicLink(
            at: routes.appendingPathComponent("route_in.gpx"), withDestinationURL: inside)
        for input in [export.path, export.deletingLastPathComponent().path, export.path + "/export.xml"] {
            let index = try #require(RouteFileIndex.read(.path(input)))
            let root =
                input.hasSuffix("export.xml") || input == export.path ? export : export.deletingLastPathComponent()
            if root == export {
                guard case .failure(.unreadable(_, let reason)) = index.files["/workout-routes/route_out.gpx"] else {
                    Issue.record("\(input): \(String(describing: index.files["/workout-routes/route_out.gpx"]))")
                    continue
                }
                #expect(reason.contains("outside the export folder"), "\(input): \(reason)")
            }
            #expect((try? index.files["/workout-routes/route_in.gpx"]?.get())?.pointCount == 1, "\(input)")
        }
    }
}

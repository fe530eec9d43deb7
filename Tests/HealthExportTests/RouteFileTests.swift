import Foundation
import HealthExport
import Testing

@Suite("Workout route files (GPX)")
struct RouteFileTests {
    /// Three points 0.001° of latitude apart on the prime meridian, then a second segment of two
    /// points 0.001° of longitude apart on the equator.
    ///
    /// One step along a meridian is R·Δφ = 6 371 008.8 m × 0.001 × π / 180 = 111.1950 m, and
    /// along the equator the same; the jump between the segments is not counted, so the
    /// distance is 3 steps = 333.585 m. Elevation 10 → 15 → 12 rises 5 m, the second segment
    /// 100 → 101.5 rises 1.5 m (the drop to 12 and the jump to 100 across segments do not count):
    /// 6.5 m.
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
         <metadata><time>2025-10-01T16:15:00Z</time></metadata>
         <trk><name>Route 2025-10-01 6:15pm</name><trkseg>
          <trkpt lon="0.000000" lat="0.000000"><ele>10.0</ele><time>2025-10-01T16:15:00Z</time>
           <extensions><speed>2.1</speed><course>0</course><hAcc>3.5</hAcc><vAcc>2.0</vAcc></extensions></trkpt>
          <trkpt lon="0.000000" lat="0.001000"><ele> 15.0 </ele><time>2025-10-01T16:15:50Z</time></trkpt>
          <trkpt lon="0.000000" lat="0.002000"><ele>12</ele></trkpt>
          <trkpt lon="x" lat="0.003000"><ele>50</ele></trkpt>
         </trkseg><trkseg>
          <trkpt lon="10.000000" lat="0.000000"><ele>100</ele></trkpt>
          <trkpt lon="10.001000" lat="0.000000"><ele>101.5</ele></trkpt>
         </trkseg></trk>
        </gpx>
        """

    @Test func countsPointsDistanceAndElevationGain() throws {
        let s = try RouteSummary.read(gpx: Array(Self.gpx.utf8), name: "route.gpx")
        // The point with lon="x" is not a point: 5 of 6.
        #expect(s.pointCount == 5)
        #expect(abs(s.distanceKm - 0.333585) < 0.000005)
        #expect(abs(s.elevationGainM! - 6.5) < 1e-9)
    }

    @Test func aRouteWithoutElevationsHasNoGain() throws {
        let gpx = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let s = try RouteSummary.read(gpx: Array(gpx.utf8), name: "r.gpx")
        #expect(s.pointCount == 2 && s.distanceKm == 0 && s.elevationGainM == nil)
    }

    @Test func aBrokenFileNamesItsLine() {
        let gpx = "<gpx>\n<trk>\n<trkseg><trkpt lat=\"1\" lon=\"2\">\n</trk></gpx>"
        #expect(throws: RouteFileError.self) { try RouteSummary.read(gpx: Array(gpx.utf8), name: "r.gpx") }
        do {
            _ = try RouteSummary.read(gpx: Array(gpx.utf8), name: "r.gpx")
        } catch {
            guard case .notWellFormed(let file, let line, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == "r.gpx" && line == 4)
            #expect(error.description.hasPrefix("r.gpx: line 4: not well-formed GPX"))
        }
        #expect(throws: RouteFileError.self) { try RouteSummary.read(gpx: [], name: "empty.gpx") }
    }

    @Test func readsTheRoutesInsideTheZipByTheirReferencedPath() throws {
        let zip = try makeZip([
            ("apple_health_export/", []),
            ("apple_health_export/export.xml", Array("<HealthData/>".utf8)),
            ("apple_health_export/workout-routes/", []),
            ("apple_health_export/workout-routes/route_2025-10-01_6.15pm.gpx", Array(Self.gpx.utf8)),
            ("apple_health_export/workout-routes/route_2025-10-02_7.00am.gpx", Array("<gpx><trk>".utf8)),
            ("__MACOSX/apple_health_export/workout-routes/._route_2025-10-01_6.15pm.gpx", [0, 5, 22, 7]),
        ])
        let index = try #require(RouteFileIndex.read(.path(zip)))
        #expect(index.files.count == 2)
        let good = try #require(index.files["/workout-routes/route_2025-10-01_6.15pm.gpx"]).get()
        #expect(good.pointCount == 5)
        let bad = try #require(index.files["/workout-routes/route_2025-10-02_7.00am.gpx"])
        #expect(throws: RouteFileError.self) { try bad.get() }
    }

    @Test func readsTheRoutesBesideAnUnzippedExport() throws {
        let dir = URL(fileURLWithPath: try temporaryFile([], name: "placeholder")).deletingLastPathComponent()
        let routes = dir.appendingPathComponent("apple_health_export/workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        try Data(Self.gpx.utf8).write(to: routes.appendingPathComponent("route_2025-10-01_6.15pm.gpx"))
        try Data("<HealthData/>".utf8).write(to: dir.appendingPathComponent("apple_health_export/export.xml"))
        for input in [dir.path, dir.path + "/apple_health_export", dir.path + "/apple_health_export/export.xml"] {
            let index = RouteFileIndex.read(.path(input))
            #expect(index?.files.count == 1, "\(input)")
            #expect((try? index?.files["/workout-routes/route_2025-10-01_6.15pm.gpx"]?.get())?.pointCount == 5)
        }
        // Nowhere to look: standard input, or an export.xml without a workout-routes folder.
        #expect(RouteFileIndex.read(.standardInput) == nil)
        let bare = try temporaryFile("<HealthData/>")
        #expect(RouteFileIndex.read(.path(bare)) == nil)
    }
}

#!/usr/bin/env python3
"""Seed zips for the zip_path fuzz target, written by scripts/fuzz; not part of the package.

    zip_seeds.py OUT_DIR XML... [--gpx GPX...]

For each export XML: a stored zip, a deflated zip, a zip64 one (0xFFFFFFFF in the headers, the
sizes and offsets in zip64 extra fields, a zip64 end record and locator), one with data
descriptors, one with decoys before the export (an AppleDouble `._` file under __MACOSX, a folder
entry, export_cda.xml, an entry too deep, a non-export .xml), one with a workout naming a route
and that route in workout-routes/ (each GPX seed in turn; stored and zip64), one whose export
sits at the top level, and one with every number of the export at an extreme but finite value
beside an entry named with escape sequences. Only the smallest exports are used whole; the zips stay below the
fuzzer's -max_len.
"""
import os
import struct
import sys
import zlib

MAX = int(os.environ.get("ZIP_SEEDS_MAX", "24000"))


def make_zip(entries, zip64=False, descriptors=False, deflate=False):
    """entries: [(name, bytes)]; names ending in '/' are folders."""
    out = bytearray()
    local = []
    meta = []
    for name, data in entries:
        raw = name.encode()
        crc = zlib.crc32(data) & 0xFFFFFFFF
        method = 8 if deflate and data else 0
        if method == 8:
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            body = c.compress(data) + c.flush()
        else:
            body = data
        meta.append((raw, crc, method, len(body), len(data)))
        local.append(len(out))
        flags = 0x0800 | (0x0008 if descriptors else 0)
        extra = struct.pack("<HHQQ", 1, 16, len(data), len(body)) if zip64 else b""
        csize = 0xFFFFFFFF if zip64 else len(body)
        usize = 0xFFFFFFFF if zip64 else len(data)
        if descriptors:
            crc_l, csize, usize = 0, 0, 0
        else:
            crc_l = crc
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if zip64 else 20, flags, method, 0x6000, 0x5B8F,
                           crc_l, csize, usize, len(raw), len(extra))
        out += raw + extra + body
        if descriptors:
            if zip64:
                out += struct.pack("<IIQQ", 0x08074B50, crc, len(body), len(data))
            else:
                out += struct.pack("<IIII", 0x08074B50, crc, len(body), len(data))
    start = len(out)
    for k, (raw, crc, method, clen, ulen) in enumerate(meta):
        extra = struct.pack("<HHQQQ", 1, 24, ulen, clen, local[k]) if zip64 else b""
        mode = (0o040755 if raw.endswith(b"/") else 0o100644) << 16
        out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | (45 if zip64 else 20), 45 if zip64 else 20,
                           0x0800 | (0x0008 if descriptors else 0), method, 0x6000, 0x5B8F, crc,
                           0xFFFFFFFF if zip64 else clen, 0xFFFFFFFF if zip64 else ulen, len(raw), len(extra), 0, 0, 0,
                           mode, 0xFFFFFFFF if zip64 else local[k])
        out += raw + extra
    size = len(out) - start
    n = len(entries)
    if zip64:
        end64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, (3 << 8) | 45, 45, 0, 0, n, n, size, start)
        out += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF if zip64 else n, 0xFFFF if zip64 else n,
                       0xFFFFFFFF if zip64 else size, 0xFFFFFFFF if zip64 else start, 0)
    return bytes(out)


def naming(route):
    return ('<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" '
            'sourceName="W" sourceVersion="11.1" creationDate="2025-10-01 18:40:00 +0200" '
            'startDate="2025-10-01 18:05:00 +0200" endDate="2025-10-01 18:35:00 +0200">\n'
            ' <WorkoutRoute sourceName="W" sourceVersion="11.1" creationDate="2025-10-01 18:40:00 +0200" '
            'startDate="2025-10-01 18:05:00 +0200" endDate="2025-10-01 18:35:00 +0200">\n'
            '  <FileReference path="/workout-routes/%s"/>\n </WorkoutRoute>\n</Workout>\n' % route).encode()


EXTREMES = [b"1e16", b"9007199254740993", b"1.7976931348623157e308", b"-1.7976931348623157e308", b"3.4e38",
            b"5e-324", b"4611686018427387904", b"999999999999999999"]


def extreme_values(xml, k):
    """xml with every numeric value, duration, totalDistance and totalEnergyBurned attribute set to
    one of EXTREMES (in turn, starting at k)."""
    import re
    n = [k]

    def swap(m):
        n[0] += 1
        return m.group(1) + EXTREMES[n[0] % len(EXTREMES)] + b'"'
    return re.sub(rb'( (?:value|duration|totalDistance|totalEnergyBurned)=")-?[0-9][^"]*"', swap, xml)


def main():
    args = sys.argv[1:]
    out_dir = args.pop(0)
    gpx = []
    if "--gpx" in args:
        i = args.index("--gpx")
        gpx = [open(p, "rb").read() for p in args[i + 1:]]
        args = args[:i]
    os.makedirs(out_dir, exist_ok=True)
    exports = [(os.path.basename(p), open(p, "rb").read()) for p in args]
    exports = [(n, x) for n, x in exports if len(x) < MAX // 2]
    written = 0

    def put(label, data):
        nonlocal written
        if len(data) <= MAX:
            with open(os.path.join(out_dir, label + ".zip"), "wb") as f:
                f.write(data)
            written += 1

    decoys = [("__MACOSX/apple_health_export/._export.xml", bytes([0, 5, 22, 7, 0, 2])),
              ("apple_health_export/", b""),
              ("apple_health_export/export_cda.xml", b"<ClinicalDocument/>\n"),
              ("a/b/c/apple_health_export/export.xml", b"<HealthData/>\n"),
              ("apple_health_export/notes.xml", b"<?xml version=\"1.0\"?><notes/>\n")]
    for k, (name, xml) in enumerate(exports):
        base = os.path.splitext(name)[0]
        entry = "apple_health_export/export.xml"
        put(base + "-stored", make_zip([(entry, xml)]))
        put(base + "-deflated", make_zip([(entry, xml)], deflate=True))
        put(base + "-zip64", make_zip([(entry, xml)], zip64=True))
        put(base + "-descriptors", make_zip([(entry, xml)], descriptors=(k % 2 == 0), zip64=(k % 2 == 1)))
        put(base + "-decoys", make_zip(decoys + [("apple_health_export/Exportar.xml", xml)], zip64=(k % 3 == 0)))
        put(base + "-top", make_zip([("export.xml", xml)], deflate=(k % 2 == 0)))
        # Every quantity at an extreme but finite value (past 2^53, the largest double, past the
        # 32-bit float, a subnormal), and an entry name with escape sequences beside it.
        put(base + "-extreme", make_zip([(entry, extreme_values(xml, k)),
                                         ("apple_health_export/\x1b]0;t\x07\x1b[2J.xml", b"<x/>\n")]))
        # The export saved as UTF-16 (the reader must name it, not say "no XML entry"), and
        # source names of 4 KiB, past the 1,024 bytes a name is kept to (docs/export-format.md §8).
        put(base + "-utf16", make_zip([(entry, xml.decode("utf-8", "replace").encode("utf-16"))]))
        long_names = xml.replace(b'sourceName="', b'sourceName="' + bytes([65 + k % 26]) * 4096)
        if long_names != xml:
            put(base + "-long-names", make_zip([(entry, long_names)], deflate=True))
        if gpx and b"</HealthData>" in xml:
            route = "route_2025-10-01_6.05pm.gpx"
            cut = xml.rindex(b"</HealthData>")
            with_route = xml[:cut] + naming(route) + xml[cut:]
            g = gpx[k % len(gpx)]
            put(base + "-route", make_zip([(entry, with_route), ("apple_health_export/workout-routes/" + route, g)],
                                          zip64=(k % 2 == 1), deflate=(k % 3 == 2)))
    # The routes alone and a zip with no export, for RouteFileIndex and the "no export" message.
    for k, g in enumerate(gpx):
        put("routes-only-%d" % k, make_zip([("apple_health_export/workout-routes/route_%d.gpx" % k, g),
                                           ("apple_health_export/workout-routes/._route_%d.gpx" % k, b"\0\5")]))
    put("no-export", make_zip(decoys[:3]))
    put("empty-zip", make_zip([]))
    print("zip_seeds: %d zips in %s" % (written, out_dir), file=sys.stderr)


main()

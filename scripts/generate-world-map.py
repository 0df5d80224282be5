#!/usr/bin/env python3
"""Writes CLI/Sources/ipdata-cli/Summarize/WorldMap.swift: the country shapes of the HTML report.

Source: Natural Earth's 1:110m Admin 0 countries (public domain, naturalearthdata.com), as the
geopandas 0.14.4 wheel on PyPI ships it (geopandas/datasets/naturalearth_lowres: NAME, ISO_A3
and the polygons, WGS 84). Its ISO 3166-1 alpha-3 codes become alpha-2 through Debian's
iso-codes table (/usr/share/iso-codes/json/iso_3166-1.json; the codes are ISO's; only the
alpha-2 codes reach the output). Shapes without an ISO code (Kosovo is XK, as ipdata has it;
Northern Cyprus and Somaliland have none) keep their name and no code.

The rings are projected with the Natural Earth projection (Savric, Jenny, Patterson, Petrovic
and Hurni, 2011), scaled to a 1000-unit wide view box, rounded to tenths and thinned (a point
closer than 0.6 units to the last one kept is dropped), and written as SVG path data.

Standard library only. Usage:
    python3 scripts/generate-world-map.py [GEOPANDAS_WHEEL]
Without the wheel it runs `pip download --no-deps geopandas==0.14.4` into a temporary folder.
"""

import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "CLI", "Sources", "ipdata-cli", "Summarize", "WorldMap.swift")
ISO_TABLE = "/usr/share/iso-codes/json/iso_3166-1.json"
DATASET = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
WIDTH = 1000.0
MIN_STEP = 0.6
# Shapes whose ISO_A3 is -99 but that ipdata answers with a code: Kosovo (XK, user-assigned).
EXTRA_CODES = {"Kosovo": "XK"}


def wheel_path(argv):
    if len(argv) > 1:
        return argv[1]
    folder = tempfile.mkdtemp()
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "geopandas==0.14.4", "-d", folder],
        check=True,
    )
    return os.path.join(folder, os.listdir(folder)[0])


def read_dbf(data, encoding):
    """The records of a dBase III table, each a dict of its fields' text."""
    count, header_length, record_length = struct.unpack("<IHH", data[4:12])
    fields, offset = [], 32
    while data[offset] != 0x0D:
        name = data[offset : offset + 11].split(b"\0")[0].decode("ascii")
        fields.append((name, data[offset + 16]))
        offset += 32
    records = []
    for index in range(count):
        start = header_length + index * record_length + 1
        record = {}
        for name, length in fields:
            record[name] = data[start : start + length].decode(encoding).strip()
            start += length
        records.append(record)
    return records


def read_shp(data):
    """The polygons of an ESRI shapefile, each a list of rings of (longitude, latitude)."""
    shapes, offset = [], 100
    while offset < len(data):
        _, words = struct.unpack(">ii", data[offset : offset + 8])
        content = data[offset + 8 : offset + 8 + words * 2]
        offset += 8 + words * 2
        kind = struct.unpack("<i", content[:4])[0]
        if kind == 0:
            shapes.append([])
            continue
        assert kind == 5, f"polygon expected, got shape type {kind}"
        parts, points = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack(f"<{parts}i", content[44 : 44 + 4 * parts])) + [points]
        base = 44 + 4 * parts
        coordinates = struct.unpack(f"<{2 * points}d", content[base : base + 16 * points])
        pairs = list(zip(coordinates[0::2], coordinates[1::2]))
        shapes.append([pairs[starts[i] : starts[i + 1]] for i in range(parts)])
    return shapes


def natural_earth(longitude, latitude):
    """The Natural Earth projection of a point in degrees, in units of the sphere's radius."""
    lam, phi = math.radians(longitude), math.radians(latitude)
    p2 = phi * phi
    p4 = p2 * p2
    x = lam * (0.8707 - 0.131979 * p2 + p4 * (-0.013791 + p4 * (0.003971 * p2 - 0.001529 * p4)))
    y = phi * (1.007226 + p2 * (0.015085 + p4 * (-0.044475 + 0.028874 * p2 - 0.005916 * p4)))
    return x, y


def main(argv):
    with zipfile.ZipFile(wheel_path(argv)) as wheel:
        shp = wheel.read(DATASET + ".shp")
        dbf = wheel.read(DATASET + ".dbf")
        encoding = wheel.read(DATASET + ".cpg").decode("ascii").strip() or "latin-1"
    records = read_dbf(dbf, "latin-1" if encoding.upper() == "ISO-8859-1" else encoding)
    shapes = read_shp(shp)
    with open(ISO_TABLE, encoding="utf-8") as table:
        alpha2 = {entry["alpha_3"]: entry["alpha_2"] for entry in json.load(table)["3166-1"]}

    x_max, _ = natural_earth(180, 0)
    _, y_max = natural_earth(0, 90)
    scale = WIDTH / (2 * x_max)
    height = round(2 * y_max * scale)

    def point(longitude, latitude):
        x, y = natural_earth(longitude, latitude)
        return round((x + x_max) * scale, 1), round((y_max - y) * scale, 1)

    lines = []
    for record, rings in zip(records, shapes):
        pieces = []
        for ring in rings:
            kept = []
            for longitude, latitude in ring:
                p = point(longitude, latitude)
                if kept and math.dist(p, kept[-1]) < MIN_STEP:
                    continue
                kept.append(p)
            if len(kept) < 4:
                continue
            text = "M%g %g" % kept[0]
            last = kept[0]
            for p in kept[1:]:
                # Both ends are in tenths, so the step is exact in tenths: no drift along the ring.
                text += "l%g %g" % (round(p[0] - last[0], 1), round(p[1] - last[1], 1))
                last = p
            pieces.append(text + "z")
        if not pieces:
            continue
        code = alpha2.get(record["iso_a3"], EXTRA_CODES.get(record["name"], ""))
        name = record["name"].replace("\t", " ")
        lines.append(f"{code}\t{name}\t{''.join(pieces)}")
    lines.sort()

    out = io.StringIO()
    out.write("// swift-format-ignore-file\n")
    out.write("// Generated by scripts/generate-world-map.py: do not edit.\n")
    out.write("//\n")
    out.write("// Country shapes: Natural Earth, 1:110m Admin 0 countries, public domain\n")
    out.write("// (naturalearthdata.com: \"All versions of Natural Earth raster + vector map data found on\n")
    out.write("// this website are in the public domain.\"), as the geopandas 0.14.4 wheel ships them\n")
    out.write("// (geopandas/datasets/naturalearth_lowres). ISO 3166-1 alpha-2 codes from the alpha-3 codes\n")
    out.write("// through Debian's iso-codes table; Kosovo as XK. Natural Earth projection.\n\n")
    out.write("/// The world map of the HTML report: one SVG path per country, keyed by ISO 3166-1 alpha-2.\n")
    out.write("enum WorldMap {\n")
    out.write("    /// The SVG view box the paths are drawn in.\n")
    out.write(f'    static let viewBox = "0 0 {int(WIDTH)} {height}"\n\n')
    out.write("    /// One country a line: its alpha-2 code (empty for a shape ISO has no code for), a tab,\n")
    out.write("    /// its name, a tab, and its SVG path data.\n")
    out.write('    static let countryLines = #"""\n')
    for line in lines:
        out.write("    " + line + "\n")
    out.write('    """#\n')
    out.write("}\n")
    with open(OUTPUT, "w", encoding="utf-8") as file:
        file.write(out.getvalue())
    print(f"{OUTPUT}: {len(lines)} shapes, {len(out.getvalue().encode())} bytes")


if __name__ == "__main__":
    main(sys.argv)

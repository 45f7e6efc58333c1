#!/usr/bin/env python3
"""svgcheck: does ior's flamegraph SVG hold exactly the frames of some
folded stacks?

usage: svgcheck.py SVG TITLE < FOLDED

FOLDED is the expected `ior collapsed` output ("a;b;c COUNT" lines). Every
prefix of a stack is one frame (depth, name, width = the sum of the counts
under it), under a root frame "all" with the total. The SVG must be XML, show
TITLE in its #title element and hold exactly those frames: each frame is a
<g data-x data-w data-d> whose <title> starts with "NAME\\n". Prints one line
per difference and exits 1; prints nothing and exits 0 when they agree.
"""
import collections
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"


def expected_frames(lines):
    frames = collections.Counter()
    total = 0
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        count = int(count)
        total += count
        names = stack.split(";")
        for depth in range(1, len(names) + 1):
            frames[(depth, tuple(names[:depth]))] += count
    out = collections.Counter({(0, "all", total): 1})
    for (depth, path), width in frames.items():
        out[(depth, path[-1], width)] += 1
    return out


def svg_frames(root):
    out = collections.Counter()
    for g in root.iter(SVG_NS + "g"):
        if g.get("data-d") is None:
            continue
        title = g.find(SVG_NS + "title")
        name = (title.text or "").rsplit("\n", 1)[0] if title is not None else None
        out[(int(g.get("data-d")), name, int(g.get("data-w")))] += 1
    return out


def main(argv):
    if len(argv) != 3:
        print("svgcheck: usage: svgcheck.py SVG TITLE < FOLDED")
        return 2
    try:
        root = ET.parse(argv[1]).getroot()
    except (ET.ParseError, OSError) as e:
        print("svgcheck: %s is not well-formed XML: %s" % (argv[1], e))
        return 1
    problems = []
    if root.tag != SVG_NS + "svg":
        problems.append("root element is %s, not svg" % root.tag)
    titles = [t for t in root.iter(SVG_NS + "text") if t.get("id") == "title"]
    got_title = "".join(titles[0].itertext()) if titles else None
    if got_title != argv[2]:
        problems.append("title is %r, want %r" % (got_title, argv[2]))
    want, got = expected_frames(sys.stdin), svg_frames(root)
    for frame in sorted(want - got):
        problems.append("missing frame depth %d %r width %d" % frame)
    for frame in sorted(got - want):
        problems.append("unexpected frame depth %d %r width %d" % frame)
    for p in problems:
        print("svgcheck: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

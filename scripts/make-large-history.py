#!/usr/bin/env python3
"""Makes a large results CSV for the load-and-plot benchmark: the header and rows of a real
`tilescope bench --csv` file, the rows repeated (in order, as if the same sweep had been run
again and again) until the output has ROWS data rows.

usage: scripts/make-large-history.py SOURCE.csv ROWS OUT.csv

Written in chunks, so a million rows (about 370 MB) take little memory.
"""
import sys


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    source, out = argv[1], argv[3]
    try:
        rows = int(argv[2])
    except ValueError:
        sys.stderr.write("ROWS must be a whole number, not '%s'\n" % argv[2])
        return 2
    if rows < 0:
        sys.stderr.write("ROWS must not be negative\n")
        return 2
    with open(source, "r", newline="") as f:
        lines = [line if line.endswith("\n") else line + "\n" for line in f if line.strip()]
    if len(lines) < 2:
        sys.stderr.write("%s has no data rows\n" % source)
        return 1
    header, body = lines[0], lines[1:]
    # Rows in the source are single lines (bench quotes no line breaks), so repeating lines
    # repeats rows.
    with open(out, "w", newline="") as f:
        f.write(header)
        written = 0
        block = "".join(body)
        while written + len(body) <= rows:
            f.write(block)
            written += len(body)
        f.write("".join(body[: rows - written]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""seg_schema_check.py SEG EXPANDED: the schema-2 file SEG as read by the
scripts' loader (scripts/segtime_common.py load_seg) against EXPANDED, the
same file as `segtime show --json` prints it (schema 1). Prints the schema
of SEG, whether the two agree, and how many texts and RUVs SEG shares."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from segtime_common import load_seg  # noqa: E402

raw = json.load(open(sys.argv[1]))
print("schema", raw["schema"])
print("shared strings", sum(len(f.get("strings", [])) for f in raw["functions"]) > 0)
print("shared ruvs", sum(len(f.get("ruvs", [])) for f in raw["functions"]) > 0)
print("indented", "\n " in open(sys.argv[1]).read())
same = load_seg(sys.argv[1]) == json.load(open(sys.argv[2]))
print("loader agrees with segtime show --json:", same)

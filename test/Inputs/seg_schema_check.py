"""seg_schema_check.py SEG: what the plugin's file SEG looks like: its
schema, whether it is one line, and whether texts and RUVs are shared
(docs/seg-json.md "Schema 2", "Schema 3": one table each for the file)."""
import json, sys

text = open(sys.argv[1]).read()
raw = json.loads(text)
print("schema", raw["schema"])
print("lines", text.count("\n"))
print("shared strings", bool(raw.get("strings")), any("strings" in f for f in raw["functions"]))
print("shared ruvs", bool(raw.get("ruvs")), any("ruvs" in f for f in raw["functions"]))

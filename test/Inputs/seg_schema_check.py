"""seg_schema_check.py SEG: what the plugin's file SEG looks like: its
schema, whether it is one line, and whether texts and RUVs are shared
(docs/seg-json.md "Schema 2")."""
import json, sys

text = open(sys.argv[1]).read()
raw = json.loads(text)
print("schema", raw["schema"])
print("lines", text.count("\n"))
print("shared strings", any(f.get("strings") for f in raw["functions"]))
print("shared ruvs", any(f.get("ruvs") for f in raw["functions"]))

"""The test executables of a `cargo test --no-run --message-format=json`
build (stdin) that belong to the packages named on the command line: one
`package-folder<TAB>executable` line each (scripts/test.sh)."""
import json
import os
import sys

wanted = set(sys.argv[1:])
seen = set()
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if msg.get("reason") != "compiler-artifact" or not msg.get("profile", {}).get("test"):
        continue
    exe = msg.get("executable")
    # package_id: "path+file:///.../ml-kem#pqkit-ml-kem@0.1.0" (or the
    # older "pqkit-ml-kem 0.1.0 (path+file:///...)").
    pid = msg.get("package_id", "")
    name = pid.split("#")[-1].split("@")[0] if "#" in pid else pid.split(" ")[0]
    if exe and name in wanted and exe not in seen:
        seen.add(exe)
        print(f"{os.path.dirname(msg['manifest_path'])}\t{exe}")
if not seen:
    sys.exit("test-binaries.py: no test executable of " + ", ".join(sorted(wanted)))

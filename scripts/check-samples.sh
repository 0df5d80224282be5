#!/usr/bin/env bash
# Every Swift sample of README.md and of the DocC articles compiles exactly as printed, imports
# included: each ```swift block is written to a file of its own, byte for byte, and type-checked
# (swiftc -typecheck, Swift 6 language mode, warnings as errors) against the modules of a finished
# build. Nothing is run.
#
#   bash scripts/check-samples.sh                          # against .build (swift build first)
#   bash scripts/check-samples.sh --build .build/x         # another scratch path
#   bash scripts/check-samples.sh --trait-build .build/ahc # the samples that need a package trait
#   bash scripts/check-samples.sh [options] FILE.md...     # these files only (the script's test)
#
# The conventions of a sample, which the script enforces:
# - Self-contained. A block compiles on its own, as the only file of a program (main.swift): its
#   imports, and every name it uses, are in it. A reader can paste it into an empty file.
# - A block with an `@main` type is an app's whole source file: it is compiled with
#   -parse-as-library, as SwiftPM compiles a file of that kind that is not named main.swift.
# - One exception, for articles that build one program step by step: a block right after the line
#   `<!-- sample: continues the one above -->` (an HTML comment, which neither GitHub nor DocC
#   shows) is compiled after the blocks before it, back to the last block without that line. The
#   README has none.
# - A trait sample: a block that imports a module that only a trait build has (anything but
#   Foundation, FoundationNetworking, Dispatch, IPData, IPDataTesting, XCTest and Testing) is
#   skipped without --trait-build, and is the only kind checked with it, against the modules of
#   that build (the module paths and C module maps of the trait targets' own compile commands,
#   scripts/target-command.py).
# - A manifest: a block that starts with `// swift-tools-version` is a whole Package.swift, which
#   `swift package dump-package` must read (nothing is fetched). A fragment, a block that starts
#   with `dependencies:`, `targets:`, `.package(`, `.target(` or `.testTarget(`, is read the same
#   way inside a Package.swift (tools version 6.1) whose package depends on this one, as `swift`
#   (a `.target` or `.testTarget` fragment), and has a target `MyApp` unless the fragment makes one.
# - A block fenced ```swift not-compiled is not checked; the paragraph before it must say why,
#   with the words "not compiled".
#
# The files go to .build/samples (or $SAMPLES_DIR). Exits 1 naming each sample that fails, with
# the compiler's diagnostics, 2 for a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."

build=.build
trait_build=
files=()
while (($#)); do
    case $1 in
    --build) build=${2:?usage: --build SCRATCH_PATH}; shift 2 ;;
    --trait-build) trait_build=${2:?usage: --trait-build SCRATCH_PATH}; shift 2 ;;
    -*) echo "check-samples: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
    esac
done
if ((${#files[@]} == 0)); then
    files=(README.md)
    while IFS= read -r article; do files+=("$article"); done < <(find Sources -path '*.docc/*.md' | sort)
fi

out=${SAMPLES_DIR:-$PWD/.build/samples}
rm -rf "$out"
mkdir -p "$out"

# The modules and flags to type-check against.
flags=()
if [[ -n $trait_build ]]; then
    manifest=$trait_build/debug.yaml
    [[ -f $manifest ]] || { echo "check-samples: no build in $trait_build (debug.yaml)" >&2; exit 2; }
    # Every module path and C module map the trait targets' tests were compiled with.
    mapfile -t flags < <(
        for target in IPDataAsyncHTTPClientTests IPDataHummingbirdTests IPDataValkeyTests IPDataVaporTests; do
            python3 scripts/target-command.py "$manifest" "$target" 2>/dev/null || true
        done | python3 -c '
import sys
# Module paths and C flags, in order (an -Xcc -I is followed by -Xcc PATH: kept as a group).
args, kept, seen = [line.rstrip("\n") for line in sys.stdin], [], set()
with_value = {"-I", "-F", "-Xcc", "-sdk", "-target", "-resource-dir"}
groups, i = [], 0
while i < len(args):
    arg = args[i]
    if arg == "-Xcc" and i + 3 < len(args) and args[i + 1] in ("-I", "-F", "-iquote", "-isystem") \
            and args[i + 2] == "-Xcc":
        groups.append(tuple(args[i:i + 4])); i += 4
    elif arg in with_value and i + 1 < len(args):
        groups.append((arg, args[i + 1])); i += 2
    elif arg.startswith(("-I", "-F", "-D")) and len(arg) > 2:
        groups.append((arg,)); i += 1
    else:
        i += 1
for group in groups:
    if group not in seen:
        seen.add(group); kept.extend(group)
print("\n".join(kept))')
    ((${#flags[@]} > 0)) || { echo "check-samples: no compile command of a trait target in $manifest" >&2; exit 2; }
else
    modules=$build/debug/Modules
    [[ -f $modules/IPData.swiftmodule || -d $modules/IPData.swiftmodule ]] ||
        { echo "check-samples: no IPData module in $modules: swift build first" >&2; exit 2; }
    flags=(-I "$modules")
fi

# Extract: one .swift file per sample (with the blocks it continues before it), one folder per
# manifest fragment. Prints a line per sample: KIND<TAB>LOCATION<TAB>PATH.
mode=plain
[[ -n $trait_build ]] && mode=trait
list=$out/samples.tsv
python3 - "$out" "$mode" "${files[@]}" >"$list" <<'PY'
import os, re, sys

out, mode, files = sys.argv[1], sys.argv[2], sys.argv[3:]
plain_modules = {"Foundation", "FoundationNetworking", "Dispatch", "IPData", "IPDataTesting",
                 "XCTest", "Testing"}
manifest_starts = ("dependencies:", "targets:", ".package(", ".target(", ".testTarget(")
continues = "<!-- sample: continues the one above -->"
problems = 0

def slug(path):
    return re.sub(r"[^A-Za-z0-9]+", "-", path).strip("-")

for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    chain = []          # the blocks a continuing block is compiled after: (line, text)
    fence = None        # (opening line number, info string, indentation, body lines)
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if fence is None:
            if stripped.startswith("```"):
                fence = (number, stripped[3:].strip(), len(line) - len(line.lstrip()), [])
            continue
        if stripped != "```":
            # A block inside a list item is indented; its code is the text after that indentation.
            fence[3].append(line[fence[2]:] if line[:fence[2]].strip() == "" else line)
            continue
        start, info, _, body = fence
        fence = None
        if not info.startswith("swift"):
            continue
        location = "%s:%d" % (path, start)
        text = "\n".join(body) + "\n"
        if info == "swift not-compiled":
            before = " ".join(l.strip() for l in lines[max(0, start - 6):start - 1]).lower()
            if "not compiled" not in before:
                print("%s: a ```swift not-compiled block without a reason: the paragraph before "
                      "it must say why it is not compiled" % location, file=sys.stderr)
                problems += 1
            print("not-compiled\t%s\t-" % location)
            continue
        if info != "swift":
            print("%s: unknown fence ```%s (swift or swift not-compiled)" % (location, info),
                  file=sys.stderr)
            problems += 1
            continue
        previous = next((l.strip() for l in reversed(lines[:start - 1]) if l.strip()), "")
        first = next((l.strip() for l in body if l.strip()), "")
        if mode == "trait" and first.startswith(manifest_starts + ("// swift-tools-version",)):
            print("skipped-plain\t%s\t-" % location)   # manifests are checked with the plain build
            chain = []
            continue
        if first.startswith("// swift-tools-version"):
            # A whole Package.swift, as printed.
            folder = os.path.join(out, "%s-%d" % (slug(path), start))
            os.makedirs(folder)
            with open(os.path.join(folder, "Package.swift"), "w", encoding="utf-8") as manifest:
                manifest.write(text)
            print("manifest\t%s\t%s" % (location, folder))
            chain = []
            continue
        if first.startswith(manifest_starts):
            folder = os.path.join(out, "%s-%d" % (slug(path), start))
            os.makedirs(folder)
            # The context a fragment is read in: a package that depends on this one (as
            # `swift`), and has the target `MyApp`, unless the fragment says otherwise.
            this_package = '.package(url: "https://github.com/ipdata/swift.git", from: "1.1.0")'
            my_app = '.target(name: "MyApp", dependencies: [.product(name: "IPData", package: "swift")])'
            if first.startswith(".package("):
                arguments = "dependencies: [\n%s]" % text
            elif first.startswith((".target(", ".testTarget(")):
                arguments = "dependencies: [%s],\ntargets: [\n%s" % (this_package, text.rstrip("\n"))
                if 'name: "MyApp"' not in text:
                    arguments += ",\n" + my_app
                arguments += "\n]"
            else:
                arguments = text
            with open(os.path.join(folder, "Package.swift"), "w", encoding="utf-8") as manifest:
                manifest.write("// swift-tools-version: 6.1\nimport PackageDescription\n\n"
                               "let package = Package(\n    name: \"Sample\",\n%s)\n" % arguments)
            print("manifest\t%s\t%s" % (location, folder))
            chain = []
            continue
        chain = chain + [(location, text)] if previous == continues and chain else [(location, text)]
        if previous == continues and len(chain) == 1:
            print("%s: marked as continuing, but no sample comes before it" % location, file=sys.stderr)
            problems += 1
        # A block alone is its file, byte for byte; a chain is its blocks, each under a comment
        # that names it.
        program = chain[0][1] if len(chain) == 1 else "\n".join(
            "// ---- %s\n%s" % (where, code) for where, code in chain)
        imports = set(re.findall(r"^[ \t]*(?:@\w+[ \t]+)*import[ \t]+(?:(?:typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?(\w+)", program, re.M))
        kind = "trait" if imports - plain_modules else "plain"
        if kind != mode:
            print("skipped-%s\t%s\t-" % (kind, location))
            continue
        folder = os.path.join(out, "%s-%d" % (slug(path), start))
        os.makedirs(folder)
        with open(os.path.join(folder, "main.swift"), "w", encoding="utf-8") as source:
            source.write(program)
        print("swift\t%s\t%s" % (location, os.path.join(folder, "main.swift")))
sys.exit(1 if problems else 0)
PY

failures=0
checked=0
skipped=0
while IFS=$'\t' read -r kind location path; do
    case $kind in
    swift)
        # A program with an @main type is a file of a library's kind, not top-level code.
        as_library=()
        if grep -q '^@main' "$path"; then as_library=(-parse-as-library); fi
        if ! log=$(swiftc -typecheck -swift-version 6 -warnings-as-errors "${as_library[@]}" "${flags[@]}" "$path" 2>&1); then
            printf 'check-samples: %s does not compile as printed (%s):\n%s\n' "$location" "$path" "$log" >&2
            failures=$((failures + 1))
        fi
        checked=$((checked + 1))
        ;;
    manifest)
        if ! log=$(cd "$path" && swift package dump-package 2>&1 >/dev/null); then
            printf 'check-samples: %s is not a valid Package.swift or fragment of one (%s/Package.swift):\n%s\n' \
                "$location" "$path" "$log" >&2
            failures=$((failures + 1))
        fi
        checked=$((checked + 1))
        ;;
    *) skipped=$((skipped + 1)) ;;
    esac
done <"$list"

if ((failures != 0)); then
    echo "check-samples: $failures of $checked samples FAILED" >&2
    exit 1
fi
echo "check-samples: $checked samples compile as printed ($skipped not checked here: not-compiled, or the other build's)"

#!/usr/bin/env bash
# Structural checks of .github/workflows/ci.yml: that it parses, and that it
# keeps the promises of the release rule (triggers, test matrices, the release
# job needing every other job and running only on a push to main, permissions).
#
#   bash scripts/tests/workflow-tests.sh [path/to/ci.yml]
#
# Needs bash and python3 with PyYAML (installed quietly with pip when missing).
# zizmor, the Actions security linter, is run on the workflow by .ci/run.
# Prints `ok - NAME` / `not ok - NAME` per check and ends with
# `N passed, M failed`; exits non-zero when a check failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
workflow=${1:-$here/../../.github/workflows/ci.yml}
[[ -f $workflow ]] || {
    echo "workflow-tests: no such file: $workflow" >&2
    exit 1
}

if ! python3 -c 'import yaml' 2>/dev/null; then
    # Newer system Pythons refuse plain `pip install` (PEP 668); fall back.
    python3 -m pip install --quiet --disable-pip-version-check pyyaml 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --user pyyaml 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages pyyaml
fi

exec python3 - "$workflow" "$here/../.." <<'PY'
import os
import sys

import yaml

path = sys.argv[1]
results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("ok - " if condition else "not ok - ") + name)
    if not condition and detail:
        for line in str(detail).splitlines():
            print("#   " + line)


try:
    with open(path, encoding="utf-8") as f:
        wf = yaml.safe_load(f)
    check("workflow parses as YAML", isinstance(wf, dict), f"top level is {type(wf).__name__}")
except yaml.YAMLError as e:
    check("workflow parses as YAML", False, e)
    print("0 passed, 1 failed")
    sys.exit(1)

jobs = wf.get("jobs") or {}

# PyYAML follows YAML 1.1, where a bare `on` key is the boolean true.
triggers = wf.get("on", wf.get(True))


def branches(event):
    spec = (triggers or {}).get(event) if isinstance(triggers, dict) else None
    return (spec or {}).get("branches") if isinstance(spec, dict) else None


check("triggers are exactly pull_request and push",
      isinstance(triggers, dict) and set(triggers) == {"pull_request", "push"}, f"on: {triggers!r}")
check("pull_request runs for main", branches("pull_request") == ["main"], f"branches: {branches('pull_request')!r}")
check("push runs for main", branches("push") == ["main"], f"branches: {branches('push')!r}")

check("workflow permissions default to contents: read",
      wf.get("permissions") == {"contents": "read"}, f"permissions: {wf.get('permissions')!r}")


def needs_of(job):
    n = (job or {}).get("needs", [])
    return [n] if isinstance(n, str) else list(n or [])


unknown = {name: [n for n in needs_of(job) if n not in jobs] for name, job in jobs.items()}
unknown = {k: v for k, v in unknown.items() if v}
check("every needs refers to an existing job", not unknown, f"unknown: {unknown}")


def has_cycle():
    state = {}

    def visit(n):
        if state.get(n) == 1:
            return True
        if state.get(n) == 2 or n not in jobs:
            return False
        state[n] = 1
        if any(visit(m) for m in needs_of(jobs[n])):
            return True
        state[n] = 2
        return False

    return any(visit(n) for n in jobs)


check("needs has no cycle", not has_cycle())


def runs(job):
    return [s.get("run", "") for s in (job or {}).get("steps", []) if isinstance(s, dict)]


def runs_command(job, command):
    return any(command in [line.strip() for line in r.splitlines()] for r in runs(job))


def container_image(job):
    c = (job or {}).get("container")
    return c.get("image") if isinstance(c, dict) else c


import re

steps = [(name, s) for name, job in jobs.items() for s in (job or {}).get("steps", []) if isinstance(s, dict)]
uses = [(name, str(s["uses"])) for name, s in steps if "uses" in s]
unpinned = [u for u in uses if not re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u[1])]
check("every action is pinned to a full commit SHA", uses and not unpinned, f"unpinned: {unpinned}")
checkouts = [(name, s) for name, s in steps if str(s.get("uses", "")).startswith("actions/checkout@")]
check("every job checks out with actions/checkout",
      all(any(c[0] == name for c in checkouts) for name in jobs), f"checkouts: {[c[0] for c in checkouts]}")
keeping = [name for name, s in checkouts if (s.get("with") or {}).get("persist-credentials") is not False]
check("no checkout persists credentials", not keeping, f"persisting: {keeping}")

# Linux matrix.
linux = jobs.get("linux") or {}
strategy = linux.get("strategy") or {}
images = (strategy.get("matrix") or {}).get("image")
check("linux matrix is swift:5.9, swift:5.10, swift:6.0, swift:6.3",
      images == ["swift:5.9", "swift:5.10", "swift:6.0", "swift:6.3"], f"images: {images!r}")
check("linux matrix has fail-fast false", strategy.get("fail-fast") is False, f"fail-fast: {strategy.get('fail-fast')!r}")
check("linux jobs run in the matrix container", container_image(linux) == "${{ matrix.image }}",
      f"container: {linux.get('container')!r}")
check("linux jobs build and run the unit tests",
      runs_command(linux, "swift build") and runs_command(linux, "swift test"), runs(linux))
check("linux jobs build the benchmarks package on every toolchain",
      runs_command(linux, "swift build --package-path Benchmarks"), runs(linux))

# macOS and iOS, each on a pinned Xcode.
def pinned_xcode(job):
    return re.fullmatch(r"/Applications/Xcode_[0-9.]+\.app/Contents/Developer",
                        str(((job or {}).get("env") or {}).get("DEVELOPER_DIR", "")))


macos = jobs.get("macos") or {}
check("macos job runs on macos-15", macos.get("runs-on") == "macos-15", f"runs-on: {macos.get('runs-on')!r}")
check("macos job pins its Xcode (DEVELOPER_DIR)", pinned_xcode(macos), f"env: {macos.get('env')!r}")
check("macos job builds with warnings as errors and runs the unit tests",
      runs_command(macos, "swift build --build-tests -Xswiftc -warnings-as-errors")
      and any(line.strip().startswith("swift test") for r in runs(macos) for line in r.splitlines()), runs(macos))

ios = jobs.get("ios") or {}
ios_runs = [" ".join(r.split()) for r in runs(ios)]
check("ios job runs on macOS with a pinned Xcode",
      str(ios.get("runs-on", "")).startswith("macos") and pinned_xcode(ios), f"job: {ios!r}")
for scheme in ("IPData", "IPDataTesting"):
    check(f"ios job builds {scheme} for the iOS simulator with warnings as errors",
          any(f"xcodebuild build -scheme {scheme} -destination 'generic/platform=iOS Simulator'" in r
              and "SWIFT_TREAT_WARNINGS_AS_ERRORS=YES" in r for r in ios_runs), ios_runs)

# Strict.
strict = jobs.get("strict") or {}
check("strict job runs in swift:6.3", container_image(strict) == "swift:6.3", f"container: {strict.get('container')!r}")
check("strict job builds with complete strict concurrency and warnings as errors",
      runs_command(strict, "swift build -Xswiftc -strict-concurrency=complete -Xswiftc -warnings-as-errors"),
      runs(strict))
check("strict job builds in Swift 5 mode with complete strict concurrency and warnings as errors",
      runs_command(strict, "swift build -Xswiftc -swift-version -Xswiftc 5 -Xswiftc -strict-concurrency=complete "
                           "-Xswiftc -warnings-as-errors"), runs(strict))

# Lint.
lint = jobs.get("lint") or {}
check("lint job runs in swift:6.3", container_image(lint) == "swift:6.3", f"container: {lint.get('container')!r}")
check("lint job runs swift format lint --strict",
      runs_command(lint, "swift format lint --strict --recursive Sources Tests"), runs(lint))

# Full suite.
full = jobs.get("full") or {}
full_runs = runs(full)
check("full job runs .ci/run", any(".ci/run" in r for r in full_runs), full_runs)
container = full.get("container")
privileged = isinstance(container, dict) and "--privileged" in str(container.get("options", ""))
as_root = any("sudo" in r and ".ci/run" in r for r in full_runs)
check("full job runs .ci/run as root with unshare allowed (privileged container or sudo on the runner)",
      (container and privileged) or (not container and as_root), f"container: {container!r}; runs: {full_runs}")

# Release.
release = jobs.get("release") or {}
others = set(jobs) - {"release"}
check("release job needs every other job", set(needs_of(release)) == others,
      f"needs: {sorted(needs_of(release))}; other jobs: {sorted(others)}")
condition = " ".join(str(release.get("if", "")).split())
check("release job runs only on a push to main",
      condition in ("github.event_name == 'push' && github.ref == 'refs/heads/main'",
                    "${{ github.event_name == 'push' && github.ref == 'refs/heads/main' }}"),
      f"if: {release.get('if')!r}")
check("release job may write contents", release.get("permissions") == {"contents": "write"},
      f"permissions: {release.get('permissions')!r}")
writers = [n for n, j in jobs.items() if n != "release" and "write" in str((j or {}).get("permissions", ""))]
check("no other job may write", not writers, f"writers: {writers}")
release_checkout = [s for s in release.get("steps", []) if isinstance(s, dict)
                    and str(s.get("uses", "")).startswith("actions/checkout")]
check("release job checks out the full history (fetch-depth: 0)",
      len(release_checkout) == 1 and (release_checkout[0].get("with") or {}).get("fetch-depth") == 0,
      f"checkout: {release_checkout!r}")
release_steps = [s for s in release.get("steps", []) if isinstance(s, dict) and "scripts/release.sh" in s.get("run", "")]
check("release job runs scripts/release.sh (not a dry run)",
      len(release_steps) == 1 and "--dry-run" not in release_steps[0]["run"], f"steps: {release.get('steps')!r}")
token = (release_steps[0].get("env") or {}).get("GH_TOKEN") if release_steps else None
check("release step gets GH_TOKEN from github.token", token == "${{ github.token }}", f"GH_TOKEN: {token!r}")

# The binaries a release carries.
def step_runs(job):
    return [" ".join(line.split()) for r in runs(job) for line in r.splitlines() if line.strip()]


def uploads(job):
    return [(s.get("with") or {}) for s in (job or {}).get("steps", []) if isinstance(s, dict)
            and str(s.get("uses", "")).startswith("actions/upload-artifact@")]


static_build = ("swift build -c release --package-path CLI --product ipdata --static-swift-stdlib "
                "--scratch-path .build/static")
linux_binary = jobs.get("linux-binary") or {}
include = ((linux_binary.get("strategy") or {}).get("matrix") or {}).get("include")
check("linux-binary builds x86_64 on ubuntu-latest and aarch64 on ubuntu-24.04-arm",
      include == [{"arch": "x86_64", "runner": "ubuntu-latest"}, {"arch": "aarch64", "runner": "ubuntu-24.04-arm"}]
      and linux_binary.get("runs-on") == "${{ matrix.runner }}", f"job: {linux_binary!r}")
check("linux-binary runs in swift:6.3", container_image(linux_binary) == "swift:6.3",
      f"container: {linux_binary.get('container')!r}")
check("linux-binary builds as .ci/run builds the binary StaticBinaryTests runs", static_build in step_runs(linux_binary),
      step_runs(linux_binary))
try:
    with open(os.path.join(sys.argv[2], ".ci/run"), encoding="utf-8") as f:
        ci_run = " ".join(f.read().replace("\\\n", " ").split())
except OSError as e:
    ci_run = str(e)
check(".ci/run builds the static binary with the same command (mirrors aside)",
      static_build.replace("swift build ", 'swift build "${mirror_config[@]}" ') in ci_run, "see .ci/run")
check("linux-binary uploads ipdata-linux-<arch>",
      uploads(linux_binary) and uploads(linux_binary)[0].get("name") == "ipdata-linux-${{ matrix.arch }}"
      and uploads(linux_binary)[0].get("if-no-files-found") == "error", f"uploads: {uploads(linux_binary)!r}")

macos_binary = jobs.get("macos-binary") or {}
check("macos-binary runs on macos-15 with a pinned Xcode",
      macos_binary.get("runs-on") == "macos-15" and pinned_xcode(macos_binary), f"job: {macos_binary!r}")
check("macos-binary builds one universal binary (arm64 and x86_64) and checks it with lipo",
      "swift build -c release --package-path CLI --product ipdata --arch arm64 --arch x86_64" in step_runs(macos_binary)
      and any("lipo" in r and "-verify_arch arm64 x86_64" in r for r in step_runs(macos_binary)),
      step_runs(macos_binary))
check("macos-binary uploads ipdata-macos-universal",
      uploads(macos_binary) and uploads(macos_binary)[0].get("name") == "ipdata-macos-universal",
      f"uploads: {uploads(macos_binary)!r}")
check("the binary jobs ask for no permissions (read, as the workflow)",
      "permissions" not in linux_binary and "permissions" not in macos_binary)

release_list = [s for s in release.get("steps", []) if isinstance(s, dict)]
download = [i for i, s in enumerate(release_list) if str(s.get("uses", "")).startswith("actions/download-artifact@")]
sums = [i for i, s in enumerate(release_list) if "sha256sum ipdata-* > SHA256SUMS" in s.get("run", "")]
publish = [i for i, s in enumerate(release_list) if "scripts/release.sh" in s.get("run", "")]
downloaded = (release_list[download[0]].get("with") or {}) if download else {}
check("release job downloads the binaries into dist, then writes SHA256SUMS, then releases with --assets dist",
      len(download) == 1 and downloaded.get("pattern") == "ipdata-*" and downloaded.get("path") == "dist"
      and downloaded.get("merge-multiple") is True and len(sums) == 1 and len(publish) == 1
      and download[0] < sums[0] < publish[0] and "--assets dist" in release_list[publish[0]]["run"],
      f"steps: {release_list!r}")

passed, failed = results.count(True), results.count(False)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY

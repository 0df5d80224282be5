#!/usr/bin/env bash
# Tests for scripts/release.sh, run against throw-away git repositories.
#
#   bash scripts/tests/release-tests.sh
#
# Needs bash, git and coreutils only: `gh` is replaced by a fake placed first on
# PATH that records its arguments, so nothing touches the network. Prints
# `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`;
# exits non-zero when a case failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
release=$(cd "$here/.." && pwd)/release.sh
[[ -f $release ]] || {
    echo "release-tests: cannot find $release" >&2
    exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/release-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# An empty HOME keeps the developer's global git configuration (signing,
# hooks, templates) out of the temporary repositories.
mkdir -p "$tmp/home" "$tmp/bin" "$tmp/nogh"
export HOME=$tmp/home
export GIT_CONFIG_NOSYSTEM=1
export GIT_TERMINAL_PROMPT=0
unset GIT_DIR GIT_WORK_TREE GH_TOKEN GITHUB_TOKEN GH_REPO

# The fake gh: one argument a line, then a `--` line per call.
export GH_LOG=$tmp/gh.log
cat >"$tmp/bin/gh" <<'EOF'
#!/usr/bin/env bash
{
    for arg in "$@"; do printf '%s\n' "$arg"; done
    printf -- '--\n'
} >>"$GH_LOG"
exit "${FAKE_GH_EXIT:-0}"
EOF
chmod +x "$tmp/bin/gh"
export PATH=$tmp/bin:$PATH

# A PATH with git but no gh at all, for the "gh missing" cases.
ln -s "$(command -v git)" "$tmp/nogh/git"

# --- helpers ------------------------------------------------------------------

n=0

# new_repo NAME README_TEXT: a git repository with one commit holding README.md.
new_repo() {
    local dir=$tmp/repos/$1
    mkdir -p "$dir"
    git -C "$dir" init -q -b main
    git -C "$dir" config user.name "Release Tests"
    git -C "$dir" config user.email "release-tests@example.invalid"
    git -C "$dir" config commit.gpgsign false
    git -C "$dir" config tag.gpgsign false
    printf '%s' "$2" >"$dir/README.md"
    git -C "$dir" add README.md
    git -C "$dir" commit -q -m "Initial commit"
    printf '%s\n' "$dir"
}

commit_file() { # commit_file DIR FILE TEXT
    printf '%s\n' "$3" >"$1/$2"
    git -C "$1" add "$2"
    git -C "$1" commit -q -m "Change $2"
}

readme_with() { # readme_with VERSION_LINE...
    printf '# IPData\n\nSwift client for the ipdata.co API.\n\n## Installation\n\n```swift\ndependencies: [\n'
    printf '%s\n' "$@"
    printf ']\n```\n'
}

good_readme=$(readme_with '    .package(url: "https://github.com/ipdata/swift.git", from: "1.0.2")')

out='' err='' rc=''
# run DIR [ARGS...]: run release.sh in DIR; sets out, err, rc.
run() {
    local dir=$1
    shift
    : >"$GH_LOG"
    rc=0
    (cd "$dir" && "$BASH" "$release" "$@") >"$tmp/out" 2>"$tmp/err" || rc=$?
    out=$(<"$tmp/out")
    err=$(<"$tmp/err")
}

failures=()
fail() { failures+=("$*"); }

expect_rc() { [[ $rc == "$1" ]] || fail "exit status $rc, expected $1"; }
expect_out() { [[ $out == *"$1"* ]] || fail "stdout does not contain: $1"; }
expect_err() { [[ $err == *"$1"* ]] || fail "stderr does not contain: $1"; }
expect_out_exactly() { [[ $out == "$1" ]] || fail "stdout is not exactly: $1"; }
expect_no_stderr() { [[ -z $err ]] || fail "stderr is not empty"; }
expect_one_line_error() {
    [[ -n $err && $err != *$'\n'* ]] || fail "stderr is not a single line"
}
expect_gh_not_called() {
    [[ ! -s $GH_LOG ]] || fail "gh was called: $(tr '\n' ' ' <"$GH_LOG")"
}
expect_gh_args() { # the exact arguments of the one expected gh call
    local want have
    want=$(printf '%s\n' "$@" --)
    have=$(<"$GH_LOG")
    [[ $have == "$want" ]] ||
        fail "gh arguments: [$(tr '\n' ' ' <<<"$have")] expected [$(tr '\n' ' ' <<<"$want")]"
}
expect_no_tag() { # expect_no_tag DIR TAG
    if git -C "$1" rev-parse -q --verify "refs/tags/$2" >/dev/null; then
        fail "tag $2 was created locally"
    fi
}

passed=0
failed=0
check() { # check NAME FUNCTION
    failures=()
    n=$((n + 1))
    "$2"
    if ((${#failures[@]} == 0)); then
        passed=$((passed + 1))
        printf 'ok - %s\n' "$1"
    else
        failed=$((failed + 1))
        printf 'not ok - %s\n' "$1"
        local f
        for f in "${failures[@]}"; do printf '#   %s\n' "$f"; done
        printf '#   exit status: %s\n' "$rc"
        [[ -z $out ]] || printf '#   stdout: %s\n' "${out//$'\n'/$'\n#           '}"
        [[ -z $err ]] || printf '#   stderr: %s\n' "${err//$'\n'/$'\n#           '}"
    fi
}

# --- cases --------------------------------------------------------------------

t_print_version() {
    local repo
    repo=$(new_repo print-version "$good_readme")
    run "$repo" --print-version
    expect_rc 0
    expect_out_exactly "1.0.2"
    expect_no_stderr
    expect_gh_not_called
}

t_print_version_subdir() {
    local repo
    repo=$(new_repo print-version-subdir "$good_readme")
    mkdir -p "$repo/Sources/IPData"
    run "$repo/Sources/IPData" --print-version
    expect_rc 0
    expect_out_exactly "1.0.2"
}

t_print_version_readme_option() {
    local dir=$tmp/not-a-repo
    mkdir -p "$dir"
    readme_with '.package(url: "https://github.com/ipdata/swift.git", from: "2.10.0"),' >"$dir/OTHER.md"
    run "$dir" --readme "$dir/OTHER.md" --print-version
    expect_rc 0
    expect_out_exactly "2.10.0"
}

t_crlf_readme() {
    local repo
    repo=$(new_repo crlf "${good_readme//$'\n'/$'\r\n'}")
    run "$repo" --print-version
    expect_rc 0
    expect_out_exactly "1.0.2"
}

t_no_version() {
    local repo
    repo=$(new_repo no-version "$(readme_with '    .package(url: "https://github.com/ipdata/swift.git", branch: "main")')")
    run "$repo" --dry-run
    expect_rc 1
    expect_err "no version found in README"
    expect_one_line_error
    expect_gh_not_called
}

t_missing_readme() {
    local repo
    repo=$(new_repo missing-readme "$good_readme")
    run "$repo" --readme "$repo/NOPE.md" --print-version
    expect_rc 1
    expect_err "README not found"
}

malformed() { # malformed NAME VERSION
    local repo
    repo=$(new_repo "$1" "$(readme_with "    .package(url: \"https://github.com/ipdata/swift.git\", from: \"$2\")")")
    run "$repo" --print-version
    expect_rc 1
    expect_err "\"$2\""
    expect_err "not semantic MAJOR.MINOR.PATCH"
    expect_one_line_error
    [[ -z $out ]] || fail "stdout is not empty"
    run "$repo"
    expect_rc 1
    expect_gh_not_called
}
t_malformed_two_parts() { malformed two-parts "1.0"; }
t_malformed_leading_v() { malformed leading-v "v1.0.2"; }
t_malformed_prerelease() { malformed prerelease "1.0.2-beta.1"; }
t_malformed_empty() { malformed empty ""; }

t_two_versions() {
    local repo
    repo=$(new_repo two-versions "$(
        readme_with '    .package(url: "https://github.com/ipdata/swift.git", from: "1.0.2")'
        printf '\nOr:\n\n    .package(url: "https://github.com/ipdata/swift.git", from: "1.0.3")\n'
    )")
    run "$repo" --print-version
    expect_rc 1
    expect_err "found 2 versions"
    expect_err "lines 9, 15"
    expect_one_line_error
    run "$repo"
    expect_rc 1
    expect_gh_not_called
}

t_tag_present_locally() {
    local repo
    repo=$(new_repo tagged-locally "$good_readme")
    git -C "$repo" tag -a v1.0.2 -m "v1.0.2"
    commit_file "$repo" CHANGELOG.md "later change"
    run "$repo"
    expect_rc 0
    expect_out "v1.0.2 is already tagged"
    expect_out "nothing to release"
    expect_gh_not_called
    run "$repo" --dry-run
    expect_rc 0
    expect_out "v1.0.2 is already tagged"
    expect_gh_not_called
}

t_dry_run() {
    local repo sha
    repo=$(new_repo dry-run "$good_readme")
    git -C "$repo" tag v1.0.1
    commit_file "$repo" CHANGELOG.md "1.0.2"
    sha=$(git -C "$repo" rev-parse HEAD)
    run "$repo" --dry-run
    expect_rc 0
    expect_out "dry run"
    expect_out "v1.0.2"
    expect_out "$sha"
    expect_out "gh release create v1.0.2 --target $sha --title v1.0.2 --generate-notes"
    expect_no_stderr
    expect_gh_not_called
    expect_no_tag "$repo" v1.0.2
}

t_release() {
    local repo sha
    repo=$(new_repo release "$good_readme")
    git -C "$repo" tag v1.0.1
    commit_file "$repo" CHANGELOG.md "1.0.2"
    sha=$(git -C "$repo" rev-parse HEAD)
    run "$repo"
    expect_rc 0
    expect_out "$sha"
    expect_gh_args release create v1.0.2 --target "$sha" --title v1.0.2 --generate-notes
}

t_commit_option() {
    local repo first short
    repo=$(new_repo commit-option "$good_readme")
    first=$(git -C "$repo" rev-parse HEAD)
    short=$(git -C "$repo" rev-parse --short HEAD)
    commit_file "$repo" CHANGELOG.md "later"
    run "$repo" --commit "$short" --dry-run
    expect_rc 0
    expect_out "$first"
    expect_gh_not_called
    run "$repo" --commit "$short"
    expect_rc 0
    expect_gh_args release create v1.0.2 --target "$first" --title v1.0.2 --generate-notes
    run "$repo" --commit=HEAD~1
    expect_rc 0
    expect_gh_args release create v1.0.2 --target "$first" --title v1.0.2 --generate-notes
}

t_assets() {
    local repo sha assets
    repo=$(new_repo assets "$good_readme")
    sha=$(git -C "$repo" rev-parse HEAD)
    assets=$tmp/assets
    mkdir -p "$assets/sub"
    printf 'x' >"$assets/ipdata-linux-x86_64"
    printf 'y' >"$assets/ipdata-macos-universal"
    printf 'z' >"$assets/SHA256SUMS"
    printf 'w' >"$assets/sub/ignored"
    run "$repo" --assets "$assets"
    expect_rc 0
    expect_gh_args release create v1.0.2 "$assets/SHA256SUMS" "$assets/ipdata-linux-x86_64" \
        "$assets/ipdata-macos-universal" --target "$sha" --title v1.0.2 --generate-notes
    : >"$GH_LOG"
    run "$repo" --assets="$assets" --dry-run
    expect_rc 0
    expect_out "$assets/ipdata-macos-universal"
    expect_gh_not_called
}

t_assets_missing() {
    local repo
    repo=$(new_repo assets-missing "$good_readme")
    mkdir -p "$tmp/no-assets"
    run "$repo" --assets "$tmp/no-assets"
    expect_rc 1
    expect_err "holds no files"
    expect_one_line_error
    expect_gh_not_called
    run "$repo" --assets "$tmp/nowhere"
    expect_rc 1
    expect_err "no such directory"
    expect_gh_not_called
}

t_unknown_commit() {
    local repo
    repo=$(new_repo unknown-commit "$good_readme")
    run "$repo" --commit 0123456789abcdef0123456789abcdef01234567
    expect_rc 1
    expect_err "commit not found"
    expect_one_line_error
    expect_gh_not_called
}

# origin_repo NAME: a repository whose `origin` is a bare repository.
origin_repo() {
    local repo=$1 bare=$tmp/remotes/$2.git
    git init -q --bare "$bare"
    git -C "$repo" remote add origin "$bare"
    git -C "$repo" push -q origin main 2>/dev/null
}

t_tag_only_on_origin() {
    local repo
    repo=$(new_repo tagged-on-origin "$good_readme")
    origin_repo "$repo" tagged-on-origin
    git -C "$repo" tag -a v1.0.2 -m "v1.0.2"
    git -C "$repo" push -q origin v1.0.2 2>/dev/null
    git -C "$repo" tag -d v1.0.2 >/dev/null
    commit_file "$repo" CHANGELOG.md "later"
    run "$repo"
    expect_rc 0
    expect_out "v1.0.2 is already tagged on origin"
    expect_out "nothing to release"
    expect_gh_not_called
}

t_origin_without_tag() {
    local repo sha
    repo=$(new_repo origin-without-tag "$good_readme")
    origin_repo "$repo" origin-without-tag
    git -C "$repo" tag v1.0.1
    git -C "$repo" push -q origin v1.0.1 2>/dev/null
    sha=$(git -C "$repo" rev-parse HEAD)
    run "$repo"
    expect_rc 0
    expect_gh_args release create v1.0.2 --target "$sha" --title v1.0.2 --generate-notes
}

t_origin_unreachable() {
    local repo
    repo=$(new_repo origin-unreachable "$good_readme")
    git -C "$repo" remote add origin "$tmp/remotes/does-not-exist.git"
    run "$repo"
    expect_rc 1
    expect_err "cannot list the tags of remote origin"
    expect_one_line_error
    expect_gh_not_called
}

t_gh_missing() {
    local repo
    repo=$(new_repo gh-missing "$good_readme")
    PATH=$tmp/nogh run "$repo"
    expect_rc 1
    expect_err "gh (the GitHub CLI) not found"
    expect_one_line_error
    PATH=$tmp/nogh run "$repo" --dry-run
    expect_rc 0
    expect_out "dry run"
}

t_gh_fails() {
    local repo
    repo=$(new_repo gh-fails "$good_readme")
    FAKE_GH_EXIT=1 run "$repo"
    expect_rc 1
    expect_err "gh release create v1.0.2 failed"
}

t_bad_usage() {
    local repo
    repo=$(new_repo bad-usage "$good_readme")
    run "$repo" --frobnicate
    expect_rc 2
    expect_err "unknown argument: --frobnicate"
    run "$repo" --readme
    expect_rc 2
    expect_err "--readme needs an argument"
    run "$repo" --commit
    expect_one_line_error
    expect_rc 2
    expect_gh_not_called
}

t_help() {
    local repo
    repo=$(new_repo help "$good_readme")
    run "$repo" --help
    expect_rc 0
    expect_out "Usage: release.sh"
    expect_out "--dry-run"
    expect_gh_not_called
}

t_not_a_repo() {
    local dir=$tmp/empty-dir
    mkdir -p "$dir"
    run "$dir" --dry-run
    expect_rc 1
    expect_err "not inside a git repository"
}

check "version found (--print-version)" t_print_version
check "version found from a subdirectory (README at the repository root)" t_print_version_subdir
check "--readme PATH honoured outside a repository" t_print_version_readme_option
check "README with CRLF line endings" t_crlf_readme
check "malformed README: no version" t_no_version
check "missing README" t_missing_readme
check "malformed README: from: \"1.0\"" t_malformed_two_parts
check "malformed README: from: \"v1.0.2\"" t_malformed_leading_v
check "malformed README: from: \"1.0.2-beta.1\"" t_malformed_prerelease
check "malformed README: from: \"\"" t_malformed_empty
check "two versions in README (line numbers listed)" t_two_versions
check "tag already present locally: nothing released, gh not called" t_tag_present_locally
check "tag absent, dry run: prints tag and full SHA, gh not called" t_dry_run
check "tag absent, real run: gh called with exactly the expected arguments" t_release
check "--commit honoured" t_commit_option
check "--commit unknown fails" t_unknown_commit
check "--assets DIR: every file in it attached, sorted, subfolders left out" t_assets
check "--assets DIR empty or missing: fails, gh not called" t_assets_missing
check "tag present only on remote origin: nothing released" t_tag_only_on_origin
check "origin without the tag: released" t_origin_without_tag
check "origin unreachable: fails, gh not called" t_origin_unreachable
check "gh missing: fails on a real run, dry run still works" t_gh_missing
check "gh failing: fails" t_gh_fails
check "bad usage exits 2" t_bad_usage
check "--help" t_help
check "outside a git repository: fails" t_not_a_repo

printf '%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))

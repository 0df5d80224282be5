#!/usr/bin/env bash
# Release IPData: tag vX.Y.Z and create the GitHub release when the version in
# README.md (the `from: "X.Y.Z"` of the Swift Package Manager snippet) is not
# tagged yet. A version that is already tagged releases nothing.
#
# Run by the `release` job of .github/workflows/ci.yml on every push to main
# that passed the tests; safe to run by hand with --dry-run.
set -euo pipefail

PROG=${0##*/}

usage() {
    cat <<EOF
Usage: $PROG [--dry-run] [--readme PATH] [--commit SHA] [--assets DIR] [--print-version] [--help]

Reads the package version from the single \`from: "X.Y.Z"\` in README.md and,
when the tag vX.Y.Z exists neither locally nor on the remote \`origin\`, creates
the tag and the GitHub release at the commit with:

    gh release create vX.Y.Z --target <full sha> --title vX.Y.Z --generate-notes

Options:
  --dry-run        print what would be done and change nothing
  --readme PATH    README to read the version from (default: README.md at the
                   root of the git repository of the current directory)
  --commit SHA     commit to tag and release (default: HEAD); the version is
                   still read from the README file, not from that commit
  --assets DIR     attach every file in DIR to the release (the binaries and
                   their SHA256SUMS); a DIR without files is an error, so that
                   no release goes out without what it should carry
  --print-version  print the version found in README and exit
  -h, --help       print this help and exit

Exit status: 0 on success or when nothing is to be released, 1 on failure,
2 on bad usage.
EOF
}

die() {
    printf '%s: error: %s\n' "$PROG" "$*" >&2
    exit 1
}

usage_error() {
    printf '%s: usage error: %s (see %s --help)\n' "$PROG" "$*" "$PROG" >&2
    exit 2
}

dry_run=false
print_version=false
readme=
commit=HEAD
assets=

while (($# > 0)); do
    case $1 in
        --dry-run) dry_run=true ;;
        --print-version) print_version=true ;;
        --readme | --commit | --assets)
            (($# >= 2)) || usage_error "option $1 needs an argument"
            [[ -n $2 ]] || usage_error "option $1 needs a non-empty argument"
            case $1 in
                --readme) readme=$2 ;;
                --commit) commit=$2 ;;
                *) assets=$2 ;;
            esac
            shift
            ;;
        --readme=* | --commit=* | --assets=*)
            value=${1#*=}
            [[ -n $value ]] || usage_error "option ${1%%=*} needs a non-empty argument"
            case $1 in
                --readme=*) readme=$value ;;
                --commit=*) commit=$value ;;
                *) assets=$value ;;
            esac
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) usage_error "unknown argument: $1" ;;
    esac
    shift
done

# --- the repository ----------------------------------------------------------

repo_root=
if root=$(git rev-parse --show-toplevel 2>/dev/null); then
    repo_root=$root
fi

if [[ -z $readme ]]; then
    [[ -n $repo_root ]] || die "not inside a git repository; run from the repository or pass --readme PATH"
    readme=$repo_root/README.md
fi
[[ -f $readme ]] || die "README not found: $readme"
[[ -r $readme ]] || die "README not readable: $readme"

# --- the version --------------------------------------------------------------

# Every `from: "..."` in README, whatever is between the quotes, so that a
# malformed version is reported rather than silently skipped.
from_re='from:[[:space:]]*"([^"]*)"'
semver_re='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$'

versions=()
version_lines=()
line_no=0
while IFS= read -r line || [[ -n $line ]]; do
    line_no=$((line_no + 1))
    rest=${line%$'\r'}
    while [[ $rest =~ $from_re ]]; do
        versions+=("${BASH_REMATCH[1]}")
        version_lines+=("$line_no")
        rest=${rest#*"${BASH_REMATCH[0]}"}
    done
done <"$readme"

case ${#versions[@]} in
    0)
        die "no version found in README ($readme): expected one \`from: \"X.Y.Z\"\` in the Swift Package Manager snippet"
        ;;
    1) ;;
    *)
        lines=$(printf '%s, ' "${version_lines[@]}")
        die "found ${#versions[@]} versions in README ($readme) at lines ${lines%, }: expected exactly one \`from: \"X.Y.Z\"\`"
        ;;
esac

version=${versions[0]}
if ! [[ $version =~ $semver_re ]]; then
    die "version \"$version\" in README ($readme) line ${version_lines[0]} is not semantic MAJOR.MINOR.PATCH (digits only, no leading v), e.g. from: \"1.0.2\""
fi

if $print_version; then
    printf '%s\n' "$version"
    exit 0
fi

# --- the tag ------------------------------------------------------------------

[[ -n $repo_root ]] || die "not inside a git repository; run $PROG from the repository to release"
cd "$repo_root"

tag=v$version

sha=$(git rev-parse -q --verify "$commit^{commit}" 2>/dev/null) ||
    die "commit not found: $commit"

if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    printf '%s is already tagged; nothing to release.\n' "$tag"
    exit 0
fi

if git remote get-url origin >/dev/null 2>&1; then
    remote_tags=$(git ls-remote --tags origin "refs/tags/$tag" 2>/dev/null) ||
        die "cannot list the tags of remote origin ($(git remote get-url origin)); not releasing without knowing whether $tag exists"
    if [[ -n $remote_tags ]]; then
        printf '%s is already tagged on origin; nothing to release.\n' "$tag"
        exit 0
    fi
fi

# --- the release ----------------------------------------------------------------

asset_files=()
if [[ -n $assets ]]; then
    [[ -d $assets ]] || die "--assets: no such directory: $assets"
    while IFS= read -r -d '' file; do asset_files+=("$file"); done \
        < <(find "$assets" -maxdepth 1 -type f -print0 | LC_ALL=C sort -z)
    ((${#asset_files[@]} > 0)) || die "--assets: $assets holds no files; not releasing without them"
fi

gh_args=(release create "$tag" ${asset_files[@]+"${asset_files[@]}"} --target "$sha" --title "$tag" --generate-notes)

if $dry_run; then
    printf 'dry run: %s is not tagged yet; would create tag %s and the GitHub release %s at commit %s\n' \
        "$tag" "$tag" "$tag" "$sha"
    printf 'dry run: would run: gh %s\n' "${gh_args[*]}"
    exit 0
fi

command -v gh >/dev/null 2>&1 ||
    die "gh (the GitHub CLI) not found on PATH; it is needed to create the tag and the release"

printf 'Releasing %s at commit %s\n' "$tag" "$sha"
gh "${gh_args[@]}" || die "gh release create $tag failed"
printf 'Released %s at commit %s\n' "$tag" "$sha"

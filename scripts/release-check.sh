#!/usr/bin/env bash
# make release-check: builds the release offline and installs it the way a
# user without the registry would, on the oldest supported Terraform, the
# newest tested one and OpenTofu.
#
#  1. goreleaser builds a snapshot of the next release (the version at the top
#     of CHANGELOG.md) from .goreleaser.yml: a zip per platform, SHA256SUMS
#     with the registry manifest; unsigned (no key here) and not published.
#     Only Go modules are downloaded, before the build; the build runs with
#     GOPROXY=off.
#  2. dist/mirror is laid out as a provider filesystem mirror (the "packed"
#     layout: HOST/zulip-terraform/zulip/<zip>), under both registries' names.
#  3. TestReleaseArtifacts, TestReleaseInstalls and TestGitOps check the files,
#     run `init` from the mirror (no dev_overrides), compare the lock file's
#     hashes with the zips, plan the demo against the reference server and run
#     the GitOps example's pipeline (release_unix_test.go, gitops_unix_test.go).
#
# Environment: GORELEASER (the goreleaser binary), TERRAFORM_OLD (the oldest
# supported Terraform); the newest Terraform and OpenTofu come from
# scripts/cli.sh (TERRAFORM_NEWEST, TOFU, or built from ../shared/tools).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
step() { printf '\n== %s\n' "$*"; }

: "${GORELEASER:?GORELEASER must name the goreleaser binary (make release-check installs it)}"
: "${TERRAFORM_OLD:?TERRAFORM_OLD must name the oldest supported Terraform}"

version="$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\) .*/\1/p' CHANGELOG.md | head -n 1)"
[ -n "$version" ] || { echo "release-check: no version heading (## X.Y.Z ...) at the top of CHANGELOG.md" >&2; exit 1; }

# RELEASE_PLATFORMS (e.g. "linux_amd64 windows_amd64") builds only those
# platforms: CI's check, where each platform is a cold build of its own; a
# release and `make release-check` without it build them all.
config=.goreleaser.yml
if [ -n "${RELEASE_PLATFORMS:-}" ]; then
	targets=""
	for p in $RELEASE_PLATFORMS; do
		case "$p" in
		*_amd64) t="${p}_v1" ;;
		*_386) t="${p}_sse2" ;;
		*_arm64) t="${p}_v8.0" ;;
		*_arm) t="${p}_6" ;;
		*) echo "release-check: unknown platform $p in RELEASE_PLATFORMS" >&2; exit 1 ;;
		esac
		targets="$targets${targets:+, }$t"
	done
	config="$(mktemp --suffix=.yml)"
	trap 'rm -f "$config"' EXIT
	# goreleaser's targets override the goos and goarch lists of the build.
	sed "s/^    binary: /    targets: [$targets]\n    binary: /" .goreleaser.yml >"$config"
	grep -q "targets: \[$targets\]" "$config" || { echo "release-check: could not restrict .goreleaser.yml to $RELEASE_PLATFORMS" >&2; exit 1; }
fi

step "Building release $version as a snapshot with goreleaser (offline, unsigned)${RELEASE_PLATFORMS:+: $RELEASE_PLATFORMS only}"
go mod download
ZULIP_RELEASE_VERSION="$version" GOPROXY=off GOFLAGS=-mod=readonly GOTOOLCHAIN=local \
	"$GORELEASER" release --config "$config" --snapshot --clean --skip=sign --parallelism 2
[ -f dist/metadata.json ] || { echo "release-check: goreleaser did not finish (no dist/metadata.json)" >&2; exit 1; }
ls dist/*.zip dist/*_SHA256SUMS

step "Laying dist/mirror out as a provider mirror"
for host in registry.terraform.io registry.opentofu.org; do
	mkdir -p "dist/mirror/$host/zulip-terraform/zulip"
	ln -f dist/terraform-provider-zulip_"$version"_*.zip "dist/mirror/$host/zulip-terraform/zulip/"
done
echo "dist/mirror: $(find dist/mirror -name '*.zip' | wc -l) zips"

clis="$TERRAFORM_OLD"
for kind in newest tofu; do
	if path="$(sh scripts/cli.sh "$kind")"; then
		clis="$clis $path"
	else
		status=$?
		[ "$status" -eq 3 ] || exit "$status"
		echo "release-check: without $kind (see above)"
	fi
done

step "Installing it from the mirror and running it:$(for c in $clis; do printf ' %s' "$("$c" version 2>/dev/null | sed -n 's/^\(Terraform\|OpenTofu\) v/\1 /p' | head -n 1)"; done)"
ZULIP_RELEASE_DIST="$repo/dist" ZULIP_RELEASE_CLIS="$clis" ZULIP_RELEASE_PLATFORMS="${RELEASE_PLATFORMS:-}" \
	go test -count=1 -v -timeout 20m -run '^(TestReleaseArtifacts|TestReleaseInstalls|TestGitOps)$' .

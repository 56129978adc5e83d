#!/bin/sh
# scripts/cli.sh newest|tofu
#
# Prints the path of a CLI the acceptance tests and `make release-check` run on,
# as the last line on stdout:
#
#   newest  the newest tested Terraform (TERRAFORM_NEWEST_VERSION)
#   tofu    OpenTofu (OPENTOFU_VERSION)
#
# A path given in TERRAFORM_NEWEST or TOFU wins (a CI that installs the CLIs its
# own way, such as .github/workflows/test.yml); otherwise the CLI is built from
# its Go module by ../shared/tools/get-terraform.sh or get-opentofu.sh into one
# cache outside the clone, shared by both so that the Go modules they have in
# common are downloaded and compiled once (minutes cold, instant warm; set
# CLI_CACHE to put it elsewhere). Nothing downloads a
# release binary. Without either, it says why on stderr and exits 3, which the
# make targets turn into a skip.
set -eu

kind=${1:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$repo/.." && pwd)/shared/tools
cache=${CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-zulip/cli}

case $kind in
newest)
	given=${TERRAFORM_NEWEST:-}
	version=${TERRAFORM_NEWEST_VERSION:-1.16.4}
	script=$shared/get-terraform.sh
	name="Terraform $version"
	;;
tofu)
	given=${TOFU:-}
	version=${OPENTOFU_VERSION:-1.12.6}
	script=$shared/get-opentofu.sh
	name="OpenTofu $version"
	;;
*)
	echo "usage: $0 newest|tofu" >&2
	exit 2
	;;
esac

if [ -n "$given" ]; then
	[ -x "$given" ] || { echo "cli.sh: $given is not an executable" >&2; exit 1; }
	echo "$given"
	exit 0
fi
if [ ! -f "$script" ]; then
	echo "cli.sh: $name: $script is absent (../shared is not beside this clone) and no path was given; set $( [ "$kind" = tofu ] && echo TOFU || echo TERRAFORM_NEWEST ) to run it" >&2
	exit 3
fi
if [ ! -x "$cache/$( [ "$kind" = tofu ] && echo "tofu-$version/tofu" || echo "terraform-$version/terraform" )" ]; then
	echo "cli.sh: building $name from its Go module into $cache (several minutes, once)" >&2
fi
mkdir -p "$cache"
sh "$script" "$cache" "$version" | tail -n 1

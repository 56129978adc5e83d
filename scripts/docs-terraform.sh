#!/bin/sh
# scripts/docs-terraform.sh: prints the path of a Terraform that `make
# generate` can render the docs with, or says what it needs and exits 1.
#
# tfplugindocs reads the provider's schema from `terraform providers schema
# -json`, which includes list resources and actions only from Terraform 1.14
# on: with an older Terraform their pages would be deleted. Any Terraform 1.14
# or newer renders the same pages. Tried in order: TERRAFORM_DOCS, the
# terraform on PATH, and the newest tested Terraform (scripts/cli.sh newest:
# TERRAFORM_NEWEST, or built by ../shared/tools/get-terraform.sh).
set -eu
cd "$(dirname "$0")/.."

# renders PATH: true when PATH is Terraform 1.14 or newer.
renders() {
	line=$("$1" version 2>/dev/null | sed -n '1p')
	case $line in
	"Terraform v"*) ;;
	*) return 1 ;;
	esac
	v=${line#Terraform v}
	major=${v%%.*}
	rest=${v#*.}
	minor=${rest%%.*}
	[ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge 14 ]; }
}

found=""
for candidate in "${TERRAFORM_DOCS:-}" "$(command -v terraform 2>/dev/null || true)"; do
	[ -n "$candidate" ] || continue
	if renders "$candidate"; then
		echo "$candidate"
		exit 0
	fi
	found="$found
  $candidate: $("$candidate" version 2>/dev/null | sed -n '1p')"
done
if path=$(sh scripts/cli.sh newest 2>/dev/null) && renders "$path"; then
	echo "$path"
	exit 0
fi
cat >&2 <<EOF
make generate needs Terraform 1.14 or newer: the docs of list resources and actions are rendered
from \`terraform providers schema -json\`, which has them only from 1.14 on. Found:${found:-
  no terraform on PATH}
Nothing was changed. Give one with TERRAFORM_DOCS=/path/to/terraform (any 1.14+ renders the same
docs), put it first on PATH, or clone ../shared beside this repository so that
../shared/tools/get-terraform.sh builds the newest tested one.
EOF
exit 1

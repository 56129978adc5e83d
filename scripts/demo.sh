#!/usr/bin/env bash
# make demo: the provider's main job against the bundled reference server.
# No Zulip account and no network: the provider is built here, Terraform finds it
# through a dev_overrides CLI configuration in a temporary directory (nothing is
# written to your own Terraform configuration, and `terraform init` is not needed),
# and the reference server runs on a free loopback port until the demo ends.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/zulip-demo.XXXXXX")"
server_pid=""

cleanup() {
  status=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  if [ "$status" -eq 0 ]; then echo; echo "== Demo finished: the server is stopped and $work is removed."; fi
  exit "$status"
}
trap cleanup EXIT INT TERM

step() { printf '\n== %s\n' "$*"; }

# TERRAFORM names the CLI: terraform on PATH, or e.g. TERRAFORM=tofu for OpenTofu (1.11 or newer).
tf="${TERRAFORM:-terraform}"
command -v "$tf" >/dev/null || { echo "$tf is not on PATH" >&2; exit 1; }

step "Building the provider and the reference server"
# Go prints nothing while it downloads and compiles: say what a first build is doing.
framework="$(awk '$1 == "github.com/hashicorp/terraform-plugin-framework" { print $2 }' "$repo/go.mod")"
if [ ! -d "$(go env GOMODCACHE)/github.com/hashicorp/terraform-plugin-framework@$framework" ]; then
  echo "First build: Go downloads the modules (the only network access) and compiles them; this takes a few minutes."
fi
(cd "$repo" && go build -o "$work/bin/terraform-provider-zulip" . && go build -o "$work/bin/zulip-refserver" ./internal/cmd/zulip-refserver)

step "Starting the reference server on a free loopback port"
"$work/bin/zulip-refserver" -listen 127.0.0.1:0 -quiet >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
base=""
for _ in $(seq 1 100); do
  base="$(sed -n 's/^Zulip reference server listening on \(http[^ ]*\).*/\1/p' "$work/server.out" | head -1)"
  [ -n "$base" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "the reference server did not start" >&2; exit 1; }
echo "Reference server at $base"

# Terraform uses the provider just built, for this process only.
cat >"$work/terraformrc" <<CONF
provider_installation {
  dev_overrides {
    "registry.terraform.io/zulip-terraform/zulip" = "$work/bin"
    "registry.opentofu.org/zulip-terraform/zulip" = "$work/bin"
  }
  direct {}
}
CONF
export TF_CLI_CONFIG_FILE="$work/terraformrc"
export TF_IN_AUTOMATION=1
# The organization owner's credentials, as a zuliprc-less setup would give them.
export ZULIP_SITE="$base"
export ZULIP_EMAIL="olivia@zulip.example.com"
ZULIP_API_KEY="$(awk '$3 == "olivia@zulip.example.com" { print $4; exit }' "$work/server.out")"
export ZULIP_API_KEY
[ -n "$ZULIP_API_KEY" ] || { echo "could not read the owner's API key from the server's banner" >&2; exit 1; }

# The SMS conversations API is served by the same reference server, under /a1.
export ZULIP_SMS_API_URL="$base" ZULIP_SMS_USERNAME="sms-user" ZULIP_SMS_PASSWORD="sms-password"

cp -R "$repo/examples/demo" "$work/config"
cd "$work/config"

step "terraform apply: the realm as declared in examples/demo"
"$tf" apply -auto-approve -input=false -compact-warnings

step "Outputs"
"$tf" output

step "A second plan must be empty"
set +e
"$tf" plan -input=false -detailed-exitcode -compact-warnings >"$work/plan2.txt"
code=$?
set -e
if [ "$code" -ne 0 ]; then cat "$work/plan2.txt"; echo "the second plan is not empty (exit $code)" >&2; exit 1; fi
echo "No changes: the realm matches the configuration."

step "Someone changes the issue linkifier in the web UI (out of band)"
linkifier_id="$("$tf" output -raw issue_linkifier_id)"
curl -sS -u "$ZULIP_EMAIL:$ZULIP_API_KEY" -X PATCH "$base/api/v1/realm/filters/$linkifier_id" \
  --data-urlencode 'pattern=ZT-(?P<id>[0-9]+)' \
  --data-urlencode 'url_template=https://bugs.example.org/show?id=ZT-{id}'
echo

step "terraform plan shows the repair"
set +e
"$tf" plan -input=false -detailed-exitcode -compact-warnings
code=$?
set -e
[ "$code" -eq 2 ] || { echo "expected the plan to show a change (exit 2), got $code" >&2; exit 1; }

step "terraform apply repairs it"
"$tf" apply -auto-approve -input=false -compact-warnings

step "terraform destroy"
"$tf" destroy -auto-approve -input=false -compact-warnings

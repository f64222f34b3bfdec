#!/usr/bin/env bash
# Builds the images and runs both compose stacks for real with podman + podman-compose
# (scripts/stack-test.ts says what it checks). Needs Debian's podman, podman-compose, runc and
# debootstrap (.ci/run installs them) and `npm ci`. Prints each phase's duration.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PWD/node_modules/node/bin:$PWD/node_modules/.bin:$PATH
# podman on these machines: no default rlimits (the sandbox refuses them), and runc (crun
# refuses the hybrid cgroup layout here).
conf=$(mktemp /tmp/upstate-containers.XXXXXX.conf)
trap 'rm -f "$conf"' EXIT
printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n' >"$conf"
export CONTAINERS_CONF=$conf
start=$(date +%s)
# No registry is reachable here: the Node 24 base image is built locally under its official name.
scripts/stack/base-image.sh podman
echo "[stack-test] phase=base-image seconds=$(($(date +%s) - start))"
node scripts/stack-test.ts

#!/usr/bin/env bash
# Builds the Node 24 base image locally and tags it with the official name the Dockerfiles use
# (docker.io/library/node:24-bookworm-slim). Only for machines that cannot pull from a registry
# (CI here): Debian bookworm from debootstrap, plus the Node 24 binary of the `node` npm package
# (node_modules/node, the version package-lock.json pins) and the machine's npm. A machine that
# can pull the official image never needs this. Usage: scripts/stack/base-image.sh [podman]
set -euo pipefail
cd "$(dirname "$0")/../.."
engine=${1:-podman}
tag=docker.io/library/node:24-bookworm-slim
if $engine image exists "$tag" 2>/dev/null; then
	echo "base-image: $tag already present"
	exit 0
fi
work=$(mktemp -d /tmp/upstate-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
	{ tail -20 "$work/debootstrap.log"; exit 1; }
install -m 0755 node_modules/node/bin/node "$rootfs/usr/local/bin/node"
strip --strip-debug "$rootfs/usr/local/bin/node" 2>/dev/null || true
npm_dir=$(npm root -g 2>/dev/null)/npm
[ -f "$npm_dir/bin/npm-cli.js" ] || { echo "base-image: no npm at $npm_dir (apt-get install npm)" >&2; exit 1; }
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# The official image has a `node` user (uid 1000) the Dockerfiles run as.
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | $engine import \
	--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
	--change 'CMD ["node"]' - "$tag" >/dev/null
echo "base-image: built $tag"

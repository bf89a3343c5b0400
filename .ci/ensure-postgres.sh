#!/usr/bin/env bash
# Make sure the local PostgreSQL server (127.0.0.1:5432, trust auth, user
# postgres) is running and that the pgvector extension can be created in it.
#
# Order of preference for getting pgvector:
#   1. it already works                      -> nothing to do (fast path)
#   2. postgresql-<major>-pgvector is installable from the configured apt
#      sources                               -> apt-get install it
#   3. otherwise build Debian's pgvector *source package* from the NEXT Debian
#      release (bookworm -> trixie), fetched from the same mirror the machine
#      already uses. The mirror is read from apt's configuration at run time;
#      no host name is written here. The next release's index is fetched into
#      a private, temporary apt state, so the machine's own apt lists and
#      sources are left untouched (.ci/lib/postgres-ci.sh, shared with
#      ensure-postgres17.sh).
#
# Idempotent; safe to run on every CI run. Needs root only when it has to
# install something.
set -euo pipefail

LOG_TAG=ensure-postgres
# log, die, pg_sql, is_ready, the lock, the exit trap, run_logged and the next release's sources.
# shellcheck source=lib/postgres-ci.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/postgres-ci.sh"

PGPORT_NUM=5432
BIN="" # the machine's psql, on PATH
PROBE_DB=ci_pgvector_probe

# ---------------------------------------------------------------------------
# 1. server running?
# ---------------------------------------------------------------------------
cluster_version() {
    # Prefer the cluster named "main" configured on our port; else the newest.
    local v
    v=$(pg_lsclusters --no-header 2>/dev/null |
        awk -v p="$PGPORT_NUM" '$2 == "main" && $3 == p { print $1; exit }') || true
    if [ -z "$v" ]; then
        v=$(find /etc/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null |
            sort -V | tail -n 1) || true
    fi
    printf '%s' "$v"
}

ensure_server() {
    command -v pg_isready >/dev/null 2>&1 ||
        die "pg_isready not found: PostgreSQL is not installed on this machine"
    if is_ready; then
        log "PostgreSQL is accepting connections on $PGHOST_ADDR:$PGPORT_NUM"
        return 0
    fi
    local ver
    ver=$(cluster_version)
    [ -n "$ver" ] || die "no PostgreSQL cluster found under /etc/postgresql"
    need_root "start PostgreSQL"
    log "PostgreSQL not ready; starting cluster $ver/main"
    # 9>&-: the server daemon must not inherit (and hold forever) our lock fd.
    if ! pg_ctlcluster --skip-systemctl-redirect "$ver" main start 9>&-; then
        log "pg_ctlcluster start returned non-zero (it may already be starting); waiting anyway"
    fi
    local i
    for ((i = 0; i < READY_TIMEOUT_S; i++)); do
        if is_ready; then
            log "PostgreSQL is ready after ~${i}s"
            return 0
        fi
        sleep 1
    done
    tail -n 30 "/var/log/postgresql/postgresql-$ver-main.log" >&2 2>/dev/null || true
    die "PostgreSQL did not become ready on $PGHOST_ADDR:$PGPORT_NUM within ${READY_TIMEOUT_S}s"
}

# ---------------------------------------------------------------------------
# 2./4. probe: CREATE EXTENSION vector in a scratch database
# ---------------------------------------------------------------------------
# On success sets PROBE_VERSION and returns 0. With "strict" it also checks
# the cosine distance and reports why it failed.
PROBE_VERSION=""
probe_pgvector() {
    local mode=${1:-quiet} err rc=0 dist
    pg_sql postgres "DROP DATABASE IF EXISTS $PROBE_DB" >/dev/null
    pg_sql postgres "CREATE DATABASE $PROBE_DB" >/dev/null
    PROBE_CREATED=1
    if ! err=$(pg_sql "$PROBE_DB" 'CREATE EXTENSION IF NOT EXISTS vector' 2>&1); then
        rc=1
        if [ "$mode" = strict ]; then
            log "CREATE EXTENSION vector failed: $err"
        else
            err=${err#*ERROR:  }
            log "pgvector not available yet: ${err%%$'\n'*}"
        fi
    else
        PROBE_VERSION=$(pg_sql "$PROBE_DB" "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        if [ "$mode" = strict ]; then
            if ! dist=$(pg_sql "$PROBE_DB" "SELECT '[1,0]'::vector <=> '[0,1]'::vector" 2>&1); then
                log "distance query failed: $dist"
                rc=1
            elif [ "$(pg_sql "$PROBE_DB" "SELECT ('[1,0]'::vector <=> '[0,1]'::vector) = 1")" != t ]; then
                log "unexpected cosine distance: got '$dist', expected 1"
                rc=1
            else
                log "cosine distance '[1,0]' <=> '[0,1]' = $dist (ok)"
            fi
        fi
    fi
    pg_sql postgres "DROP DATABASE IF EXISTS $PROBE_DB" >/dev/null
    PROBE_CREATED=0
    return "$rc"
}

# ---------------------------------------------------------------------------
# 3. install / build
# ---------------------------------------------------------------------------
apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

# The mirror's URI from the apt source files themselves, for when apt's own
# parser (mirror_from_apt_config) names none: a small parser of the one-line
# and deb822 formats.
mirror_from_source_files() {
    local codename=$1 sl sp
    sl=/etc/apt/sources.list
    sp=/etc/apt/sources.list.d
    eval "$(apt-config shell sl Dir::Etc::sourcelist/f sp Dir::Etc::sourceparts/d 2>/dev/null)" || true
    sp=${sp%/}
    {
        # One-line format: deb [opts] URI SUITE COMPONENT...
        for f in "$sl" "$sp"/*.list; do
            [ -f "$f" ] || continue
            awk -v c="$codename" '
                { sub(/#.*/, "") }
                $1 == "deb" || $1 == "deb-src" {
                    i = 2
                    if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                    if ($(i + 1) != c) next
                    for (j = i + 2; j <= NF; j++) if ($j == "main") { print $i; exit }
                }' "$f"
        done
        # deb822 format: stanzas with Types/URIs/Suites/Components[/Enabled].
        for f in "$sp"/*.sources; do
            [ -f "$f" ] || continue
            awk -v c="$codename" '
                function flush(   n, u, s, k, hit) {
                    if (enabled != "no" && types ~ /(^| )deb(-src)?( |$)/ &&
                        (" " comps " ") ~ / main / && (" " suites " ") ~ (" " c " ")) {
                        n = split(uris, u, " "); if (n > 0) print u[1]
                    }
                    types = uris = suites = comps = enabled = ""
                }
                /^[ \t]*#/ { next }
                /^[ \t]*$/ { flush(); next }
                /^[A-Za-z-]+:/ {
                    key = tolower($1); sub(/:$/, "", key)
                    val = $0; sub(/^[^:]*:[ \t]*/, "", val)
                    if (key == "types") types = val
                    else if (key == "uris") uris = val
                    else if (key == "suites") suites = val
                    else if (key == "components") comps = val
                    else if (key == "enabled") enabled = tolower(val)
                }
                END { flush() }' "$f"
        done
    } | head -n 1
}

install_binary_if_available() {
    local major=$1 pkg cand
    pkg="postgresql-$major-pgvector"
    cand=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2; exit }') || true
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
        log "no installable binary package $pkg in the configured apt sources"
        return 1
    fi
    log "installing binary package $pkg ($cand) from the configured apt sources"
    run_logged "apt-get install $pkg" apt_install "$pkg"
    BUILT_FROM="binary package $pkg $cand"
}

build_from_next_release_source() {
    local major=$1 codename next mirror pgc src_ver
    codename=$(os_codename)
    [ -n "$codename" ] || die "VERSION_CODENAME missing from /etc/os-release"
    next=$(next_codename "$codename") ||
        die "don't know the release after '$codename'; extend next_codename() in .ci/lib/postgres-ci.sh"
    mirror=$(mirror_from_apt_config "$codename" mirror_from_source_files) ||
        die "could not find a configured apt mirror for '$codename main' in the apt sources"
    log "source build: $codename -> next release '$next', mirror taken from apt config"

    log "installing build dependencies (postgresql-server-dev-$major, build-essential, dpkg-dev)"
    run_logged "apt-get install build deps" \
        apt_install "postgresql-server-dev-$major" build-essential dpkg-dev

    pgc="/usr/lib/postgresql/$major/bin/pg_config"
    [ -x "$pgc" ] || die "$pgc not found after installing postgresql-server-dev-$major"
    case "$("$pgc" --version)" in
        "PostgreSQL $major."* | "PostgreSQL $major"[!0-9]*) ;;
        *) die "$pgc reports '$("$pgc" --version)', expected major $major" ;;
    esac

    use_next_release_sources "$mirror" "$next"
    log "fetching the $next source index into a temporary apt state"
    run_logged "apt-get update ($next deb-src)" apt-get -q "${APT_OPTS[@]}" update
    src_ver=$(apt-cache "${APT_OPTS[@]}" showsrc pgvector 2>/dev/null |
        awk '/^Version:/ { print $2; exit }') || true
    [ -n "$src_ver" ] || die "no pgvector source package in $next main"
    build_pgvector_source "$src_ver" "$next" "$pgc"
    BUILT_FROM="Debian source package pgvector $src_ver from $next, built with make"
}

# ---------------------------------------------------------------------------
main() {
    one_run_at_a_time ensure-postgres 900

    ensure_server

    if probe_pgvector quiet; then
        log "pgvector works already (extension version $PROBE_VERSION); nothing to do"
        exit 0
    fi

    need_root "install pgvector"
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/ensure-postgres.XXXXXX")
    : >"$WORK/build.log"

    local num major
    num=$(pg_sql postgres 'SHOW server_version_num')
    major=$((num / 10000))
    log "running server is PostgreSQL $major (server_version_num $num)"

    BUILT_FROM=""
    log "refreshing apt package lists"
    if ! DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$WORK/build.log" 2>&1; then
        log "apt-get update reported errors (continuing with the lists it has)"
    fi
    if ! install_binary_if_available "$major"; then
        build_from_next_release_source "$major"
    fi

    if ! probe_pgvector strict; then
        die "pgvector still does not work after install ($BUILT_FROM)"
    fi
    log "pgvector $PROBE_VERSION installed and working ($BUILT_FROM)"
}

main "$@"

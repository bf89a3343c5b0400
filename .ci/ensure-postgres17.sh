#!/usr/bin/env bash
# Make sure a PostgreSQL 17 test server (127.0.0.1:5433, trust auth, user postgres) is running
# beside the machine's PostgreSQL 15 (5432, see ensure-postgres.sh), with pgvector and the other
# extensions the migrations create (pg_trgm, fuzzystrmatch, unaccent, cube, earthdistance).
#
# Debian bookworm ships no PostgreSQL 17, so it is built from source, once per version:
#   1. the upstream tarball of Debian's postgresql-17 *source package* from the NEXT Debian release
#      (bookworm -> trixie), and Debian's pgvector source package of that release (the one
#      ensure-postgres.sh builds), are fetched from the mirror the machine already uses. As in
#      ensure-postgres.sh (both through .ci/lib/postgres-ci.sh) the mirror is read from apt's
#      configuration at run time (no host name is written here) and the next release's index goes
#      into a private, temporary apt state: the machine's own apt lists and sources are left
#      untouched. The downloaded files are checked against the signed index; when the mirror's
#      pool lags behind its index (the newest upload is listed but missing), the previous upstream
#      release of the same Debian series is used, checked by its uploader's signature instead
#      (see resolve_pg_source).
#   2. PostgreSQL is configured lean (no ICU, readline, LLVM, SSL; the system's time zone data) and
#      built with `make -j<cores>` (the server, its client programs, and only the contrib modules
#      the migrations use); pgvector is built against it into the same prefix.
#   3. the result is kept in ${XDG_CACHE_HOME:-$HOME/.cache}/road-trip/postgresql-17/<version>,
#      which survives between CI runs; a file in it records what was built, and a prefix without
#      that file (an interrupted build) is built again. Later runs use the cache and skip the build
#      without touching the network; every RECHECK_DAYS days (env PG17_RECHECK_DAYS, 0 = every run)
#      the next release's index is read again, and a new PostgreSQL 17 version there is built into
#      a new folder (older ones are removed once the new one serves).
#
# The cluster lives in /var/tmp/road-trip-pg17 (env PG17_RUN_DIR): data/ (initdb: UTF8, locale
# C.UTF-8 like Debian's 15 cluster here, trust auth, superuser postgres), log/, run/ (the Unix
# socket). It is reused across runs, recreated when it is not a 17 cluster or does not start. When
# run as root the server and initdb run as the `postgres` OS user (PostgreSQL refuses root), as
# Debian's 15 server does; if that user cannot reach the cache (root's home is private), the built
# tree is copied next to the cluster (PostgreSQL finds its files relative to its binaries).
#
# Usage: ensure-postgres17.sh [--print-bindir]
#   --print-bindir: log to stderr and print only the server's bin directory on stdout, e.g. for
#   PG_BIN_DIR (the throwaway clusters of the fault tests then run PostgreSQL 17 too).
#
# Idempotent; safe to run on every CI run. Needs root only to install build dependencies or to
# fetch sources (first run, or after the recheck interval).
set -euo pipefail

LOG_TAG=ensure-postgres17
# log, die, pg_sql and is_ready (the programs of $BIN), is_root, the lock, the exit trap,
# run_logged and the next release's sources.
# shellcheck source=lib/postgres-ci.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/postgres-ci.sh"

PGPORT_NUM=5433
SERVER_OS_USER=postgres
PG_MAJOR=17
PROBE_DB=ci_pg17_probe
# Extensions the migrations create (apps/*/src/database/migrations, BACKEND_EXTENSIONS): the
# contrib modules among them are the only ones built. earthdistance needs cube.
CONTRIB_MODULES=(pg_trgm fuzzystrmatch unaccent cube earthdistance)
PROBE_EXTENSIONS=(vector pg_trgm fuzzystrmatch unaccent cube earthdistance)
# Bump when the configure options or the build steps below change: cached builds made by another
# recipe are then built again.
RECIPE=1
RECHECK_DAYS=${PG17_RECHECK_DAYS:-7}

CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/road-trip/postgresql-$PG_MAJOR"
RUN_DIR=${PG17_RUN_DIR:-/var/tmp/road-trip-pg17}
DATA_DIR="$RUN_DIR/data"
LOG_DIR="$RUN_DIR/log"
SOCKET_DIR="$RUN_DIR/run"
SERVER_LOG="$LOG_DIR/server.log"
BUILD_STAMP=.road-trip-build   # in a prefix: what was built; written last
LATEST_FILE="$CACHE_ROOT/latest" # versions found at the last index check; its mtime = when

BIN=""

# Run a command as the server's OS user (as root), else as ourselves. 9>&- 3>&-: a server started
# this way must not inherit (and hold forever) our lock fd or our copy of stdout (a pipe to the
# caller would never close).
as_server_user() {
    if is_root; then
        runuser -u "$SERVER_OS_USER" -- "$@" 9>&- 3>&-
    else
        "$@" 9>&- 3>&-
    fi
}

ensure_work() {
    if [ -z "$WORK" ]; then
        WORK=$(mktemp -d "${TMPDIR:-/tmp}/ensure-postgres17.XXXXXX")
        : >"$WORK/build.log"
    fi
}

# "key=value" lines -> value of key ("" if absent).
stamp_get() { awk -F= -v k="$2" '$1 == k { sub(/^[^=]*=/, ""); print; exit }' "$1" 2>/dev/null || true; }

# A prefix is usable when its stamp says it was built by this recipe.
prefix_complete() {
    local prefix=$1
    [ -f "$prefix/$BUILD_STAMP" ] && [ "$(stamp_get "$prefix/$BUILD_STAMP" recipe)" = "$RECIPE" ] &&
        [ -x "$prefix/bin/postgres" ]
}

# Directory name for a Debian version (e.g. 17.6-0+deb13u1): as is, minus anything odd.
version_key() { printf '%s' "$1" | tr -c 'A-Za-z0-9.+~_-' '_'; }

# ---------------------------------------------------------------------------
# sources: the next release's index in a private apt state (.ci/lib/postgres-ci.sh)
# ---------------------------------------------------------------------------

NEXT=""
# Fetch the next release's source index into $WORK/apt. Returns non-zero (with a message) when
# that is not possible, so a cached build can still be used.
fetch_next_index() {
    local codename mirror
    codename=$(os_codename)
    [ -n "$codename" ] || { log "VERSION_CODENAME missing from /etc/os-release"; return 1; }
    NEXT=$(next_codename "$codename") ||
        { log "don't know the release after '$codename'; extend next_codename() in .ci/lib/postgres-ci.sh"; return 1; }
    mirror=$(mirror_from_apt_config "$codename") ||
        { log "no configured apt mirror for '$codename main' in the apt sources"; return 1; }
    ensure_work
    use_next_release_sources "$mirror" "$NEXT"
    log "fetching the $NEXT source index into a temporary apt state (mirror taken from apt config)"
    if ! apt-get -q "${APT_OPTS[@]}" update >>"$WORK/build.log" 2>&1; then
        tail -n 20 "$WORK/build.log" >&2 || true
        log "apt-get update of the $NEXT source index failed"
        return 1
    fi
}

src_version() {
    apt-cache "${APT_OPTS[@]}" showsrc "$1" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1
}

# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
ensure_build_deps() {
    # bison and flex: PostgreSQL 17's tarballs no longer ship the generated parsers. perl: the
    # build generates catalog headers with it. dpkg-dev: dpkg-source for pgvector.
    local -a wanted=(gcc make libc6-dev bison flex perl zlib1g-dev dpkg-dev) missing=()
    local p
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
    done
    [ "${#missing[@]}" = 0 ] && return 0
    need_root "install build dependencies (${missing[*]})"
    log "installing missing build dependencies: ${missing[*]}"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
        >>"$WORK/build.log" 2>&1; then
        log "apt-get install failed; refreshing the package lists and trying again"
        DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$WORK/build.log" 2>&1 || true
        run_logged "apt-get install ${missing[*]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}

# Which PostgreSQL 17 to build: sets PG_VER, ORIG_URI (its upstream tarball) and ORIG_HASH.
# Normally the version in the next release's index ($1), its files checked by apt against that
# signed index. Some mirrors lag behind their index (the pool lacks the newest upload): then the
# previous upstream releases of the same Debian series (17.11-0+deb13u1 for 17.12-0+deb13u1, ...,
# up to PG17_FALLBACK_RELEASES back) are tried from the same pool folder. Their .dsc is no longer
# in the index, so its OpenPGP signature is checked against the Debian developers' keyring
# (package debian-keyring) instead, and the tarball against the checksum in that signed .dsc.
PG_VER=""
ORIG_URI=""
ORIG_HASH=""
resolve_pg_source() {
    local idx=$1 uris dsc_uri dsc_hash pool_dir
    uris=$(cd "$WORK/src" && apt-get -q "${APT_OPTS[@]}" --print-uris source "postgresql-$PG_MAJOR=$idx" 2>>"$WORK/build.log" |
        grep "^'") || die "apt-get --print-uris source postgresql-$PG_MAJOR=$idx gave no files"
    dsc_uri=$(awk '$2 ~ /\.dsc$/ { gsub(/\047/, "", $1); print $1; exit }' <<<"$uris")
    dsc_hash=$(awk '$2 ~ /\.dsc$/ { print $4; exit }' <<<"$uris")
    if [ -z "$dsc_uri" ] || [ -z "$dsc_hash" ]; then
        die "no .dsc among the files of postgresql-$PG_MAJOR $idx"
    fi
    pool_dir=${dsc_uri%/*}
    if /usr/lib/apt/apt-helper "${APT_OPTS[@]}" download-file "$dsc_uri" "$WORK/src/index.dsc" "$dsc_hash" \
        >>"$WORK/build.log" 2>&1; then
        PG_VER=$idx
        ORIG_URI=$(awk '$2 ~ /\.orig\.tar\.[a-z0-9]+$/ { gsub(/\047/, "", $1); print $1; exit }' <<<"$uris")
        ORIG_HASH=$(awk '$2 ~ /\.orig\.tar\.[a-z0-9]+$/ { print $4; exit }' <<<"$uris")
        if [ -z "$ORIG_URI" ] || [ -z "$ORIG_HASH" ]; then
            die "no upstream tarball among the files of postgresql-$PG_MAJOR $idx"
        fi
        log "source: postgresql-$PG_MAJOR $PG_VER as listed in the signed $NEXT index"
        return 0
    fi

    local upstream rev minor steps n cand dsc name hash
    upstream=${idx%%-*}
    rev=${idx#*-}
    minor=${upstream#*.}
    steps=${PG17_FALLBACK_RELEASES:-3}
    case "$minor" in '' | *[!0-9]*) die "the mirror lacks postgresql-$PG_MAJOR $idx and '$upstream' is no $PG_MAJOR.N version" ;; esac
    log "the mirror lacks the files of postgresql-$PG_MAJOR $idx (listed in the $NEXT index);" \
        "trying up to $steps earlier upstream releases of the same Debian series"
    local keyring=/usr/share/keyrings/debian-keyring.gpg
    if [ ! -f "$keyring" ]; then
        need_root "install debian-keyring (to verify an older .dsc)"
        log "installing debian-keyring to verify the signature of an older .dsc"
        run_logged "apt-get install debian-keyring" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends debian-keyring
    fi
    for ((n = minor - 1; n >= 0 && n >= minor - steps; n--)); do
        cand="$PG_MAJOR.$n-$rev"
        dsc="$WORK/src/postgresql-${PG_MAJOR}_$cand.dsc"
        if ! /usr/lib/apt/apt-helper "${APT_OPTS[@]}" download-file \
            "$pool_dir/postgresql-${PG_MAJOR}_${cand//+/%2b}.dsc" "$dsc" >>"$WORK/build.log" 2>&1; then
            log "  postgresql-$PG_MAJOR $cand: not on the mirror"
            continue
        fi
        # Only the signed part of the .dsc is read from here on.
        gpgv --keyring "$keyring" --output "$dsc.verified" "$dsc" >>"$WORK/build.log" 2>&1 ||
            die "postgresql-$PG_MAJOR $cand: the .dsc's signature does not verify against $keyring"
        if [ "$(awk '/^Source:/ { print $2; exit }' "$dsc.verified")" != "postgresql-$PG_MAJOR" ] ||
            [ "$(awk '/^Version:/ { print $2; exit }' "$dsc.verified")" != "$cand" ]; then
            die "postgresql-$PG_MAJOR $cand: the signed .dsc names another package or version"
        fi
        read -r hash name < <(awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
            on && $3 ~ /\.orig\.tar\.[a-z0-9]+$/ { print $1, $3; exit }' "$dsc.verified") ||
            die "postgresql-$PG_MAJOR $cand: no upstream tarball in the signed .dsc"
        PG_VER=$cand
        ORIG_URI="$pool_dir/$name"
        ORIG_HASH="SHA256:$hash"
        log "source: postgresql-$PG_MAJOR $PG_VER (.dsc signed by $(gpgv --keyring "$keyring" "$dsc" 2>&1 |
            sed -n 's/.*Good signature from "\(.*\)".*/\1/p' | head -n 1))"
        return 0
    done
    die "no downloadable postgresql-$PG_MAJOR source: $idx and the $steps releases before it are missing on the mirror"
}

build_postgresql() {
    local pg_ver=$1 prefix=$2 jobs tarball srcdir
    jobs=$(nproc)
    # Only the upstream tarball (ORIG_URI, checked against ORIG_HASH: see resolve_pg_source):
    # Debian's patches move files to Debian's multi-version layout (/usr/lib/postgresql/17,
    # /var/run/postgresql), which a private prefix does not want.
    tarball="$WORK/src/${ORIG_URI##*/}"
    log "downloading the upstream tarball of postgresql-$PG_MAJOR $pg_ver ($NEXT)"
    run_logged "download ${ORIG_URI##*/}" \
        /usr/lib/apt/apt-helper "${APT_OPTS[@]}" download-file "$ORIG_URI" "$tarball" "$ORIG_HASH"
    mkdir -p "$WORK/src/pg"
    run_logged "unpack $(basename "$tarball")" tar -xf "$tarball" -C "$WORK/src/pg" --strip-components=1
    srcdir="$WORK/src/pg"
    [ -x "$srcdir/configure" ] || die "unpacked PostgreSQL source has no configure script"

    rm -rf -- "$prefix"
    log "configuring PostgreSQL $pg_ver for $prefix (lean: no ICU, readline, LLVM, SSL)"
    local here=$PWD
    cd "$srcdir"
    run_logged "configure" ./configure --prefix="$prefix" \
        --without-icu --without-readline --without-llvm --without-openssl \
        --without-gssapi --without-ldap --without-pam --without-libxml --without-lz4 --without-zstd \
        --with-system-tzdata=/usr/share/zoneinfo --disable-nls
    cd "$here"
    log "building PostgreSQL $pg_ver with make -j$jobs (the slow part: several minutes on 2 cores)"
    run_logged "make" make -C "$srcdir" -j "$jobs"
    run_logged "make install" make -C "$srcdir" install
    local m
    for m in "${CONTRIB_MODULES[@]}"; do
        run_logged "make contrib/$m" make -C "$srcdir/contrib/$m" -j "$jobs"
        run_logged "make install contrib/$m" make -C "$srcdir/contrib/$m" install
    done
    log "PostgreSQL $pg_ver and contrib modules (${CONTRIB_MODULES[*]}) installed in $prefix"
}

write_stamp() {
    local prefix=$1 pg_ver=$2 vec_ver=$3
    printf 'postgresql=%s\npgvector=%s\nrecipe=%s\nbuilt=%s\n' "$pg_ver" "$vec_ver" "$RECIPE" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$prefix/$BUILD_STAMP.tmp"
    mv -f "$prefix/$BUILD_STAMP.tmp" "$prefix/$BUILD_STAMP"
}

# Newest complete cached prefix (by version), or "".
newest_cached_prefix() {
    local d best=""
    [ -d "$CACHE_ROOT" ] || return 0
    while IFS= read -r d; do
        prefix_complete "$CACHE_ROOT/$d" && best="$CACHE_ROOT/$d"
    done < <(find "$CACHE_ROOT" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' | sort -V)
    printf '%s' "$best"
}

# Sets PREFIX to a complete build, building it if needed.
PREFIX=""
ensure_build() {
    mkdir -p "$CACHE_ROOT"
    local latest_pg="" age_ok=0
    if [ -f "$LATEST_FILE" ]; then
        latest_pg=$(stamp_get "$LATEST_FILE" postgresql)
        if [ "$RECHECK_DAYS" -gt 0 ] && [ -n "$(find "$LATEST_FILE" -mmin -$((RECHECK_DAYS * 1440)))" ]; then
            age_ok=1
        fi
    fi
    if [ "$age_ok" = 1 ] && [ -n "$latest_pg" ] && prefix_complete "$CACHE_ROOT/$(version_key "$latest_pg")"; then
        PREFIX="$CACHE_ROOT/$(version_key "$latest_pg")"
        log "found cached build $PREFIX ($(stamp_get "$PREFIX/$BUILD_STAMP" postgresql)," \
            "pgvector $(stamp_get "$PREFIX/$BUILD_STAMP" pgvector)); skipping the build" \
            "(sources rechecked every $RECHECK_DAYS days)"
        return 0
    fi

    local fallback
    fallback=$(newest_cached_prefix)
    if ! is_root || ! fetch_next_index; then
        if [ -n "$fallback" ]; then
            is_root || log "not root: cannot check the $NEXT index for a newer version"
            log "using cached build $fallback without checking for a newer version"
            PREFIX=$fallback
            return 0
        fi
        need_root "fetch and build PostgreSQL $PG_MAJOR (no cached build in $CACHE_ROOT)"
        die "cannot fetch the sources and no cached build in $CACHE_ROOT"
    fi

    local idx_ver pg_ver vec_ver
    idx_ver=$(src_version "postgresql-$PG_MAJOR")
    [ -n "$idx_ver" ] || die "no postgresql-$PG_MAJOR source package in $NEXT main"
    vec_ver=$(src_version pgvector)
    [ -n "$vec_ver" ] || die "no pgvector source package in $NEXT main"
    log "$NEXT has postgresql-$PG_MAJOR $idx_ver and pgvector $vec_ver"
    resolve_pg_source "$idx_ver"
    pg_ver=$PG_VER
    PREFIX="$CACHE_ROOT/$(version_key "$pg_ver")"

    if prefix_complete "$PREFIX" && [ "$(stamp_get "$PREFIX/$BUILD_STAMP" pgvector)" = "$vec_ver" ]; then
        log "found cached build $PREFIX, up to date; skipping the build"
    else
        ensure_build_deps
        local started=$SECONDS
        if prefix_complete "$PREFIX"; then
            log "cached build $PREFIX has pgvector $(stamp_get "$PREFIX/$BUILD_STAMP" pgvector); rebuilding pgvector only"
            rm -f -- "$PREFIX/$BUILD_STAMP"
        else
            build_postgresql "$pg_ver" "$PREFIX"
        fi
        build_pgvector_source "$vec_ver" "$NEXT" "$PREFIX/bin/pg_config"
        write_stamp "$PREFIX" "$pg_ver" "$vec_ver"
        log "built in $((SECONDS - started))s: $PREFIX"
    fi
    printf 'postgresql=%s\npgvector=%s\nindex=%s\n' "$pg_ver" "$vec_ver" "$idx_ver" >"$LATEST_FILE.tmp"
    mv -f "$LATEST_FILE.tmp" "$LATEST_FILE"
}

# Sets BIN: the prefix itself when the server's OS user can read it, else a copy next to the
# cluster (root's home is usually private).
ensure_runtime_bin() {
    local key copy
    if ! is_root || runuser -u "$SERVER_OS_USER" -- test -x "$PREFIX/bin/postgres" 2>/dev/null; then
        BIN="$PREFIX/bin"
        return 0
    fi
    key=$(basename "$PREFIX")
    copy="$RUN_DIR/install/$key"
    if [ ! -f "$copy/$BUILD_STAMP" ] || ! cmp -s "$copy/$BUILD_STAMP" "$PREFIX/$BUILD_STAMP"; then
        log "user $SERVER_OS_USER cannot read $PREFIX: copying it to $copy"
        mkdir -p "$RUN_DIR/install"
        chmod 755 "$RUN_DIR" "$RUN_DIR/install"
        rm -rf -- "$copy.tmp"
        cp -a -- "$PREFIX" "$copy.tmp"
        chmod -R a+rX -- "$copy.tmp"
        rm -rf -- "$copy"
        mv -- "$copy.tmp" "$copy"
    fi
    BIN="$copy/bin"
}

# ---------------------------------------------------------------------------
# cluster
# ---------------------------------------------------------------------------
# The settings this script owns, in a file of their own that postgresql.conf includes.
write_ci_conf() {
    cat <<EOF
# Written by .ci/ensure-postgres17.sh on every run; edits here are overwritten.
listen_addresses = '$PGHOST_ADDR'
port = $PGPORT_NUM
unix_socket_directories = '$SOCKET_DIR'
# Like the machine's PostgreSQL 15 cluster (SHOW max_connections = 100, autovacuum off, UTC),
# so that a difference between the two runs comes from the server version.
max_connections = 100
autovacuum = off
timezone = 'Etc/UTC'
log_timezone = 'Etc/UTC'
datestyle = 'iso, mdy'
default_text_search_config = 'pg_catalog.english'
log_line_prefix = '%m [%p] %q%u@%d '
# A throwaway test server: its data may be lost on a machine crash (the script then recreates the
# cluster), so skip the flushes to disk for speed. Never do this on a server whose data matters.
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

init_cluster() {
    log "creating a PostgreSQL $PG_MAJOR cluster in $DATA_DIR"
    rm -rf -- "$DATA_DIR"
    mkdir -p "$DATA_DIR"
    is_root && chown "$SERVER_OS_USER:" "$DATA_DIR"
    chmod 700 "$DATA_DIR"
    ensure_work
    run_logged "initdb" as_server_user "$BIN/initdb" --pgdata "$DATA_DIR" --username "$PGUSER_NAME" \
        --auth trust --encoding UTF8 --locale C.UTF-8 --no-sync
    printf "\ninclude 'road-trip-ci.conf'\n" | as_server_user tee -a "$DATA_DIR/postgresql.conf" >/dev/null
}

# pid of the postmaster of $DATA_DIR if it runs, else "".
postmaster_pid() {
    local pid
    [ -f "$DATA_DIR/postmaster.pid" ] || return 0
    pid=$(head -n 1 "$DATA_DIR/postmaster.pid" 2>/dev/null) || return 0
    if [ -n "$pid" ] && as_server_user "$BIN/pg_ctl" -D "$DATA_DIR" status >/dev/null 2>&1; then
        printf '%s' "$pid"
    fi
}

start_server() {
    log "starting PostgreSQL $PG_MAJOR ($BIN) on $PGHOST_ADDR:$PGPORT_NUM"
    as_server_user "$BIN/pg_ctl" -D "$DATA_DIR" -l "$SERVER_LOG" -w -t "$READY_TIMEOUT_S" start \
        >/dev/null 2>&1 || return 1
    local i
    for ((i = 0; i < READY_TIMEOUT_S; i++)); do
        is_ready && return 0
        sleep 1
    done
    return 1
}

# The end of the server's log, on stderr (why it did not start).
show_server_log() {
    printf '[%s] ---- last lines of %s ----\n' "$LOG_TAG" "$SERVER_LOG" >&2
    tail -n 30 "$SERVER_LOG" >&2 2>/dev/null || true
}

stop_server() {
    as_server_user "$BIN/pg_ctl" -D "$DATA_DIR" -m fast -w -t "$READY_TIMEOUT_S" stop >/dev/null 2>&1 || true
}

ensure_server() {
    mkdir -p "$RUN_DIR" "$LOG_DIR" "$SOCKET_DIR"
    if is_root; then
        chmod 755 "$RUN_DIR"
        chown "$SERVER_OS_USER:" "$LOG_DIR" "$SOCKET_DIR"
    fi

    local pid exe restart=0 conf
    if [ ! -f "$DATA_DIR/PG_VERSION" ] || [ "$(cat "$DATA_DIR/PG_VERSION")" != "$PG_MAJOR" ]; then
        pid=$(postmaster_pid)
        [ -z "$pid" ] || stop_server
        init_cluster
    fi

    conf=$(write_ci_conf)
    if [ "$(cat "$DATA_DIR/road-trip-ci.conf" 2>/dev/null)" != "$conf" ]; then
        printf '%s\n' "$conf" | as_server_user tee "$DATA_DIR/road-trip-ci.conf" >/dev/null
        restart=1
    fi

    pid=$(postmaster_pid)
    if [ -n "$pid" ]; then
        exe=$(readlink -f "/proc/$pid/exe" 2>/dev/null) || true
        if [ "$exe" != "$(readlink -f "$BIN/postgres")" ]; then
            log "running server ($pid) is ${exe:-another binary}, not $BIN/postgres: restarting it"
            restart=1
        elif [ "$restart" = 1 ]; then
            log "settings changed: restarting the server"
        fi
        if [ "$restart" = 1 ]; then
            # Stop with the binaries that run it (an older cached version may have been removed).
            if [ -n "$exe" ] && [ -x "$(dirname "$exe")/pg_ctl" ]; then
                as_server_user "$(dirname "$exe")/pg_ctl" -D "$DATA_DIR" -m fast -w stop >/dev/null 2>&1 || true
            else
                stop_server
            fi
        elif is_ready; then
            log "PostgreSQL $PG_MAJOR is accepting connections on $PGHOST_ADDR:$PGPORT_NUM (pid $pid)"
            return 0
        fi
    fi

    if is_ready && [ -z "$(postmaster_pid)" ]; then
        die "something else answers on $PGHOST_ADDR:$PGPORT_NUM (not the cluster in $DATA_DIR); stop it or free the port"
    fi
    if start_server; then
        log "PostgreSQL $PG_MAJOR is ready on $PGHOST_ADDR:$PGPORT_NUM"
        return 0
    fi
    show_server_log
    log "the server in $DATA_DIR did not start; recreating the cluster once"
    stop_server
    init_cluster
    if start_server; then
        log "PostgreSQL $PG_MAJOR is ready on $PGHOST_ADDR:$PGPORT_NUM (new cluster)"
        return 0
    fi
    show_server_log
    die "PostgreSQL $PG_MAJOR did not become ready on $PGHOST_ADDR:$PGPORT_NUM within ${READY_TIMEOUT_S}s"
}

# ---------------------------------------------------------------------------
# probe: the extensions the migrations need, in a scratch database
# ---------------------------------------------------------------------------
probe_extensions() {
    local ext err dist versions
    pg_sql postgres "DROP DATABASE IF EXISTS $PROBE_DB" >/dev/null
    pg_sql postgres "CREATE DATABASE $PROBE_DB" >/dev/null
    PROBE_CREATED=1
    for ext in "${PROBE_EXTENSIONS[@]}"; do
        err=$(pg_sql "$PROBE_DB" "CREATE EXTENSION IF NOT EXISTS $ext CASCADE" 2>&1) ||
            die "CREATE EXTENSION $ext failed on PostgreSQL $PG_MAJOR: $err"
    done
    dist=$(pg_sql "$PROBE_DB" "SELECT '[1,0]'::vector <=> '[0,1]'::vector") ||
        die "pgvector distance query failed"
    [ "$(pg_sql "$PROBE_DB" "SELECT ('[1,0]'::vector <=> '[0,1]'::vector) = 1")" = t ] ||
        die "unexpected cosine distance: got '$dist', expected 1"
    versions=$(pg_sql "$PROBE_DB" "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname <> 'plpgsql'")
    pg_sql postgres "DROP DATABASE IF EXISTS $PROBE_DB" >/dev/null
    PROBE_CREATED=0
    log "extensions work: $versions (cosine distance '[1,0]' <=> '[0,1]' = $dist)"
}

# Remove cached builds and runtime copies of other versions (the server no longer uses them).
prune_old_versions() {
    local key d
    key=$(basename "$PREFIX")
    for d in "$CACHE_ROOT"/* "$RUN_DIR"/install/*; do
        [ -d "$d" ] || continue
        case "$(basename "$d")" in "$key") continue ;; esac
        log "removing superseded build $d"
        rm -rf -- "$d"
    done
}

# ---------------------------------------------------------------------------
main() {
    local print_bindir=0
    case "${1:-}" in
        --print-bindir) print_bindir=1 ;;
        "") ;;
        *) die "usage: $0 [--print-bindir]" ;;
    esac
    # With --print-bindir, fd 3 is the real stdout and everything else goes to stderr.
    exec 3>&1
    [ "$print_bindir" = 0 ] || exec 1>&2

    local started=$SECONDS
    # A first build is long.
    one_run_at_a_time ensure-postgres17 3600

    if is_root && ! id -u "$SERVER_OS_USER" >/dev/null 2>&1; then
        die "OS user $SERVER_OS_USER does not exist (PostgreSQL refuses to run as root)"
    fi

    ensure_build
    ensure_runtime_bin
    ensure_server
    probe_extensions
    prune_old_versions
    log "PostgreSQL $("$BIN/postgres" --version | awk '{ print $3 }') ready at" \
        "postgres://$PGUSER_NAME@$PGHOST_ADDR:$PGPORT_NUM/postgres (bin $BIN) in $((SECONDS - started))s"
    [ "$print_bindir" = 0 ] || printf '%s\n' "$BIN" >&3
}

main "$@"

# shellcheck shell=bash
# What ensure-postgres.sh and ensure-postgres17.sh share, sourced by both: their log lines, psql
# against the server they look after, noisy commands logged to a file, and Debian's NEXT release's
# source packages (bookworm -> trixie) fetched from the mirror the machine already uses. The
# mirror is read from apt's configuration at run time (no host name is written here) and the next
# release's index goes into a private, temporary apt state: the machine's own apt lists and
# sources are left untouched.
#
# The sourcing script sets LOG_TAG (its name in log lines) before sourcing; PGPORT_NUM (the port
# of the server pg_sql and is_ready talk to), PROBE_DB (its scratch
# database), WORK (its temporary folder, with build.log) and BIN (the folder of the server's
# programs; unset or empty: those on PATH) before calling the functions that use them. Sourcing
# sets the exit trap that drops the scratch database a probe left and removes WORK.

# Both servers: on loopback, with the superuser postgres (trust), ready within a minute of a start.
PGHOST_ADDR=127.0.0.1
PGUSER_NAME=postgres
READY_TIMEOUT_S=60

log() { printf '[%s] %s\n' "$LOG_TAG" "$*"; }
die() {
    printf '[%s] ERROR: %s\n' "$LOG_TAG" "$*" >&2
    exit 1
}

# psql against the TCP listener, ignoring any ~/.psqlrc, unaligned output.
pg_sql() {
    local db=$1 sql=$2
    PGCONNECT_TIMEOUT=5 PGOPTIONS='-c client_min_messages=warning' "${BIN:+$BIN/}psql" -X -q -At -v ON_ERROR_STOP=1 \
        -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U "$PGUSER_NAME" -d "$db" -c "$sql"
}

is_root() { [ "$(id -u)" = 0 ]; }
need_root() { is_root || die "must run as root to $1"; }

is_ready() { "${BIN:+$BIN/}pg_isready" -q -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -t 2 >/dev/null 2>&1; }

# One run at a time (the probe database's name is fixed; a cache or cluster may be shared): waits
# up to $2 seconds for the lock named $1, held on fd 9 until the script exits. A process the
# script starts to outlive it must close fd 9 (9>&-).
one_run_at_a_time() {
    exec 9>"${TMPDIR:-/tmp}/$1.lock"
    flock -w "$2" 9 || die "timed out waiting for another $1 run"
}

# The probe sets PROBE_CREATED=1 while its scratch database exists.
WORK=""
PROBE_CREATED=0
cleanup() {
    local rc=$?
    if [ "$PROBE_CREATED" = 1 ]; then
        pg_sql postgres "DROP DATABASE IF EXISTS $PROBE_DB" >/dev/null 2>&1 || true
    fi
    if [ -n "$WORK" ] && [ -d "$WORK" ]; then
        rm -rf -- "$WORK"
    fi
    exit "$rc"
}
trap cleanup EXIT

# Run a noisy command with its output going to $WORK/build.log; show the tail of that log if it
# fails.
run_logged() {
    local what=$1
    shift
    if ! "$@" >>"$WORK/build.log" 2>&1; then
        printf '[%s] ---- last lines of build log ----\n' "$LOG_TAG" >&2
        tail -n 60 "$WORK/build.log" >&2 || true
        die "$what failed: $*"
    fi
}

# ---------------------------------------------------------------------------
# Debian's next release's source packages
# ---------------------------------------------------------------------------

# The machine's Debian release (e.g. bookworm), from /etc/os-release; "" when it names none.
os_codename() {
    # shellcheck disable=SC1091
    (. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
}

# Small and explicit on purpose: the release whose source index we borrow.
next_codename() {
    case "$1" in
        bookworm) echo trixie ;;
        trixie) echo forky ;;
        *) return 1 ;;
    esac
}

# Print the URI (without a trailing slash) of the configured Debian mirror that serves "$1 main",
# from apt's own view of sources.list / sources.list.d (one-line and deb822 formats alike); when
# apt names none and a command "$2" is given, from what that command prints for "$1". Returns 1
# when there is none.
mirror_from_apt_config() {
    local codename=$1 fallback=${2:-} uri
    # shellcheck disable=SC2016  # $(...) here are apt's format fields
    uri=$(apt-get indextargets --no-release-info \
        --format '$(TARGET_OF) $(RELEASE) $(COMPONENT) $(REPO_URI)' 2>/dev/null |
        awk -v c="$codename" '($1 == "deb" || $1 == "deb-src") && $2 == c && $3 == "main" { print $4; exit }') || true
    if [ -z "$uri" ] && [ -n "$fallback" ]; then
        uri=$("$fallback" "$codename") || true
    fi
    [ -n "$uri" ] || return 1
    printf '%s' "${uri%/}"
}

# A private apt state in $WORK/apt that knows only the deb-src line of release "$2" on mirror "$1"
# (checked with Debian's archive keyring when it is installed), its own lists and cache: sets
# APT_OPTS, the options that point apt-get and apt-cache at it. Nothing under /etc/apt or
# /var/lib/apt changes. Also makes $WORK/src, where sources are downloaded.
APT_OPTS=()
use_next_release_sources() {
    local mirror=$1 release=$2 keyring=/usr/share/keyrings/debian-archive-keyring.gpg signed=""
    [ -f "$keyring" ] && signed="[signed-by=$keyring] "
    mkdir -p "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" "$WORK/apt/parts" "$WORK/src"
    printf 'deb-src %s%s %s main\n' "$signed" "$mirror" "$release" >"$WORK/apt/sources.list"
    APT_OPTS=(
        -o "Dir::Etc::SourceList=$WORK/apt/sources.list"
        -o "Dir::Etc::SourceParts=$WORK/apt/parts"
        -o "Dir::State::Lists=$WORK/apt/lists"
        -o "Dir::Cache=$WORK/apt/cache"
        -o "Dir::Cache::pkgcache="
        -o "Dir::Cache::srcpkgcache="
        -o "APT::Sandbox::User=root"
    )
}

# Downloads Debian's pgvector source package "$1" of release "$2" through the private apt state
# (apt checks the files against its signed index), unpacks it into $WORK/src/pgvector, and builds
# and installs it against the pg_config "$3" (OPTFLAGS='': a portable binary, no -march=native).
build_pgvector_source() {
    local ver=$1 release=$2 pg_config=$3 srcdir="$WORK/src/pgvector" here=$PWD
    log "downloading Debian source package pgvector $ver ($release)"
    cd "$WORK/src"
    run_logged "apt-get source pgvector" apt-get -q "${APT_OPTS[@]}" source --download-only "pgvector=$ver"
    rm -rf -- "$srcdir"
    run_logged "dpkg-source -x" dpkg-source -x ./pgvector_*.dsc "$srcdir"
    cd "$here"
    [ -f "$srcdir/Makefile" ] || die "unpacked pgvector source has no Makefile"
    log "building pgvector $ver against $pg_config (OPTFLAGS='' for a portable binary)"
    run_logged "make pgvector" make -C "$srcdir" -j "$(nproc)" PG_CONFIG="$pg_config" OPTFLAGS=""
    run_logged "make install pgvector" make -C "$srcdir" install PG_CONFIG="$pg_config" OPTFLAGS=""
}

# Shared by scripts/demo and scripts/test: installs what a fresh Debian or Ubuntu machine with Swift lacks.
# Sourced, not run. Uses sudo only when not root, and says what it installs.

need_apt_packages() {
    local missing=()
    for package in "$@"; do
        # Installed means "install ok installed": `dpkg -s` also succeeds for a package that was removed but left
        # its configuration files behind (state rc), whose programs and headers are gone.
        [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] || missing+=("$package")
    done
    ((${#missing[@]})) || return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "atoauth: needs ${missing[*]}; run as root or install sudo" >&2
            exit 1
        }
        sudo=(sudo)
    fi
    echo "atoauth: installing ${missing[*]} (apt-get)" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The project-local Python environment the interop and browser tests use; its python3 comes first on PATH.
need_python_tools() {
    local venv="$root/.venv"
    if ! "$venv/bin/python3" -c 'import pydpop, joserfc, websocket' 2>/dev/null; then
        if ! python3 -m venv --help >/dev/null 2>&1; then need_apt_packages python3-venv; fi
        echo "atoauth: installing pydpop, joserfc and websocket-client into $venv (pip)" >&2
        python3 -m venv "$venv"
        "$venv/bin/python3" -m pip install -q --disable-pip-version-check \
            'pydpop==0.2.1' 'joserfc>=1.6' 'websocket-client>=1.6'
    fi
    export PATH="$venv/bin:$PATH"
}

# The flags of every debug build the scripts make; the tests and the fuzz targets share them, so the fuzz build reuses
# the dependencies the tests built. CI builds once from scratch and keeps line tables only for debugging (file and
# line in a backtrace, no variables), which makes the build faster. (The code index stays: SwiftPM's test discovery
# on Linux reads it.)
build_flags=()
if [ "${CI:-}" = true ]; then
    build_flags=(-Xswiftc -gline-tables-only)
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

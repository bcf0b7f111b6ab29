# Shared by scripts/run, scripts/test and scripts/pi-check: system packages and the virtualenv.

# Say in one line what failed and what fixes it, and stop.
fail() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# Install the Debian packages that are missing (as root, or through sudo).
ensure_apt() {
  local need=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # One of these scripts at a time: .ci/run starts pi-check's arm64 part beside scripts/test, and apt-get
  # fails at once on a lock another one holds. The lock timeout waits for any other apt (a new Pi's first
  # boot runs its own).
  (
    flock 8
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq || true  # a stale mirror still leaves the cached lists
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need[@]}" >/dev/null
  ) 8>"${TMPDIR:-/tmp}/spicy-companion-apt.lock" ||
    fail "could not install ${need[*]} with apt: run sudo apt-get install ${need[*]} and read what it says"
}

# The last line of a log that says what went wrong: pip's last ERROR line, else its last line.
last_error() {
  { grep -E '^ *ERROR: ' "$1" || grep -v '^ *$' "$1"; } | tail -n 1 | sed 's/^ *//' | cut -c1-200
}

# True on a Raspberry Pi (any model, any OS).
on_a_pi() {
  grep -qas "Raspberry Pi" /proc/device-tree/model /sys/firmware/devicetree/base/model
}

# Create .venv if needed and install the project into it, with the extras named (if any).
#
# On a Pi, lgpio comes from Raspberry Pi OS's python3-lgpio, never from pip: PyPI
# has no lgpio wheel for Trixie's Python 3.13 and its sdist needs swig, a
# compiler and liblgpio-dev. The venv is made with --system-site-packages so it
# sees that package (README: "On the Raspberry Pi").
#
# A venv without Kivy is what an interrupted or failed first install leaves:
# it is removed and made again, and a failed install removes the venv it made,
# so the next run starts clean instead of from half an install.
ensure_venv() {
  local spec="." site=() log
  [ -z "${1:-}" ] || spec=".[$1]"
  python3 -c "import ensurepip" 2>/dev/null || ensure_apt python3-venv
  if on_a_pi; then
    ensure_apt python3-lgpio
    site=(--system-site-packages)
  fi
  if [ -e .venv ] && ! .venv/bin/python -c "import importlib.util as u; exit(not u.find_spec('kivy'))" 2>/dev/null; then
    rm -rf .venv
  fi
  local fresh=""
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv "${site[@]}" .venv || fail "python3 -m venv failed: run sudo apt-get install python3-venv"
    fresh=yes
  elif [ ${#site[@]} -gt 0 ] && ! grep -qs "include-system-site-packages = true" .venv/pyvenv.cfg; then
    python3 -m venv --upgrade "${site[@]}" .venv  # an older .venv, made before it had to see python3-lgpio
  fi
  log="$(mktemp "${TMPDIR:-/tmp}/spicy-companion-pip.XXXXXX")"
  if ! .venv/bin/pip install --disable-pip-version-check -e "$spec" >"$log" 2>&1; then
    [ -z "$fresh" ] || rm -rf .venv
    fail "pip could not install the app into .venv ($(last_error "$log")); the whole log is in $log: fix that, then run $0 again"
  fi
  rm -f "$log"
  if [ ${#site[@]} -gt 0 ] && ! .venv/bin/python -c "import lgpio" 2>/dev/null; then
    fail "the venv cannot import lgpio: run sudo apt-get install python3-lgpio (Raspberry Pi OS has it)"
  fi
}

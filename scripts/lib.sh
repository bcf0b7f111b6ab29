# Shared by scripts/run and scripts/test: system packages and the virtualenv.

# Install the Debian packages that are missing (as root, or through sudo).
ensure_apt() {
  local need=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
}

# Create .venv if needed and install the project into it, with the extras named (if any).
ensure_venv() {
  python3 -c "import ensurepip" 2>/dev/null || ensure_apt python3-venv
  [ -x .venv/bin/python ] || python3 -m venv .venv
  local spec="."
  [ -z "${1:-}" ] || spec=".[$1]"
  .venv/bin/pip install -q --disable-pip-version-check -e "$spec"
}

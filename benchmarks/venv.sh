# Sourced by the benchmark scripts: ensure_venv DIR REQUIREMENTS creates the
# Python virtual environment DIR from the pinned REQUIREMENTS file when it
# has no python yet (the peers each run in their own venv).
ensure_venv() {
    local dir="$1" requirements="$2"
    [ -x "$dir/bin/python" ] && return 0
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --upgrade pip
    "$dir/bin/python" -m pip install --quiet -r "$requirements"
}

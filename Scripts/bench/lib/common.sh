# Shared setup for Scripts/bench/run and its drivers: sourced, never run. Each function does
# its work once per machine (or per run) and is cheap when it is already done.
# Expects the working directory to be the repository's root.

bench_work=$PWD/.build-bench
bench_results=Scripts/bench/results
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

# Installs the Debian packages that provide the given commands, when one is missing.
#   need_commands nginx:nginx-light hyperfine:hyperfine /usr/bin/time:time
need_commands() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "Installing ${missing[*]}..." >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

# One line describing the machine; also written to results/machine.txt.
machine_description() {
  echo "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release; echo "$PRETTY_NAME"), $(swift --version 2>&1 | head -1)"
}

# The seeded 1,000-feed corpus (186 MB, 50 host names on 127.0.0.1) in DIR/corpus.
#   ensure_corpus DIR [FEEDS] [EXTRA corpus.py ARGS...]
ensure_corpus() {
  local dir=$1 feeds=${2:-1000}
  shift; [ $# -gt 0 ] && shift
  [ -f "$dir/corpus/corpus.json" ] || python3 Scripts/bench/lib/corpus.py "$dir/corpus" "$feeds" 18480 "$@" >&2
}

# Serves DIR/corpus with nginx on port 18480 until the calling script exits.
serve_corpus() {
  local dir=$1
  rm -rf "$dir/serve" && mkdir -p "$dir/serve/nginx-tmp"
  sed -e "s#@WORK@#$dir/serve#g; s#@CORPUS@#$dir/corpus#g; s#@PORT@#18480#g" Scripts/bench/lib/nginx.conf.in > "$dir/serve/nginx.conf"
  nginx -c "$dir/serve/nginx.conf" -e "$dir/serve/nginx-error.log" &
  bench_nginx_pid=$!
  trap 'kill $bench_nginx_pid 2>/dev/null || true; bench_cleanup' EXIT
  local _
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:18480/" && return 0; sleep 0.1; done
}

# More work for the EXIT trap (a checkout to remove); replaced by callers that need it.
bench_cleanup() { :; }

# Checks out REV beside this tree (once) and prints its directory.
checkout_revision() {
  local rev=$1 dir
  dir=$bench_work/rev-$(git rev-parse --short "$rev")
  if [ ! -d "$dir" ]; then
    git worktree prune
    git worktree add --detach "$dir" "$rev" >/dev/null 2>&1
  fi
  echo "$dir"
}

# Builds rss-create and rss-update in release, as installed, for TREE (default this one), and
# prints the directory of the binaries.
release_binaries() {
  local tree=${1:-$PWD}
  Scripts/build-release --tree "$tree" --scratch-path "$tree/.build-bench/release" rss-create rss-update
}

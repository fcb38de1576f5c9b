#!/usr/bin/env bash
# Writes the distribution's class-data sharing archive at build time, so that even the first `bin/kraft-cli start`
# maps its classes instead of loading them from the jar: runs one single-node start in a temporary directory through
# bin/kraft-cli (which names and checks the archive as it does for users), sends it one produce so the broker's
# produce path is archived too, stops it (the JVM writes the archive as it exits) and lets bin/kraft-cli take the
# archive into <jar's directory>/cds. Never fails the build: without an archive the launcher falls back to writing
# one at the first start.
#   cds-training.sh REPO_DIR JAVA_HOME
set -uo pipefail
repo_dir="$1"
export JAVA_HOME="$2"
launcher="$repo_dir/bin/kraft-cli"
jar="$(ls "$repo_dir"/cli/target/kraft-cli-*-all.jar 2>/dev/null | head -1)"
skip() { echo "cds-training: no class-data sharing archive written: $1" >&2; exit 0; }
[[ -f "$jar" ]] || skip "no distribution jar in $repo_dir/cli/target"
archive_dir="$(dirname "$jar")/cds"
rm -rf "$archive_dir"
mkdir -p "$archive_dir"
export KRAFT_CACHE_DIR="$archive_dir"
work="$(mktemp -d /tmp/kraft-cds-training.XXXXXX)"
node_pid=""
cleanup() {
  [[ -n "$node_pid" ]] && kill -9 "$node_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# A port nothing listens on (a refused connection); another process may still take it first, which only costs the
# archive, never the build.
free_port() {
  local port
  for _ in $(seq 50); do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}
controller_port="$(free_port)" || skip "no free port"
mkdir -p "$work/data"
# The default configuration with ports of its own: the first start formats ./data as a user's first start does.
sed -e "s/localhost:9093/localhost:$controller_port/g" -e "s/localhost:9092/localhost:0/" \
    -e "s/^http.listener=.*/http.listener=localhost:0/" \
    "$repo_dir/cli/src/main/dist/config/server.properties" > "$work/data/server.properties"

cd "$work" || skip "cannot enter $work"
LOG_DIR="$work/logs" bash "$launcher" start > "$work/start.out" 2> "$work/start.err" &
node_pid=$!
client_port=""
for _ in $(seq 3000); do
  client_port="$(sed -n -E 's/.*ready, listening: PLAINTEXT localhost:([0-9]+).*/\1/p' "$work/start.out")"
  [[ -n "$client_port" ]] && break
  kill -0 "$node_pid" 2>/dev/null || skip "the training node stopped: $(tail -3 "$work/start.err")"
  sleep 0.1
done
[[ -n "$client_port" ]] || skip "the training node was not ready within 300 s"
echo "cds-training" | bash "$launcher" produce --bootstrap-server "localhost:$client_port" --topic cds-training \
    > /dev/null 2>&1 || echo "cds-training: the training produce failed; archiving the start alone" >&2
kill -TERM "$node_pid"
wait "$node_pid"
node_pid=""
# The next launch checks the archive the node wrote and moves it into place.
bash "$launcher" random-uuid > /dev/null || skip "bin/kraft-cli random-uuid failed"
ls "$archive_dir"/*.jsa > /dev/null 2>&1 || skip "the training node wrote no usable archive"
echo "cds-training: wrote $(ls "$archive_dir"/*.jsa)" >&2

#!/usr/bin/env bash
# Runs a command in a copy of the repository that has no sibling folders, so
# that anything reading a path outside the repository (such as a sibling
# shared/ folder) fails here exactly as it would on a fresh clone.
#
#   scripts/standalone.sh cargo test --workspace --all-targets
#
# The copy holds the files git tracks (add a new file with `git add` before
# it can be tested), with their modification times, in
# $TMPDIR/mcp-lanes-standalone/repo: a stable path, so cargo's incremental
# builds keep working between runs. Its build goes to target/standalone of
# the real repository. Before copying, tracked files are searched for paths
# that leave the repository; any hit fails the run.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
root="$MCP_LANES_ROOT"
cd "$root"
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

# 1. Nothing tracked names a folder beside the repository. Documents may
#    mention history; code, scripts, tests and configuration may not.
hits="$(git grep -nE '\.\./shared|/work/shared|(\.\./){3,}' -- \
  ':!*.md' ':!spec/' ':!tests/e2e/package-lock.json' ':!scripts/standalone.sh' 2>/dev/null || true)"
if [ -n "$hits" ]; then
  echo "[standalone] tracked files read outside the repository:" >&2
  printf '%s\n' "$hits" >&2
  exit 1
fi

# 2. A copy with nothing beside it.
base="${TMPDIR:-/tmp}/mcp-lanes-standalone"
mkdir -p "$base"
# One run at a time uses the copy. The lock waits at most
# MCP_LANES_LOCK_WAIT seconds (60), then names who holds it: a run killed
# midway can leave a process behind (a peer server a test started).
lock="$base/.lock"
exec 8>"$lock"
holders() {
  local want fd pid seen=" "
  want="$(readlink -f "$lock")"
  for fd in /proc/[0-9]*/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$want" ] || continue
    pid="${fd#/proc/}"
    pid="${pid%%/*}"
    case "$seen" in *" $pid "*) continue ;; esac
    seen="$seen$pid "
    [ "$pid" = "$$" ] && continue
    printf '  pid %s: %s\n' "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
  done
  [ "$seen" != " $$ " ] && [ "$seen" != " " ] || echo "  (no process of yours holds it: another user's, or it has just ended)"
}
if ! flock -n 8; then
  wait_s="${MCP_LANES_LOCK_WAIT:-60}"
  echo "[standalone] waiting up to ${wait_s} s for $lock (another standalone run, or a process one left behind, holds it)" >&2
  if ! flock -w "$wait_s" 8; then
    echo "[standalone] $lock is still held after ${wait_s} s, by:" >&2
    holders >&2
    echo "[standalone] end what is stale (a run killed midway leaves its servers behind) and run again" >&2
    exit 1
  fi
fi
copy="$base/repo"
rm -rf "$copy.new"
mkdir -p "$copy.new"
git ls-files -z --cached \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | tar --null -T - -cf - | tar -xf - -C "$copy.new"
# tar keeps each file's modification time, so cargo rebuilds only what
# changed since the last run.
# Installed, git-ignored dependencies of the repository itself (the pinned
# SDK peers that crates/cli/tests/sdk_clients.rs runs) are linked in, not
# copied: they belong to the repository, not beside it.
for dep in tests/peers/node_modules tests/peers/.venv; do
  if [ -e "$root/$dep" ]; then ln -s "$root/$dep" "$copy.new/$dep"; fi
done
rm -rf "$copy"
mv "$copy.new" "$copy"
ls -A "$base" | grep -qvxE 'repo|\.lock' && { echo "[standalone] $base holds more than the copy" >&2; exit 1; }

echo "[standalone] running in $copy (no sibling folders): $*"
cd "$copy"
export CARGO_TARGET_DIR="$root/target/standalone"
export MCP_LANES_ROOT="$copy"
unset MCP_LANES_SPEC_DIR
# The lock stays with this shell, which waits for the command: the command
# and what it starts do not inherit it, so a process a killed run leaves
# behind does not hold the next run back.
"$@" 8>&-

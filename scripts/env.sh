# shellcheck shell=bash
# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (see setup.py for the full notice).
#
# Sourced by scripts/demo and scripts/test: creates (or reuses) a virtual
# environment in .venv/<distro> with the ROS 2 core wheels from PyPI, and sets
# the variables every ROS process started from here must have.  No sudo, no
# ROS install; nothing is written outside the checkout but pip's cache.

TWOBONE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TWOBONE_DISTRO="${ROS_DISTRO:-kilted}"
case "$TWOBONE_DISTRO" in
  kilted|jazzy) ;;
  *)
    echo "scripts: ROS_DISTRO=$TWOBONE_DISTRO has no PyPI wheels; use kilted (default) or jazzy." >&2
    echo "With a sourced ROS install, build with colcon instead (README, 'In a ROS workspace')." >&2
    return 2 2>/dev/null || exit 2 ;;
esac
TWOBONE_VENV="$TWOBONE_ROOT/.venv/$TWOBONE_DISTRO"
TWOBONE_PYTHON="${TWOBONE_PYTHON:-python3.11}"
command -v "$TWOBONE_PYTHON" >/dev/null 2>&1 || TWOBONE_PYTHON=python3

twobone_requirements_stamp() {
  cat "$TWOBONE_ROOT/requirements/$TWOBONE_DISTRO.txt" "$TWOBONE_ROOT/requirements/dev.txt" \
    | sha256sum | cut -c1-16
}

twobone_ensure_venv() {
  local stamp
  stamp="$(twobone_requirements_stamp)"
  if [ -x "$TWOBONE_VENV/bin/python" ] && [ "$(cat "$TWOBONE_VENV/.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "scripts: creating $TWOBONE_VENV (ROS 2 $TWOBONE_DISTRO wheels from PyPI)" >&2
  rm -rf "$TWOBONE_VENV"
  "$TWOBONE_PYTHON" -m venv "$TWOBONE_VENV" || return 1
  # pip prints a warning per package for each configured index folder that is
  # absent on this machine; keep only real messages
  "$TWOBONE_VENV/bin/python" -m pip install --disable-pip-version-check -q \
    -r "$TWOBONE_ROOT/requirements/$TWOBONE_DISTRO.txt" \
    -r "$TWOBONE_ROOT/requirements/dev.txt" 2> >(grep -v 'is ignored: it is neither' >&2) \
    || return 1
  echo "$stamp" > "$TWOBONE_VENV/.stamp"
}

# Discovery stays on this machine, in a domain of this run's own (1..101).
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$(( 1 + $$ % 101 ))}"
export ROS_DISTRO="$TWOBONE_DISTRO"
export PYTHONPATH="$TWOBONE_ROOT${PYTHONPATH:+:$PYTHONPATH}"
